import assert from "node:assert/strict";
import { test } from "node:test";
import { parseEnv } from "../../app/utils/env.server";
import { safeRedirectTo } from "../../app/http/auth.server";
import { followedHost, NON_ASCII_REDIRECT_PROBES, printableAscii, REDIRECT_PROBES } from "../helpers/redirects";
import { can, PERMISSIONS, ROLES } from "../../app/utils/permissions";

test("configuration: a bad variable is named in the message", () => {
  assert.throws(() => parseEnv({ PORT: "not-a-port", DATA_DIR: "/tmp/x-env-test" }), /PORT/);
  assert.throws(
    () => parseEnv({ DATABASE_URL: "mysql://x", DATA_DIR: "/tmp/x-env-test" }),
    /DATABASE_URL: must be a postgres/,
  );
  assert.throws(() => parseEnv({ APP_URL: "not a url", DATA_DIR: "/tmp/x-env-test" }), /APP_URL/);
  assert.throws(
    () => parseEnv({ SESSION_SECRET: "short", DATA_DIR: "/tmp/x-env-test" }),
    /SESSION_SECRET: each secret/,
  );
});

test("configuration: production refuses to start without secrets; development generates them once", () => {
  assert.throws(
    () => parseEnv({ NODE_ENV: "production" }),
    /SESSION_SECRET: required in production[\s\S]*PORTAL_TOKEN_SECRET: required/,
  );
  const dir = `/tmp/fs-env-${process.pid}`;
  const a = parseEnv({ DATA_DIR: dir });
  const b = parseEnv({ DATA_DIR: dir });
  assert.equal(a.SESSION_SECRET[0], b.SESSION_SECRET[0]);
  assert.ok(a.SESSION_SECRET[0].length >= 32);
  const rotated = parseEnv({
    SESSION_SECRET: "new-secret-0123456789abc, old-secret-0123456789abc",
    PORTAL_TOKEN_SECRET: "p".repeat(20),
  });
  assert.deepEqual(rotated.SESSION_SECRET, ["new-secret-0123456789abc", "old-secret-0123456789abc"]);
});

test("redirectTo: same-site paths only", () => {
  assert.equal(safeRedirectTo("/customers?q=a"), "/customers?q=a");
  for (const bad of [
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "javascript:alert(1)",
    "",
    null,
    undefined,
  ]) {
    assert.equal(safeRedirectTo(bad as string), "/", String(bad));
  }
});

test("redirectTo: every probe variant lands on a same-site path; the value returned is what is checked", () => {
  for (const probe of REDIRECT_PROBES) {
    const out = safeRedirectTo(probe);
    assert.equal(followedHost(out), "app.example", JSON.stringify(probe));
    assert.ok(out.startsWith("/") && !out.startsWith("//") && !/[\\\u0000-\u001f]/.test(out), JSON.stringify(probe));
  }
  // The variants of the report come back as the fallback, not as a normalised `//evil.example`.
  for (const probe of ["/.//evil.example", "/..//evil.example", "/\t/evil.example"])
    assert.equal(safeRedirectTo(probe), "/");
  // Outside ASCII: percent-encoded as UTF-8 (printable ASCII only, fit for a Location header), on this site.
  for (const probe of NON_ASCII_REDIRECT_PROBES) {
    const out = safeRedirectTo(probe);
    assert.ok(printableAscii(out), `${JSON.stringify(probe)} -> ${out}`);
    assert.equal(followedHost(out), "app.example", JSON.stringify(probe));
    assert.ok(out.startsWith("/") && !out.startsWith("//"), JSON.stringify(probe));
  }
  assert.equal(safeRedirectTo("/。x"), "/%E3%80%82x");
  assert.equal(safeRedirectTo("/café"), "/caf%C3%A9");
  assert.equal(safeRedirectTo("/jobs?q=Привет#é"), "/jobs?q=%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82#%C3%A9");
  assert.equal(safeRedirectTo("／／evil.example"), "/", "a full-width solidus is no path: the fallback");
  // A harmless encoded path is kept as it was written (it stays on the site).
  assert.equal(safeRedirectTo("/%2F%2Fevil.example"), "/%2F%2Fevil.example");
  assert.equal(safeRedirectTo("/jobs?status=open#today"), "/jobs?status=open#today");
  assert.equal(safeRedirectTo("/bad", "/customers"), "/bad");
  assert.equal(safeRedirectTo("//bad", "/customers"), "/customers");
});

test("permission matrix matches the contract", () => {
  const expected: Record<string, string> = {
    use_ai_assistant: "xxxx",
    import_csv: "xxx-",
    view_accounting_integrations: "xx--",
    view_calendar_integrations: "xxx-",
    view_llm_settings: "xx--",
    manage_integrations: "xx--",
    use_offline_workflow: "xxxx",
    view_records: "xxxx",
    manage_portal_links: "xxx-",
    view_dashboard: "xxx-",
    view_reports: "xx--",
    manage_team: "xx--",
    access_api: "xx--",
    manage_records: "xxx-",
    export_account: "xx--",
    manage_taxes: "xx--",
    manage_timesheets: "xxx-",
    export_payroll: "xx--",
  };
  assert.deepEqual(Object.keys(expected).sort(), [...PERMISSIONS].sort());
  for (const [permission, row] of Object.entries(expected)) {
    ROLES.forEach((role, i) => assert.equal(can(role, permission as never), row[i] === "x", `${role} ${permission}`));
  }
});
