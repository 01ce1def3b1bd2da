import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser, twoTenants } from "../helpers/fixtures";

async function setup() {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id, { name: "Priya Natarajan" });
  const mine = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: t.users.technician.id,
    title: "Replace thermostat",
  });
  const other = await createUser(t.id, { role: "technician" });
  const theirs = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: other.id,
    title: "Their boiler service",
  });
  return { t, mine, theirs, tech: await clientFor(t.users.technician) };
}

/** The form fields of the field page: the CSRF token comes from the page itself. */
async function csrfOf(c: Client) {
  const html = await (await c.get("/field")).text();
  return html.match(/name="_csrf" value="([^"]+)"/)![1];
}

const counts = async (tenantId: string, jobId: string) =>
  (await one<{ status: string; notes: number; events: number; times: number }>(
    `SELECT j.status,
            (SELECT count(*) FROM job_notes WHERE tenant_id = $1 AND job_id = $2)::int AS notes,
            (SELECT count(*) FROM job_events WHERE tenant_id = $1 AND job_id = $2)::int AS events,
            (SELECT count(*) FROM time_entries WHERE tenant_id = $1 AND job_id = $2)::int AS times
       FROM jobs j WHERE j.tenant_id = $1 AND j.id = $2`,
    [tenantId, jobId],
  ))!;

test("/field lists the technician's own open jobs; signed out it redirects to login", async () => {
  const { tech } = await setup();
  const res = await tech.get("/field");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /My day/);
  assert.match(html, /Replace thermostat/);
  assert.match(html, /Priya Natarajan/);
  assert.doesNotMatch(html, /Their boiler service/);
  assert.match(html, /On my way/);

  const anon = await new Client().get("/field");
  assert.equal(anon.status, 302);
  assert.equal(anon.headers.get("location"), "/login?redirectTo=%2Ffield");
});

test("the /field forms change status, add notes and run the job's one clock through the same operations, 303 back", async () => {
  const { t, mine, tech } = await setup();
  const _csrf = await csrfOf(tech);
  const status = await tech.post("/field", { _csrf, intent: "status", jobId: mine.id, status: "en_route" });
  assert.equal(status.status, 303);
  assert.equal(status.headers.get("location"), `/field#job-${mine.id}`);
  assert.equal(
    status.headers.getSetCookie().find((c) => c.startsWith("field_timer=")),
    undefined,
    "no clock on the phone: the server has it",
  );
  const note = await tech.post("/field", {
    _csrf,
    intent: "note",
    jobId: mine.id,
    body: "Customer wants a smart thermostat quote.",
  });
  assert.equal(note.status, 303);

  const page = await (await tech.get("/field")).text();
  assert.match(page, /On the way since/, "On my way started the clock");
  assert.match(page, /Customer wants a smart thermostat quote\./);
  assert.match(page, /Stop clock/);
  const stop = await tech.post("/field", { _csrf, intent: "clock", jobId: mine.id, action: "stop" });
  assert.equal(stop.status, 303);
  assert.doesNotMatch(await (await tech.get("/field")).text(), /On the way since/);

  assert.deepEqual(await counts(t.id, mine.id), { status: "en_route", notes: 1, events: 1, times: 1 });
  const event = await one<{ user_id: string; from_status: string }>(
    `SELECT user_id, from_status FROM job_events WHERE tenant_id = $1 AND job_id = $2`,
    [t.id, mine.id],
  );
  assert.deepEqual(event, { user_id: t.users.technician.id, from_status: "scheduled" });
});

