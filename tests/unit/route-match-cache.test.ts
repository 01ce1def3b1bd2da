// The route-matching cache the remix-serve process loads (scripts/route-match-cache.mjs,
// docs/decisions/114): it applies to the installed @remix-run/router, and with it every path
// matches exactly as without it, on the app's own route tree (the build's manifest).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { patchRouterSource } from "../../scripts/route-match-cache.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const ROUTER_FILE = require.resolve("@remix-run/router");

type Router = typeof import("@remix-run/router") & { UNSAFE_fieldworkRouteMatchCache?: boolean };
type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] };
const asRoutes = (routes: RouteObject[]) => routes as unknown as Parameters<Router["matchRoutes"]>[0];

/** A private copy of the router module, compiled from the given source. */
function compileRouter(source: string): Router {
  const m = new Module(ROUTER_FILE) as Module & { _compile(content: string, filename: string): void; paths: string[] };
  m.filename = ROUTER_FILE;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    path.dirname(ROUTER_FILE),
  );
  m._compile(source, ROUTER_FILE);
  return m.exports as Router;
}

/** The app's route tree as the server matches it, from the build's manifest (the test runner builds first). */
function appRoutes(): RouteObject[] {
  const dir = path.join(ROOT, "public/build");
  const file = fs.readdirSync(dir).find((f) => /^manifest-\w+\.js$/.test(f));
  assert.ok(file, "the build's manifest (public/build/manifest-*.js): run the tests through `npm test`, which builds");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    routes: Record<string, { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }>;
  };
  const byParent = new Map<string | undefined, RouteObject[]>();
  for (const r of Object.values(manifest.routes)) {
    const list = byParent.get(r.parentId) ?? [];
    list.push({ id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive });
    byParent.set(r.parentId, list);
  }
  const attach = (routes: RouteObject[]): RouteObject[] =>
    routes.map((r) => {
      const children = byParent.get(r.id);
      return children ? { ...r, children: attach(children) } : r;
    });
  return attach(byParent.get(undefined) ?? []);
}

/** Every route's full path with its parameters filled in several ways, and paths that match nothing. */
function samplePaths(routes: RouteObject[]): string[] {
  const full: string[] = [];
  const walk = (rs: RouteObject[], base: string) => {
    for (const r of rs) {
      const p = r.path === undefined ? base : `${base}/${r.path}`.replace(/\/+/g, "/");
      full.push(p || "/");
      if (r.children) walk(r.children, p);
    }
  };
  walk(routes, "");
  const out = new Set<string>([
    "/",
    "",
    "/api",
    "/api/",
    "/API",
    "/api/nope",
    "/api/anything/at/all",
    "/API/Offline-Sync/",
    "/nope",
    "/a/b/c/d",
    "//",
    "//api//nope",
    "/%41pi/nope",
    "/portal/a%2Fb",
    "/customers/%E2%82%AC",
    "/customers/%zz",
    "/invoices/.pdf",
  ]);
  for (const p of full) {
    for (const value of ["1", "abc", "0b9c6f1e-6b7e-4a55-9d0e-3f3b1f3a7c11", "x.pdf", "a%20b", "UPPER"]) {
      const filled = p.replace(/:\w+/g, value).replace(/\*$/, "rest/of/it");
      out.add(filled);
      out.add(`${filled}/`);
      out.add(filled.toUpperCase());
      out.add(`${filled}/extra`);
    }
  }
  return [...out];
}

const summary = (matches: ReturnType<Router["matchRoutes"]>) =>
  matches &&
  matches.map((m) => ({
    id: (m.route as RouteObject).id,
    params: m.params,
    pathname: m.pathname,
    pathnameBase: m.pathnameBase,
  }));

test("the cache applies to the installed @remix-run/router (else remix-serve would warn and match uncached)", () => {
  const source = fs.readFileSync(ROUTER_FILE, "utf8");
  const patched = patchRouterSource(source);
  assert.ok(patched, `scripts/route-match-cache.mjs no longer fits ${ROUTER_FILE}: update it for this version`);
  assert.ok(compileRouter(patched).UNSAFE_fieldworkRouteMatchCache);
});

