import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { rows } from "../../db/index";
import { Client, clientFor, envelope } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers } from "../helpers/fixtures";
import { commit, idIn, pageText, upload } from "../helpers/import";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";

// Issue 24, point 8 and the rest: Cache-Control on signed-in answers, time entries of at most
// 24 hours, no CSRF cookie on portal pages, a NUL in an import cell marked as that cell's
// error, and the team import only for who may manage the team.

test("signed-in pages, their data requests and the signed-in JSON envelope are `private, no-store`", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const customer = await createCustomer(t.id, { name: "Cache Tester" });
  const pages = [
    "/",
    "/customers",
    "/customers?q=cache",
    `/customers/${customer.id}`,
    "/jobs",
    "/quotes",
    "/invoices",
    "/requests",
    "/schedule",
    "/team",
    "/reports",
    "/import-data",
    "/settings/accounting",
    "/settings/billing",
    "/customers?_data=routes%2Fcustomers._index",
    "/customers?_data=root",
    "/no-such-page",
  ];
  for (const path of pages) {
    const res = await owner.get(path);
    await res.arrayBuffer();
    assert.ok(res.status < 500, `${path}: ${res.status}`);
    assert.equal(res.headers.get("cache-control"), "private, no-store", `${path} (${res.status})`);
  }
  // A page's form answered with an error (the page again, 422) is signed in too.
  const bad = await owner.post("/customers/new", { name: "" });
  await bad.arrayBuffer();
  assert.equal(bad.status, 422);
  assert.equal(bad.headers.get("cache-control"), "private, no-store", "a form's 422");

  const tech = await clientFor(t.users.technician);
  const api = await tech.postJson("/api/offline-sync", { clientId: randomUUID(), mutations: [] });
  assert.equal(api.status, 200);
  assert.equal((await envelope(api)).success, true);
  assert.equal(api.headers.get("cache-control"), "private, no-store", "the signed-in envelope");

  // Signed out, a public page is not marked private.
  const login = await new Client().get("/login");
  await login.arrayBuffer();
  assert.notEqual(login.headers.get("cache-control"), "private, no-store");
});

test("a time entry spans at most 24 hours: longer is rejected by the sync (endedAt named) and by the database, a clock over a day is capped at 24 hours", async () => {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id);
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
  const tech = await clientFor(t.users.technician);
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
  const entry = (id: number, startedAt: string, endedAt: string) => ({
    id,
    type: "job.time_entry",
    occurredAt: endedAt,
    args: { jobId: job.id, startedAt, endedAt },
  });
  const res = await tech.postJson("/api/offline-sync", {
    clientId: randomUUID(),
    mutations: [
      entry(1, new Date(Date.parse(hoursAgo(1)) - 10 * 365 * 86400_000).toISOString(), hoursAgo(1)), // ten years
      entry(2, hoursAgo(25), hoursAgo(0.5)), // a day and a half hour
      entry(3, hoursAgo(24.5), hoursAgo(0.5)), // exactly 24 hours
    ],
  });
  assert.equal(res.status, 200);
  const body = await envelope(res);
  const byId = Object.fromEntries(body.data.results.map((r: { id: number }) => [r.id, r]));
  for (const id of [1, 2]) {
    assert.equal(byId[id].status, "rejected", `mutation ${id}`);
    assert.equal(byId[id].error.code, "VALIDATION_FAILED");
    assert.match(byId[id].error.fields.endedAt[0] ?? byId[id].error.fields.endedAt, /at most 24 hours/);
  }
  assert.equal(byId[3].status, "applied", "24 hours exactly is a long day, accepted");
  const times = await rows<{ hours: number }>(
    `SELECT extract(epoch FROM ended_at - started_at) / 3600 AS hours FROM time_entries WHERE tenant_id = $1 AND job_id = $2`,
    [t.id, job.id],
  );
  assert.deepEqual(
    times.map((r) => Math.round(Number(r.hours))),
    [24],
  );

  // The database holds the rule too (any other path that would write one).
  const direct = await rows(
    `INSERT INTO time_entries (tenant_id, job_id, started_at, ended_at) VALUES ($1, $2, now() - interval '25 hours', now())`,
    [t.id, job.id],
  ).then(
    () => null,
    (e: { original?: { code?: string } }) => e.original?.code,
  );
  assert.equal(direct, "23514", "a check constraint refuses it");

  // The job's clock (a server record, decision 212) forgotten for 25 hours: stopping it logs at
  // most 24 hours, with a note saying so, instead of failing for ever.
  const page = await (await tech.get("/field")).text();
  const _csrf = page.match(/name="_csrf" value="([^"]+)"/)![1];
  await rows(`INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at) VALUES ($1, $2, $3, $4)`, [
    t.id,
    job.id,
    t.users.technician.id,
    new Date(Date.now() - 25 * 3600_000),
  ]);
  const stop = await tech.post("/field", { _csrf, intent: "clock", jobId: job.id, action: "stop" });
  assert.equal(stop.status, 303);
  const capped = await rows<{ hours: number; note: string }>(
    `SELECT extract(epoch FROM ended_at - started_at) / 3600 AS hours, note FROM time_entries WHERE tenant_id = $1 AND job_id = $2 AND note LIKE '%24 hours%'`,
    [t.id, job.id],
  );
  assert.equal(capped.length, 1);
  assert.equal(Number(capped[0].hours), 24);
  assert.equal(
    (await rows(`SELECT 1 FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`, [t.id, job.id])).length,
    0,
    "the clock is stopped",
  );
});

