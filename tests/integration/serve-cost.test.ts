// What remix-serve's request path costs, kept down (docs/decisions/114): one session lookup per
// page however many loaders ask; answers with their length (one write, no gzip of a tiny
// envelope); the access log complete and in order.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";
import { startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;

before(async () => {
  // LOG_SQL: every statement the server sends is written to its stderr.
  server = await startServer({ LOG_SQL: "1" });
});
after(async () => {
  await server?.stop();
});

/** The server's log lines that arrive within a short while (its output is read from pipes). */
async function logLinesAfter<T>(
  fn: () => Promise<T>,
  settle: (lines: string[]) => boolean,
): Promise<{ result: T; lines: string[] }> {
  const start = server.logs.join("").length;
  const result = await fn();
  const deadline = Date.now() + 5_000;
  let lines: string[] = [];
  while (Date.now() < deadline) {
    lines = server.logs.join("").slice(start).split("\n");
    if (settle(lines)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return { result, lines };
}

const sessionLookups = (lines: string[]) => lines.filter((l) => l.includes("app_session_user")).length;

test("a page whose root and page loaders both need the signed-in user looks the session up once", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.owner, server.url);
  const { result: res, lines } = await logLinesAfter(
    () => c.get("/import-data?type=customers"),
    (l) => l.some((x) => x.includes("GET /import-data?type=customers 200")),
  );
  assert.equal(res.status, 200);
  await res.text();
  assert.equal(sessionLookups(lines), 1, lines.join("\n"));
});

test("an action's lookup is its own: the loaders that render after it look again and see what it changed", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.owner, server.url);
  const csrf = await c.csrf();
  // A refused form is rendered again in the same answer: the action, then the page's loaders.
  const { result: res, lines } = await logLinesAfter(
    () => c.post("/customers/new", { _csrf: csrf, name: "" }),
    (l) => l.some((x) => /POST \/customers\/new \d{3}/.test(x)),
  );
  assert.ok(res.status >= 400 && res.status < 500, `the refused form (${res.status})`);
  await res.text();
  assert.equal(sessionLookups(lines), 2, lines.join("\n"));
});

/** A GET without Accept-Encoding (as a load tool or a proxy might send): the raw headers. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

test("envelopes and pages go out with their length, not chunked; a small envelope is not gzipped", async () => {
  const nope = await rawGet(`${server.url}/api/nope`);
  assert.equal(nope.status, 404);
  assert.equal(nope.headers["transfer-encoding"], undefined);
  assert.equal(Number(nope.headers["content-length"]), nope.body.byteLength);
  assert.equal(JSON.parse(nope.body.toString()).error.code, "NOT_FOUND");

  // A browser asks for gzip: an envelope under compression's 1 KB threshold is left as it is.
  const gz = await rawGet(`${server.url}/api/nope`, { "accept-encoding": "gzip" });
  assert.equal(gz.headers["content-encoding"], undefined);
  assert.equal(Number(gz.headers["content-length"]), gz.body.byteLength);

  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.owner, server.url);
  const page = await rawGet(`${server.url}/import-data?type=customers`, { cookie: c.cookieHeader() });
  assert.equal(page.status, 200);
  assert.equal(page.headers["transfer-encoding"], undefined);
  assert.equal(Number(page.headers["content-length"]), page.body.byteLength);
  assert.match(page.body.toString(), /<\/html>$/);
  // Still compressed for a browser (a page is over the threshold).
  const gzPage = await new Client(server.url).request("GET", "/login", { headers: { "accept-encoding": "gzip" } });
  assert.equal(gzPage.headers.get("content-encoding"), "gzip");
  await gzPage.text();
});

test("remix-serve's access log: every request's line arrives, in order", async () => {
  const marks = Array.from({ length: 30 }, (_, i) => `/api/nope-log-${i}`);
  const { lines } = await logLinesAfter(
    async () => {
      for (const m of marks) await (await new Client(server.url).get(m)).text();
    },
    (l) => l.some((x) => x.includes(`GET ${marks.at(-1)} 404`)),
  );
  const seen = lines.map((l) => marks.findIndex((m) => l.startsWith(`GET ${m} 404`))).filter((i) => i >= 0);
  assert.deepEqual(
    seen,
    marks.map((_, i) => i),
  );
});

test("a page whose multi-byte characters fall at every byte offset is sent without a NUL byte, exactly as stored", async () => {
  const t = await createTenantWithUsers();
  // The padding moves "–", "é" and "✓" across any fixed-size boundary of the renderer's output.
  const names = Array.from({ length: 40 }, (_, i) => `Dash ${"x".repeat(i)} 1:30–3:30 é ✓`);
  for (const name of names) await createCustomer(t.id, { name });
  const c = await clientFor(t.users.owner, server.url);
  const page = await rawGet(`${server.url}/customers`, { cookie: c.cookieHeader() });
  assert.equal(page.status, 200);
  assert.equal(page.body.includes(0), false, "no NUL byte in the page");
  const text = page.body.toString("utf8");
  assert.match(text, /^<!DOCTYPE html>/);
  // Every name shown is whole (the list shows a page of them).
  const shown = text.split("1:30–3:30 é ✓").length - 1;
  assert.ok(shown >= 20, `${shown} names shown whole`);
});
