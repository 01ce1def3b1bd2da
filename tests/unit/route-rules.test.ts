import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { routeRulesFinder, rulesOf } from "../../app/http/route-rules";

// A route's rules (CSRF exemption, JSON replies, the class of its work) live in its own
// `handle` export (docs/decisions/265): the boundary, the limits and the serving process read
// them there, and no table of route ids, file names or URL patterns stands in for them.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ROUTES = fs
  .readdirSync(path.join(ROOT, "app/routes"))
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => f.replace(/\.tsx?$/, ""));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mjs|js|sh)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The code of a file without its comments (line comments and block comments). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:\\])\/\/.*$/gm, "$1");

/** What in a file's code decides by route: `routes/<id>`, a route file's name, a URL test. */
export function routeRulesIn(text: string): string[] {
  const c = code(text);
  const found: string[] = [];
  for (const m of c.matchAll(/["'`]routes\/[\w.$\-[\]]+/g)) found.push(m[0]);
  for (const name of ROUTES) {
    // A route file's name with a segment separator (api.portal.quote, import-data.preview) in a string.
    if (!/[._]/.test(name)) continue;
    const quoted = new RegExp(`["'\`/]${name.replace(/[.$[\]]/g, "\\$&")}["'\`]`);
    if (quoted.test(c)) found.push(name);
  }
  // A URL path tested as a rule: a regular expression anchored on a path, or a path compared.
  for (const m of c.matchAll(/\/\^\\\/[\w(]/g)) found.push(m[0]);
  for (const m of c.matchAll(/(pathname|url|path)\w*\s*(===|!==|\.startsWith\(|\.includes\()\s*["'`]\//gi))
    found.push(m[0]);
  for (const m of c.matchAll(/\.startsWith\(\s*["'`]\/(api|portal|import|reports|customers|jobs|quotes|invoices)/g))
    found.push(m[0]);
  return found;
}

test("no route id, route file name or URL pattern decides a rule in app/http, app/services or scripts", () => {
  const offenders: string[] = [];
  for (const dir of ["app/http", "app/services", "scripts"]) {
    for (const file of sources(dir)) {
      const hits = routeRulesIn(fs.readFileSync(path.join(ROOT, file), "utf8"));
      if (hits.length) offenders.push(`${file}: ${hits.join(", ")}`);
    }
  }
  assert.deepEqual(offenders, [], offenders.join("\n"));
});

test("the check finds each kind of table the routes' rules replaced", () => {
  // The three shapes the rules had before they moved into the routes' `handle`.
  assert.ok(routeRulesIn(`const no = (id) => id.startsWith("routes/api.portal.");`).length);
  assert.ok(routeRulesIn(`if (routeId === "routes/import-data.preview") return "import";`).length);
  assert.ok(routeRulesIn(`const isJson = (url) => /^\\/(api\\/(?!portal\\/))/.test(url);`).length);
  assert.ok(routeRulesIn(`const kinds = new Set(["import-data.commit"]);`).length);
  assert.ok(routeRulesIn(`if (url.pathname.startsWith("/portal/")) skip();`).length);
  // A link a service builds is not a rule.
  assert.deepEqual(routeRulesIn(`return { path: "/requests", href: \`/jobs/\${id}\` };`), []);
  // Nor is a comment that names a route.
  assert.deepEqual(routeRulesIn(`// POST /api/portal/quote (routes/api.portal.quote)\nconst a = 1;`), []);
});

test("the routes that authenticate by token or signature, answer JSON or do metered work say so in their handle", () => {
  const handleOf = (name: string) => {
    const text = fs.readFileSync(path.join(ROOT, "app/routes", `${name}.tsx`), "utf8");
    const m = /export const handle: RouteRules = (\{[^}]*\});/.exec(text);
    assert.ok(m, `${name} declares its rules`);
    return Function(`return (${m[1]});`)();
  };
  for (const name of ROUTES.filter((n) => n.startsWith("api.portal.")))
    assert.equal(handleOf(name).csrf, "portal-token", name);
  assert.deepEqual(handleOf("api.billing.$provider.webhook"), { csrf: "signature", reply: "json" });
  for (const name of ["api.$", "api.offline-sync", "healthz", "ai-assistant.generate"])
    assert.equal(handleOf(name).reply, "json", name);
  assert.equal(handleOf("import-data.preview").work, "import");
  assert.equal(handleOf("reports._index").work, "report");
  assert.equal(handleOf("customers._index").work, "search");
});

test("a URL's rules are those of the route the router picks, not of a lower-ranked route that also matches", () => {
  const route = (id: string, parentId: string | undefined, p: string | undefined, handle?: object, index = false) => ({
    id,
    parentId,
    path: p,
    index,
    module: { handle },
  });
  const routes = Object.fromEntries(
    [
      route("root", undefined, ""),
      route("routes/api.$", "root", "api/*", { reply: "json" }),
      route("routes/api.portal.quote", "root", "api/portal/quote", { csrf: "portal-token" }),
      route("routes/reports.$file", "root", "reports/:file", { work: "report" }),
      route("routes/reports.settings", "root", "reports/settings"),
      route("routes/customers._index", "root", "customers", { work: "search" }, true),
      route("routes/customers.new", "root", "customers/new"),
    ].map((r) => [r.id, r]),
  );
  const rulesFor = routeRulesFinder(routes);
  assert.deepEqual(rulesFor("/api/nope"), { reply: "json" });
  assert.deepEqual(rulesFor("/api/portal/quote"), { csrf: "portal-token" });
  assert.deepEqual(rulesFor("/reports/top.csv"), { work: "report" });
  // A static route without rules outranks the dynamic one with rules.
  assert.deepEqual(rulesFor("/reports/settings"), {});
  assert.deepEqual(rulesFor("/customers"), { work: "search" });
  assert.deepEqual(rulesFor("/customers/new"), {});
  assert.deepEqual(rulesFor("/elsewhere"), {});
  assert.deepEqual(rulesOf(undefined), {});
  // Answers are kept per path (ids folded into one): asked again, and past the bound, the same.
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 2_500; i++) {
      const id = `${i.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
      assert.deepEqual(rulesFor(`/reports/${id}`), { work: "report" });
      assert.deepEqual(rulesFor(`/api/x${i}`), { reply: "json" });
    }
    assert.deepEqual(rulesFor("/reports/settings"), {});
    assert.deepEqual(rulesFor("/customers"), { work: "search" });
    assert.deepEqual(rulesFor("/customers/new"), {});
  }
});
