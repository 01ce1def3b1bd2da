/**
 * The layers and the cycle check (docs/architecture.md). `npm test` runs
 * `depcruise app db scripts --config .dependency-cruiser.cjs` before the tests.
 */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "An import cycle: no module may reach itself through its imports.",
      from: {},
      to: { circular: true },
    },
    {
      name: "db-imports-nothing-of-the-app",
      severity: "error",
      comment: "db/ (connection, migrations, models) is the bottom layer: it imports nothing from app/.",
      from: { path: "^db/" },
      to: { path: "^app/" },
    },
    {
      name: "services-below-the-boundary",
      severity: "error",
      comment: "Services hold the business rules; the HTTP boundary, routes and components sit above them.",
      from: { path: "^app/services/" },
      to: { path: "^app/(http|routes|components)/|^app/root\\.tsx$" },
    },
    {
      name: "utils-are-a-leaf",
      severity: "error",
      comment:
        "app/utils holds shared pure helpers (and the env() configuration): it imports no service, boundary, route or component.",
      from: { path: "^app/utils/" },
      to: { path: "^app/(services|http|routes|components)/|^app/root\\.tsx$" },
    },
    {
      name: "components-below-routes",
      severity: "error",
      comment: "Components are loaded by routes, never the other way round (and never the root route).",
      from: { path: "^app/components/" },
      to: { path: "^app/routes/|^app/root\\.tsx$" },
    },
    {
      name: "http-is-the-boundary",
      severity: "error",
      comment: "app/http turns requests into service calls: it does not reach into routes or components.",
      from: { path: "^app/http/" },
      to: { path: "^app/(routes|components)/|^app/root\\.tsx$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are erased by the compiler: they join no module cycle at run time.
    tsPreCompilationDeps: false,
    exclude: { path: "^(build|public/build|node_modules)/" },
  },
};
