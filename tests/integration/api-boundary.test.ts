import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, clientFor, envelope } from "../helpers/client";
import { createTenantWithUsers } from "../helpers/fixtures";
import { startServer, type RunningServer } from "../helpers/server";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
// The planned REST routes of the specification (section 4.4): not registered.
const PLANNED = [
  ["POST", "/api/auth/token"],
  ["POST", "/api/auth/revoke"],
  ["GET", "/api/clients"],
  ["POST", "/api/clients"],
  ["GET", "/api/clients/1"],
  ["PATCH", "/api/clients/1"],
  ["DELETE", "/api/clients/1"],
  ["GET", "/api/jobs"],
  ["POST", "/api/jobs"],
  ["GET", "/api/jobs/1"],
  ["PATCH", "/api/jobs/1"],
  ["DELETE", "/api/jobs/1"],
  ["GET", "/api/quotes"],
  ["POST", "/api/quotes"],
  ["GET", "/api/quotes/1"],
  ["PATCH", "/api/quotes/1"],
  ["DELETE", "/api/quotes/1"],
  ["GET", "/api/invoices"],
  ["POST", "/api/invoices"],
  ["GET", "/api/invoices/1"],
  ["PATCH", "/api/invoices/1"],
  ["DELETE", "/api/invoices/1"],
  ["GET", "/api/dashboard"],
  ["GET", "/api/reports/summary"],
  ["GET", "/api/team"],
];

async function expect404(c: Client, method: string, path: string) {
  const res = await c.request(
    method,
    path,
    method === "GET" ? {} : { body: "x=1", headers: { "content-type": "application/x-www-form-urlencoded" } },
  );
  assert.equal(res.status, 404, `${method} ${path}`);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await envelope(res);
  assert.equal(body.success, false);
  assert.equal(body.error?.code, "NOT_FOUND");
  assert.deepEqual(body.error?.fields, {});
  assert.equal(body.meta.requestId, res.headers.get("x-request-id"));
}

test("every method on an unknown /api path and on each planned route answers the 404 envelope, signed in or not", async () => {
  const t = await createTenantWithUsers();
  for (const c of [new Client(), await clientFor(t.users.owner)]) {
    for (const m of METHODS) await expect404(c, m, "/api/anything/at/all");
    for (const [m, p] of PLANNED) await expect404(c, m, p);
  }
});

test("the server's own 404 for unknown /api paths shadows no registered API route, in any case or with a trailing slash", async () => {
  // Each registered /api route answers something of its own (a 401, 405, 415, 404 page...), never the unknown-route envelope.
  const registered = [
    "/api/offline-sync",
    "/API/Offline-Sync/",
    "/api/billing/stripe/webhook",
    "/api/billing/anything/webhook",
    "/api/portal/quote",
    "/api/portal/invoice-payment",
    "/api/portal/booking-request",
  ];
  for (const path of registered) {
    for (const method of ["GET", "POST"]) {
      const res = await new Client().request(
        method,
        path,
        method === "GET" ? {} : { body: "{}", headers: { "content-type": "application/json" } },
      );
      const text = await res.text();
      assert.doesNotMatch(text, /There is no such API route/, `${method} ${path} reached its route (${res.status})`);
    }
  }
  // The fast answer carries the same security headers as every other response, and HEAD has no body.
  const res = await new Client().get("/api/nope?x=1");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  const head = await new Client().request("HEAD", "/api/nope");
  assert.equal(head.status, 404);
  assert.equal(await head.text(), "");
});

test("X-Request-Id is echoed in meta.requestId; a client's own id is kept when well-formed", async () => {
  const res = await new Client().get("/healthz", { "x-request-id": "abc-123" });
  assert.equal(res.headers.get("x-request-id"), "abc-123");
  const body = await envelope(res);
  assert.deepEqual(body, { success: true, data: { status: "ok" }, meta: { requestId: "abc-123" } });
  const bad = await new Client().get("/healthz", { "x-request-id": "<script>" });
  assert.notEqual(bad.headers.get("x-request-id"), "<script>");
});