test("refused /field forms: field errors (422), a wrong transition (409), another's job (404, as an unknown one), no CSRF (403); nothing changes", async () => {
  const { t, mine, theirs, tech } = await setup();
  const _csrf = await csrfOf(tech);
  const empty = await tech.post("/field", { _csrf, intent: "note", jobId: mine.id, body: "   " });
  assert.equal(empty.status, 422);
  assert.match(await empty.text(), /Write a note\./);
  const long = await tech.post("/field", { _csrf, intent: "note", jobId: mine.id, body: "x".repeat(5001) });
  assert.equal(long.status, 422);
  assert.match(await long.text(), /At most 5000 characters/);

  const jump = await tech.post("/field", { _csrf, intent: "status", jobId: mine.id, status: "completed" });
  assert.equal(jump.status, 409);
  assert.match(await jump.text(), /A job that is scheduled cannot become completed\./);

  const stop = await tech.post("/field", { _csrf, intent: "clock", jobId: mine.id, action: "stop" });
  assert.equal(stop.status, 409);
  assert.match(await stop.text(), /No clock is running on this job\./);

  const notMine = await tech.post("/field", { _csrf, intent: "note", jobId: theirs.id, body: "sneaky" });
  assert.equal(notMine.status, 404);
  const noCsrf = await tech.post("/field", { intent: "note", jobId: mine.id, body: "no token" }, { csrf: false });
  assert.equal(noCsrf.status, 403);
  const crossSite = await tech.post(
    "/field",
    { _csrf, intent: "note", jobId: mine.id, body: "evil" },
    { headers: { "sec-fetch-site": "cross-site" } },
  );
  assert.equal(crossSite.status, 403);
  // A foreign Origin is refused by Remix itself before the action runs (an empty 500 for every page's form; reported).
  const foreignOrigin = await tech.post(
    "/field",
    { _csrf, intent: "note", jobId: mine.id, body: "evil" },
    { headers: { origin: "https://evil.example" } },
  );
  assert.ok(foreignOrigin.status >= 400, `refused (${foreignOrigin.status})`);

  assert.deepEqual(await counts(t.id, mine.id), { status: "scheduled", notes: 0, events: 0, times: 0 });
  assert.deepEqual(await counts(t.id, theirs.id), { status: "scheduled", notes: 0, events: 0, times: 0 });
});

test("without JavaScript: tick the checklist, complete with the customer's typed name; a required checklist refuses (409) and stores nothing; another tenant's job is not found", async () => {
  const { a, b } = await twoTenants();
  await one(`UPDATE tenants SET checklist_required = true WHERE id = $1`, [a.id]);
  const customer = await createCustomer(a.id);
  const job = await createJob(a.id, {
    customerId: customer.id,
    assigneeId: a.users.technician.id,
    title: "First visit",
    status: "in_progress",
    checklist: ["Check the flue", "Test the thermostat"],
  });
  const items = await rows<{ id: string }>(
    `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
    [a.id, job.id],
  );
  const foreign = await createJob(b.id, {
    customerId: (await createCustomer(b.id)).id,
    assigneeId: b.users.technician.id,
  });
  const tech = await clientFor(a.users.technician);
  const _csrf = await csrfOf(tech);

  assert.equal(
    (await tech.post("/field", { _csrf, intent: "checklist", jobId: job.id, itemId: items[0].id, done: "true" }))
      .status,
    303,
  );
  const refused = await tech.post("/field", {
    _csrf,
    intent: "complete",
    jobId: job.id,
    signerName: "Priya Natarajan",
  });
  assert.equal(refused.status, 409);
  assert.match(
    await refused.text(),
    /Tick every checklist item before completing the job: “Test the thermostat” is not ticked\./,
  );
  assert.equal((await counts(a.id, job.id)).status, "in_progress");
  assert.equal(
    (await rows(`SELECT 1 FROM job_signatures WHERE tenant_id = $1`, [a.id])).length,
    0,
    "no signature stored",
  );

  assert.equal(
    (await tech.post("/field", { _csrf, intent: "checklist", jobId: job.id, itemId: items[1].id, done: "true" }))
      .status,
    303,
  );
  const done = await tech.post("/field", {
    _csrf,
    intent: "complete",
    jobId: job.id,
    signerName: "  Priya Natarajan ",
  });
  assert.equal(done.status, 303);
  assert.equal((await counts(a.id, job.id)).status, "completed");
  const signed = await one<{ signer_name: string; image: Buffer | null; collected_by: string }>(
    `SELECT signer_name, image, collected_by FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
    [a.id, job.id],
  );
  assert.deepEqual(signed, { signer_name: "Priya Natarajan", image: null, collected_by: a.users.technician.id });
  assert.match(await (await tech.get("/field")).text(), /Job marked completed, signed by Priya Natarajan\./);

  const res = await tech.post("/field", { _csrf, intent: "note", jobId: foreign.id, body: "across tenants" });
  assert.equal(res.status, 404);
  assert.equal(
    (await rows(`SELECT 1 FROM job_notes WHERE tenant_id = $1 AND job_id = $2`, [b.id, foreign.id])).length,
    0,
  );
});