test("with the cache every path matches the app's routes exactly as without it, every time, for every route array", () => {
  const source = fs.readFileSync(ROUTER_FILE, "utf8");
  const plain = compileRouter(source);
  const cached = compileRouter(patchRouterSource(source)!);
  const routes = appRoutes();
  assert.ok(routes.length > 0 && (routes[0].children?.length ?? 0) > 30, "the app's route tree was read");
  const copy = JSON.parse(JSON.stringify(routes)) as RouteObject[];
  const paths = samplePaths(routes);
  let matched = 0;
  for (const p of paths) {
    const want = summary(plain.matchRoutes(asRoutes(routes), p));
    if (want) matched++;
    for (const [label, rs] of [
      ["first", routes],
      ["again", routes],
      ["another array", copy],
    ] as const) {
      assert.deepEqual(summary(cached.matchRoutes(asRoutes(rs), p)), want, `${p} (${label})`);
    }
    for (const basename of ["/app", "/"]) {
      assert.deepEqual(
        summary(cached.matchRoutes(asRoutes(routes), `/app${p}`, basename)),
        summary(plain.matchRoutes(asRoutes(routes), `/app${p}`, basename)),
        `${p} under ${basename}`,
      );
    }
  }
  assert.ok(matched > paths.length / 2, `most sample paths match a route (${matched} of ${paths.length})`);
  // A deeper tree than the app's: layouts, pathless layouts, optional and splat segments, case-sensitive routes.
  const deep: RouteObject[] = [
    {
      id: "root",
      path: "",
      children: [
        {
          id: "a",
          path: "a",
          children: [
            { id: "a-index", index: true },
            {
              id: "a-x",
              path: ":x",
              children: [
                { id: "a-x-b", path: "b" },
                { id: "a-x-c", path: "c/:y?" },
                { id: "a-x-rest", path: "*" },
              ],
            },
            {
              id: "a-layout",
              children: [
                { id: "a-static", path: "static" },
                { id: "a-Case", path: "Case", caseSensitive: true },
              ],
            },
          ],
        },
        { id: "opt", path: ":lang?/docs/*" },
        { id: "root-rest", path: "*" },
      ],
    },
  ];
  for (const p of [
    "/a",
    "/a/",
    "/a/1",
    "/a/1/b",
    "/a/1/c",
    "/a/1/c/2",
    "/a/1/zz/yy",
    "/a/static",
    "/a/Case",
    "/a/case",
    "/A/CASE",
    "/docs/x",
    "/en/docs/x/y",
    "/zzz",
    "/a/1/b/extra",
  ]) {
    for (let i = 0; i < 2; i++)
      assert.deepEqual(
        summary(cached.matchRoutes(asRoutes(deep), p)),
        summary(plain.matchRoutes(asRoutes(deep), p)),
        `deep ${p}`,
      );
  }
  // matchPath with a pattern of its own (compiled once, then from the cache).
  for (const pattern of [
    "/users/:id",
    { path: "/Users/:id", caseSensitive: true, end: false },
    "/files/*",
    "/a/:b?/c",
  ] as const) {
    for (const p of ["/users/7", "/Users/7/more", "/files/x/y", "/a/c", "/a/b/c", "/users/"]) {
      for (let i = 0; i < 2; i++)
        assert.deepEqual(cached.matchPath(pattern, p), plain.matchPath(pattern, p), `${JSON.stringify(pattern)} ${p}`);
    }
  }
});

test("the remix-serve preload installs it: the serving process's router carries the cache", () => {
  const probe = spawnSync(
    process.execPath,
    [
      "--import",
      path.join(ROOT, "scripts/serve-hooks.mjs"),
      "-e",
      "process.stdout.write(String(require('@remix-run/router').UNSAFE_fieldworkRouteMatchCache)); process.exit(0)",
    ],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  assert.equal(probe.stdout, "true", probe.stderr);
});