test("a known JSON route with the wrong method answers 405 with Allow", async () => {
  const res = await new Client().request("DELETE", "/healthz");
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "GET, HEAD");
  assert.equal((await envelope(res)).error?.code, "METHOD_NOT_ALLOWED");
});

test("pages carry security headers: CSP with a nonce, frame-ancestors none, nosniff, Referrer-Policy", async () => {
  const res = await new Client().get("/login");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.ok(res.headers.get("referrer-policy"));
  const nonce = csp.match(/nonce-([^']+)/)![1];
  const html = await res.text();
  for (const script of html.match(/<script[^>]*>/g) ?? []) {
    if (!/src=/.test(script))
      assert.ok(script.includes(`nonce="${nonce}"`), `inline script without the nonce: ${script}`);
  }
  const fav = await new Client().get("/favicon.svg");
  assert.equal(fav.status, 200);
});

test("an unknown page is the 404 page in the layout; a page without the permission is the 403 page", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const res = await owner.get("/no-such-page");
  assert.equal(res.status, 404);
  const html = await res.text();
  assert.match(html, /Page not found/);
  assert.match(html, /class="sidebar"/);
});

let crashing: RunningServer;
before(async () => {
  crashing = await startServer({ FAULTS: "api:/healthz" });
});
after(async () => {
  await crashing?.stop();
});

test("an error thrown inside an /api route answers the 500 envelope without internals", async () => {
  const res = await new Client(crashing.url).get("/healthz");
  assert.equal(res.status, 500);
  const text = await res.text();
  const body = JSON.parse(text);
  assert.equal(body.success, false);
  assert.equal(body.error.code, "INTERNAL_ERROR");
  assert.doesNotMatch(text, /injected|stack|at .*\.js|node_modules/i);
});

test("behind a proxy (Origin is APP_URL, Host is internal) forms work; another Origin is 403, never 500", async () => {
  const proxied = await startServer({ APP_URL: "https://fieldwork.example" });
  try {
    const c = new Client(proxied.url);
    const res = await c.post(
      "/login",
      { email: "nobody@example.test", password: "wrong-password-123" },
      { headers: { origin: "https://fieldwork.example" } },
    );
    assert.equal(res.status, 401, "the form reached its action");
    const cross = await c.request("POST", "/login", {
      body: "x=1",
      headers: { origin: "https://evil.example", "content-type": "multipart/form-data; boundary=x" },
    });
    assert.equal(cross.status, 403);
    const api = await c.request("POST", "/ai-assistant/generate", {
      body: "{}",
      headers: { origin: "null", "content-type": "application/json" },
    });
    assert.equal(api.status, 403);
    const empty = await c.request("POST", "/login", {
      body: "x=1",
      headers: { origin: "", "content-type": "multipart/form-data" },
    });
    assert.ok(empty.status < 500, `an empty Origin header is not a crash (${empty.status})`);
  } finally {
    await proxied.stop();
  }
});

test("the bare /api answers the 404 envelope with any method (a splat resource route under remix-serve)", async () => {
  const c = new Client();
  for (const m of METHODS) {
    await expect404(c, m, "/api");
    await expect404(c, m, "/api/");
  }
  const head = await c.request("HEAD", "/api");
  assert.equal(head.status, 404);
});

test("the per-IP login lockout keys on the connection's address: a client's own X-Client-IP or X-Forwarded-For does not escape it", async () => {
  const t = await createTenantWithUsers();
  const c = new Client();
  const email = t.users.office.email;
  for (let i = 1; i <= 10; i++) {
    const spoofed = { "x-client-ip": `203.0.113.${i}`, "x-forwarded-for": `198.51.100.${i}` };
    const r = await c.post("/login", { email, password: `wrong-${i}` }, { headers: spoofed });
    assert.equal(r.status, 401, `failure ${i}`);
  }
  const locked = await c.post(
    "/login",
    { email, password: "a-long-password-1" },
    { headers: { "x-client-ip": "192.0.2.99" } },
  );
  assert.equal(locked.status, 429);
});