test("portal pages set no cookie (no CSRF cookie: the portal authenticates by its token); staff pages still do", async () => {
  const s = await portalSetup();
  const hub = await portalRequest("GET", s.url, { ip: randomLoopback() });
  assert.equal(hub.status, 200);
  assert.equal(hub.headers["set-cookie"], undefined, `hub: ${hub.headers["set-cookie"]}`);
  const data = await portalRequest("GET", `${s.url}?_data=root`, { ip: randomLoopback() });
  assert.equal(data.status, 200);
  assert.equal(data.headers["set-cookie"], undefined, "the root's data request");
  assert.doesNotMatch(data.text, /"csrf":"[^"]/, "no token in the portal's data");
  const forged = await portalRequest("GET", `/portal/${s.token.slice(0, -2)}xx`, { ip: randomLoopback() });
  assert.equal(forged.status, 404);
  assert.equal(forged.headers["set-cookie"], undefined, "the portal's 404");
  // The login page still binds its form to a pre-login cookie.
  const login = await new Client().get("/login");
  assert.ok(
    login.headers.getSetCookie().some((c) => c.startsWith("__csrf=")),
    "the login page sets its CSRF cookie",
  );
});

test("a NUL in an import cell marks that cell in the preview (the rest previews), commit is refused, nothing stored; NUL in the header is not CSV", async () => {
  const t = await createTenantWithUsers();
  const admin = await clientFor(t.users.admin);
  const tag = randomUUID().slice(0, 8);
  const csv = `name,email,notes\r\nAda Byrne,ada-${tag}@example.test,fine\r\nBo\u0000Lund,bo-${tag}@example.test,x\r\nCy Park,cy-${tag}@example.test,a\u0000note\r\n`;
  const res = await upload(admin, "customers", csv);
  const previewId = idIn(res, "preview");
  const page = pageText(await (await admin.get(res.headers.get("location")!)).text());
  assert.match(page, /Rows 3 Valid 1 With errors 2/);
  assert.match(page, /3 name Contains a character that cannot be stored \(U\+0000\)/, "row 3, column name");
  assert.match(page, /4 notes Contains a character that cannot be stored \(U\+0000\)/, "row 4, column notes");
  const refused = await commit(admin, previewId);
  assert.equal(refused.status, 422);
  assert.equal(
    (await rows(`SELECT 1 FROM customers WHERE tenant_id = $1 AND email LIKE $2`, [t.id, `%-${tag}@example.test`]))
      .length,
    0,
  );

  // The mapping step's kept sample (jsonb) holds the cell too: shown, not a failure.
  const mapped = await upload(
    admin,
    "customers",
    `Full Name,E-mail Address,Remarks\r\nBo\u0000Lund,bo-${tag}@example.test,x\r\n`,
  );
  assert.ok(mapped.status === 303, `mapped upload: ${mapped.status}`);

  // Binary data: a NUL in the header line.
  const runs = (await rows(`SELECT 1 FROM import_runs WHERE tenant_id = $1`, [t.id])).length;
  const binary = await upload(admin, "customers", `na\u0000me,email\r\nAda,a@example.test\r\n`);
  assert.equal(binary.status, 400);
  assert.match(pageText(await binary.text()), /does not look like a CSV text file/);
  assert.equal((await rows(`SELECT 1 FROM import_runs WHERE tenant_id = $1`, [t.id])).length, runs);
});

test("the team import is only for owner and admin: office does not see it, and its page, sample and upload are 403 with nothing stored", async () => {
  const t = await createTenantWithUsers();
  const office = await clientFor(t.users.office);
  const landing = await office.get("/import-data");
  assert.equal(landing.status, 200);
  const html = await landing.text();
  assert.doesNotMatch(html, /type=team/, "no team card or sample link");
  assert.match(html, /type=customers/);
  for (const path of ["/import-data?type=team", "/import-data/sample?type=team"]) {
    const res = await office.get(path);
    await res.arrayBuffer();
    assert.equal(res.status, 403, path);
  }
  const email = `imported-${randomUUID().slice(0, 8)}@example.test`;
  for (const field of ["file", "csv"] as const) {
    const res = await upload(office, "team", `name,email,role\r\nIvy,${email},technician\r\n`, { field });
    await res.arrayBuffer();
    assert.equal(res.status, 403, `team upload as ${field}`);
  }
  assert.equal((await rows(`SELECT 1 FROM import_runs WHERE tenant_id = $1 AND type = 'team'`, [t.id])).length, 0);
  assert.equal((await rows(`SELECT 1 FROM users WHERE tenant_id = $1 AND email = $2`, [t.id, email])).length, 0);

  for (const who of ["owner", "admin"] as const) {
    const c = await clientFor(t.users[who]);
    assert.match(await (await c.get("/import-data")).text(), /type=team/, `${who} sees the team import`);
    assert.equal((await c.get("/import-data?type=team")).status, 200);
  }
});
