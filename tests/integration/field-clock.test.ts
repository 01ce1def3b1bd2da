// Issue 21: the one clock, the checklist and the customer's signature, as offline-sync
// mutations (job.status carrying the clock, job.clock, job.checklist, job.signature), with
// section 7's rules (duplicate, rejected, skipped) and what the office's job page shows.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor, envelope, type Client } from "../helpers/client";
import {
  createCustomer,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
  twoTenants,
  type TestTenant,
} from "../helpers/fixtures";
import { textOf } from "../helpers/html";

type M = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };

/** A fixed morning, an hour or more ago, so the device's times are told apart from the server's. */
const base = Date.now() - 3 * 3600_000;
const at = (minute: number) => new Date(base + minute * 60_000).toISOString();
const status = (id: number, jobId: string, s: string, minute: number): M => ({
  id,
  type: "job.status",
  occurredAt: at(minute),
  args: { jobId, status: s },
});
const clock = (id: number, jobId: string, action: string, minute: number): M => ({
  id,
  type: "job.clock",
  occurredAt: at(minute),
  args: { jobId, action },
});
const tick = (id: number, jobId: string, itemId: string, done: boolean, minute: number): M => ({
  id,
  type: "job.checklist",
  occurredAt: at(minute),
  args: { jobId, itemId, done },
});
const sign = (id: number, jobId: string, args: Record<string, unknown>, minute: number): M => ({
  id,
  type: "job.signature",
  occurredAt: at(minute),
  args: { jobId, ...args },
});

/** A real PNG (1×1, transparent) as signature_pad's toDataURL gives it. */
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const push = async (c: Client, clientId: string, mutations: M[]) => {
  const res = await c.postJson("/api/offline-sync", { clientId, mutations });
  assert.equal(res.status, 200, `push answered ${res.status}`);
  return (await envelope(res)).data as {
    lastMutationId: number;
    results: Array<{
      id: number;
      status: string;
      error?: { code: string; message: string; fields?: Record<string, string[]> };
    }>;
    jobs: Array<Record<string, unknown>>;
  };
};

async function field(opts: { checklist?: string[]; tenant?: TestTenant; required?: boolean } = {}) {
  const t = opts.tenant ?? (await createTenantWithUsers());
  await one(`UPDATE tenants SET time_zone = 'America/Chicago', checklist_required = $2 WHERE id = $1`, [
    t.id,
    !!opts.required,
  ]);
  const customer = await createCustomer(t.id, { name: "Maria Gonzalez" });
  const job = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: t.users.technician.id,
    title: "Water heater replacement",
    checklist: opts.checklist,
  });
  const items = await rows<{ id: string; label: string }>(
    `SELECT id, label FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
    [t.id, job.id],
  );
  return { t, job, items, tech: await clientFor(t.users.technician), clientId: randomUUID() };
}

async function state(tenantId: string, jobId: string) {
  const [job, clocks, times, items, signature] = await Promise.all([
    one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenantId, jobId]),
    rows<{ started_at: Date; on_site_at: Date | null; user_id: string }>(
      `SELECT started_at, on_site_at, user_id FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`,
      [tenantId, jobId],
    ),
    rows<{ started_at: Date; ended_at: Date; user_id: string; note: string | null }>(
      // Breaks (the gap between a stopped and a restarted clock) are timesheet lines, not worked time.
      `SELECT started_at, ended_at, user_id, note FROM time_entries WHERE tenant_id = $1 AND job_id = $2 AND kind <> 'break' ORDER BY started_at`,
      [tenantId, jobId],
    ),
    rows<{ label: string; done_at: Date | null; done_by: string | null }>(
      `SELECT label, done_at, done_by FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
      [tenantId, jobId],
    ),
    one<{ signer_name: string; image: Buffer | null; signed_at: Date; collected_by: string }>(
      `SELECT signer_name, image, signed_at, collected_by FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
      [tenantId, jobId],
    ),
  ]);
  return {
    status: job!.status,
    clocks,
    times: times.map((e) => [e.started_at.toISOString(), e.ended_at.toISOString()]),
    timeRows: times,
    items,
    signature: signature ?? null,
  };
}

const chicago = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "America/Chicago" }).format(
    new Date(iso),
  );

test("one clock: On my way starts it, Start work marks on site, On hold stops it into a time entry, Resume starts again, Complete stops it; the device's times are kept", async () => {
  const { t, job, tech, clientId } = await field();
  const office = await clientFor(t.users.office);

  const r = await push(tech, clientId, [status(1, job.id, "en_route", 0)]);
  assert.deepEqual(r.results, [{ id: 1, status: "applied" }]);
  let s = await state(t.id, job.id);
  assert.equal(s.clocks.length, 1, "On my way starts the clock");
  assert.equal(s.clocks[0].started_at.toISOString(), at(0), "at the device's time");
  assert.equal(s.clocks[0].on_site_at, null);
  assert.deepEqual(
    (r.jobs.find((j) => j.id === job.id) as { clock: unknown }).clock,
    { startedAt: at(0), onSiteAt: null },
    "the push answers the running clock",
  );
  let page = textOf(await (await office.get(`/jobs/${job.id}`)).text());
  assert.match(
    page,
    new RegExp(`On the way since ${chicago(at(0))}`),
    "the office sees who is on the way, in the company's time zone",
  );

  await push(tech, clientId, [status(2, job.id, "in_progress", 20)]);
  s = await state(t.id, job.id);
  assert.equal(s.clocks.length, 1, "still one clock");
  assert.equal(s.clocks[0].started_at.toISOString(), at(0), "Start work keeps the clock that runs since On my way");
  assert.equal(s.clocks[0].on_site_at?.toISOString(), at(20));
  page = textOf(await (await office.get(`/jobs/${job.id}`)).text());
  assert.match(page, new RegExp(`On site since ${chicago(at(20))}`));
  const list = textOf(await (await office.get(`/jobs`)).text());
  assert.match(list, new RegExp(`On site since ${chicago(at(20))}`), "the jobs list shows it too");
  const [{ day }] = await rows<{ day: string }>(
    `SELECT (scheduled_start AT TIME ZONE 'America/Chicago')::date::text AS day FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [t.id, job.id],
  );
  const board = textOf(await (await office.get(`/schedule?view=day&date=${day}`)).text());
  assert.match(
    board,
    new RegExp(`Water heater replacement.*On site since ${chicago(at(20))}`, "s"),
    "and the schedule's card",
  );
  const dashboard = textOf(await (await office.get("/")).text());
  assert.match(
    dashboard,
    new RegExp(`In the field now.*Water heater replacement.*On site since ${chicago(at(20))}`, "s"),
    "and the dashboard",
  );

  await push(tech, clientId, [
    status(3, job.id, "on_hold", 50),
    status(4, job.id, "in_progress", 70),
    status(5, job.id, "completed", 110),
  ]);
  s = await state(t.id, job.id);
  assert.equal(s.status, "completed");
  assert.deepEqual(s.clocks, [], "completing leaves no running clock");
  assert.deepEqual(
    s.times,
    [
      [at(0), at(50)],
      [at(70), at(110)],
    ],
    "On hold paused it: two entries, from the device's times",
  );
  assert.ok(s.timeRows.every((e) => e.user_id === t.users.technician.id && e.note === null));
  page = textOf(await (await office.get(`/jobs/${job.id}`)).text());
  assert.doesNotMatch(page, /On site since|On the way since/);
  assert.match(page, /Total 1 h 30 min/);

  // The same batch again: all duplicates, nothing more stored.
  const again = await push(tech, clientId, [
    status(3, job.id, "on_hold", 50),
    status(4, job.id, "in_progress", 70),
    status(5, job.id, "completed", 110),
  ]);
  assert.deepEqual(
    again.results.map((x) => x.status),
    ["duplicate", "duplicate", "duplicate"],
  );
  assert.deepEqual((await state(t.id, job.id)).times, s.times);
});

test("job.clock: a break without a status change; stop with none, start twice, start before the job is under way are rejected; duplicates and gaps change nothing", async () => {
  const { t, job, tech, clientId } = await field();
  const early = await push(tech, clientId, [clock(1, job.id, "start", 0), clock(2, job.id, "stop", 1)]);
  assert.equal(early.results[0].status, "rejected");
  assert.equal(early.results[0].error?.code, "CONFLICT");
  assert.match(
    early.results[0].error!.message,
    /The clock runs while a job is on the way or in progress; this one is scheduled\./,
  );
  assert.equal(early.results[1].error?.code, "CONFLICT");
  assert.match(early.results[1].error!.message, /No clock is running on this job\./);
  assert.equal(early.lastMutationId, 2, "rejected mutations still count");

  const r = await push(tech, clientId, [
    status(3, job.id, "en_route", 10),
    status(4, job.id, "in_progress", 15),
    clock(5, job.id, "start", 16), // already running
    clock(6, job.id, "stop", 60), // lunch
    clock(7, job.id, "start", 90),
    clock(8, job.id, "pause", 91),
  ]);
  assert.deepEqual(
    r.results.map((x) => x.status),
    ["applied", "applied", "rejected", "applied", "applied", "rejected"],
  );
  assert.match(r.results[2].error!.message, /already running/);
  assert.equal(r.results[5].error?.code, "VALIDATION_FAILED");
  assert.ok(r.results[5].error?.fields?.action, "the bad argument is named");
  let s = await state(t.id, job.id);
  assert.deepEqual(s.times, [[at(10), at(60)]], "the stop logged from On my way to the break");
  assert.equal(s.clocks[0].started_at.toISOString(), at(90));
  assert.equal(s.clocks[0].on_site_at?.toISOString(), at(90), "restarted at work: on site");

  const gap = await push(tech, clientId, [clock(10, job.id, "stop", 95)]);
  assert.deepEqual(gap.results, [{ id: 10, status: "skipped" }]);
  const dup = await push(tech, clientId, [clock(6, job.id, "stop", 60), clock(7, job.id, "start", 90)]);
  assert.deepEqual(
    dup.results.map((x) => x.status),
    ["duplicate", "duplicate"],
  );
  s = await state(t.id, job.id);
  assert.equal(s.times.length, 1);
  assert.equal(s.clocks.length, 1);
});

test("a stop before the clock's start (clocks of two devices) ends at the start; a clock forgotten for more than a day is capped at 24 hours", async () => {
  const { t, job, tech, clientId } = await field();
  await push(tech, clientId, [
    status(1, job.id, "en_route", 60),
    status(2, job.id, "in_progress", 61),
    clock(3, job.id, "stop", 40),
  ]);
  let s = await state(t.id, job.id);
  assert.deepEqual(s.times, [[at(60), at(60)]]);
  const old = new Date(Date.now() - 30 * 3600_000).toISOString();
  await one(`INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at) VALUES ($1, $2, $3, $4)`, [
    t.id,
    job.id,
    t.users.technician.id,
    old,
  ]);
  await push(tech, clientId, [
    { id: 4, type: "job.status", occurredAt: new Date().toISOString(), args: { jobId: job.id, status: "on_hold" } },
  ]);
  s = await state(t.id, job.id);
  assert.equal(s.clocks.length, 0);
  const capped = s.timeRows[0]; // the oldest
  assert.equal(capped.ended_at.getTime() - capped.started_at.getTime(), 24 * 3600_000);
  assert.match(capped.note!, /more than 24 hours/);
});

test("job.checklist: tick and untick with the device's time and who; an item of another job or none is not found; a closed job refuses", async () => {
  const { t, job, items, tech, clientId } = await field({
    checklist: ["Drain the old tank", "Fit the new heater", "Test the relief valve"],
  });
  const customer = await createCustomer(t.id);
  const otherJob = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: t.users.technician.id,
    checklist: ["Elsewhere"],
  });
  const [elsewhere] = await rows<{ id: string }>(
    `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2`,
    [t.id, otherJob.id],
  );

  const r = await push(tech, clientId, [
    tick(1, job.id, items[0].id, true, 5),
    tick(2, job.id, items[1].id, true, 6),
    tick(3, job.id, items[1].id, false, 7),
    tick(4, job.id, elsewhere.id, true, 8),
    tick(5, job.id, randomUUID(), true, 9),
    tick(6, job.id, "not-an-id", true, 10),
    { id: 7, type: "job.checklist", occurredAt: at(11), args: { jobId: job.id, itemId: items[2].id, done: "yes" } },
  ]);
  assert.deepEqual(
    r.results.map((x) => x.status),
    ["applied", "applied", "applied", "rejected", "rejected", "rejected", "rejected"],
  );
  assert.equal(r.results[3].error?.code, "NOT_FOUND");
  assert.match(r.results[3].error!.message, /not on this job/);
  assert.equal(r.results[4].error?.code, "NOT_FOUND");
  assert.equal(r.results[5].error?.code, "VALIDATION_FAILED");
  assert.ok(r.results[6].error?.fields?.done);
  const listed = r.jobs.find((j) => j.id === job.id) as { checklist: Array<{ label: string; done: boolean }> };
  assert.deepEqual(
    listed.checklist.map((i) => [i.label, i.done]),
    [
      ["Drain the old tank", true],
      ["Fit the new heater", false],
      ["Test the relief valve", false],
    ],
  );

  const s = await state(t.id, job.id);
  assert.equal(s.items[0].done_at?.toISOString(), at(5));
  assert.equal(s.items[0].done_by, t.users.technician.id);
  assert.equal(s.items[1].done_at, null);
  assert.equal(s.items[1].done_by, null);
  assert.equal((await state(t.id, otherJob.id)).items[0].done_at, null, "the other job's item is untouched");

  const dup = await push(tech, clientId, [tick(2, job.id, items[1].id, true, 6)]);
  assert.deepEqual(dup.results, [{ id: 2, status: "duplicate" }]);
  assert.equal((await state(t.id, job.id)).items[1].done_at, null, "a duplicate does not tick again");

  await one(`UPDATE jobs SET status = 'cancelled' WHERE tenant_id = $1 AND id = $2`, [t.id, job.id]);
  const closed = await push(tech, clientId, [tick(8, job.id, items[2].id, true, 20)]);
  assert.equal(closed.results[0].error?.code, "CONFLICT");
  assert.match(closed.results[0].error!.message, /This job is cancelled; it can no longer change\./);
});

test("when the business requires the checklist, completing with items not ticked is refused naming them, and nothing changes; once ticked it completes", async () => {
  const { t, job, items, tech, clientId } = await field({
    checklist: ["Drain the old tank", "Fit the new heater"],
    required: true,
  });
  await push(tech, clientId, [
    status(1, job.id, "en_route", 0),
    status(2, job.id, "in_progress", 10),
    tick(3, job.id, items[0].id, true, 20),
  ]);
  const before = await state(t.id, job.id);
  const refused = await push(tech, clientId, [status(4, job.id, "completed", 30)]);
  assert.equal(refused.results[0].status, "rejected");
  assert.equal(refused.results[0].error?.code, "CONFLICT");
  assert.equal(
    refused.results[0].error?.message,
    "Tick every checklist item before completing the job: “Fit the new heater” is not ticked.",
  );
  assert.deepEqual(await state(t.id, job.id), before, "still in progress, the clock still running");

  const done = await push(tech, clientId, [tick(5, job.id, items[1].id, true, 40), status(6, job.id, "completed", 45)]);
  assert.deepEqual(
    done.results.map((x) => x.status),
    ["applied", "applied"],
  );
  const s = await state(t.id, job.id);
  assert.equal(s.status, "completed");
  assert.deepEqual(s.times, [[at(0), at(45)]]);

  // Not required: a job completes with items open.
  const free = await field({ checklist: ["Optional check"] });
  const ok = await push(free.tech, free.clientId, [
    status(1, free.job.id, "en_route", 0),
    status(2, free.job.id, "in_progress", 1),
    status(3, free.job.id, "completed", 2),
  ]);
  assert.deepEqual(
    ok.results.map((x) => x.status),
    ["applied", "applied", "applied"],
  );
});

test("job.signature: a drawn PNG or a typed name, with the device's time and who collected it, shown on the job page; bad drawings refused", async () => {
  const { t, job, tech, clientId } = await field();
  const r = await push(tech, clientId, [
    status(1, job.id, "en_route", 0),
    status(2, job.id, "in_progress", 5),
    sign(3, job.id, { name: "  Maria Gonzalez ", image: PNG }, 30),
    sign(4, job.id, { name: "Maria", image: "data:image/jpeg;base64,/9j/4AAQSkZJRg==" }, 31),
    sign(5, job.id, { name: "Maria", image: `data:image/png;base64,iVBORw0KGgo${"A".repeat(400_000)}` }, 32),
    sign(6, job.id, { name: "", image: PNG }, 33),
    status(7, job.id, "completed", 35),
  ]);
  assert.deepEqual(
    r.results.map((x) => x.status),
    ["applied", "applied", "applied", "rejected", "rejected", "rejected", "applied"],
  );
  for (const i of [3, 4, 5]) assert.equal(r.results[i].error?.code, "VALIDATION_FAILED");
  assert.ok(r.results[3].error?.fields?.image);
  assert.match(r.results[4].error!.fields!.image[0], /too large/);
  assert.ok(r.results[5].error?.fields?.name);
  const s = await state(t.id, job.id);
  assert.equal(s.signature?.signer_name, "Maria Gonzalez");
  assert.equal(s.signature?.signed_at.toISOString(), at(30));
  assert.equal(s.signature?.collected_by, t.users.technician.id);
  assert.equal(s.signature?.image?.subarray(1, 4).toString(), "PNG");

  const office = await clientFor(t.users.office);
  const html = await (await office.get(`/jobs/${job.id}`)).text();
  assert.match(html, /<img[^>]+src="data:image\/png;base64,iVBORw0KGgo[^"]*"[^>]*alt="Signature of Maria Gonzalez"/);
  assert.match(textOf(html), new RegExp(`Signed by Maria Gonzalez.*${chicago(at(30))}.*collected by`, "s"));

  // A typed name (the page without JavaScript) replaces it: one signature per job.
  await push(tech, clientId, [sign(8, job.id, { name: "M. Gonzalez" }, 40)]);
  const typed = await state(t.id, job.id);
  assert.equal(typed.signature?.signer_name, "M. Gonzalez");
  assert.equal(typed.signature?.image, null);
  assert.match(textOf(await (await office.get(`/jobs/${job.id}`)).text()), /Typed name: M\. Gonzalez/);
});

test("another technician's job and another tenant's are rejected as not found, for each new type; nothing changes", async () => {
  const { a, b } = await twoTenants();
  const { t, tech, clientId } = await field({ tenant: a });
  const colleague = await createUser(t.id, { role: "technician" });
  const customer = await createCustomer(t.id);
  const theirs = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: colleague.id,
    status: "in_progress",
    checklist: ["Theirs"],
  });
  const [theirItem] = await rows<{ id: string }>(
    `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2`,
    [t.id, theirs.id],
  );
  const foreign = await createJob(b.id, {
    customerId: (await createCustomer(b.id)).id,
    assigneeId: b.users.technician.id,
    status: "in_progress",
    checklist: ["Foreign"],
  });
  const [foreignItem] = await rows<{ id: string }>(
    `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2`,
    [b.id, foreign.id],
  );

  const r = await push(tech, clientId, [
    clock(1, theirs.id, "start", 0),
    tick(2, theirs.id, theirItem.id, true, 1),
    sign(3, theirs.id, { name: "Someone" }, 2),
    clock(4, foreign.id, "start", 3),
    tick(5, foreign.id, foreignItem.id, true, 4),
    sign(6, foreign.id, { name: "Someone" }, 5),
  ]);
  assert.deepEqual(
    r.results.map((x) => x.error?.code),
    ["NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND"],
  );
  assert.equal(r.lastMutationId, 6);
  for (const [tenant, jobId] of [
    [t.id, theirs.id],
    [b.id, foreign.id],
  ]) {
    const s = await state(tenant, jobId);
    assert.deepEqual(s.clocks, []);
    assert.equal(s.items[0].done_at, null);
    assert.equal(s.signature, null);
  }
});

const idFrom = (res: Response, prefix: string) => {
  assert.equal(res.status, 303, `expected a redirect, got ${res.status}`);
  return res.headers.get("location")!.replace(`${prefix}/`, "").split(/[?#]/)[0];
};
const checklistOf = async (tenantId: string, jobId: string) =>
  (
    await rows<{ label: string; done: boolean }>(
      `SELECT label, done_at IS NOT NULL AS done FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
      [tenantId, jobId],
    )
  ).map((i) => [i.label, i.done]);

test("the office types the checklist on the job form, one per line; editing keeps the ticks of unchanged items; a quote's chosen items become the checklist", async () => {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id, { name: "Jo Job" });
  const office = await clientFor(t.users.office);
  const created = await office.post("/jobs/new", {
    customerId: customer.id,
    title: "Boiler service",
    assigneeId: t.users.technician.id,
    checklist: "- Check the flue\r\n\r\n[ ] Bleed the radiators\r\n  Test the thermostat  ",
  });
  const jobId = idFrom(created, "/jobs");
  assert.deepEqual(await checklistOf(t.id, jobId), [
    ["Check the flue", false],
    ["Bleed the radiators", false],
    ["Test the thermostat", false],
  ]);
  const edit = await (await office.get(`/jobs/${jobId}/edit`)).text();
  assert.match(
    edit,
    /Check the flue\nBleed the radiators\nTest the thermostat<\/textarea>/,
    "the form shows the list one per line",
  );

  const [flue] = await rows<{ id: string }>(
    `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 AND label = 'Check the flue'`,
    [t.id, jobId],
  );
  await push(await clientFor(t.users.technician), randomUUID(), [tick(1, jobId, flue.id, true, 0)]);
  assert.equal(
    (
      await office.post(`/jobs/${jobId}/edit`, {
        customerId: customer.id,
        title: "Boiler service",
        assigneeId: t.users.technician.id,
        checklist: "Test the thermostat\nCheck the flue\nTop up the pressure",
      })
    ).status,
    303,
  );
  assert.deepEqual(await checklistOf(t.id, jobId), [
    ["Test the thermostat", false],
    ["Check the flue", true],
    ["Top up the pressure", false],
  ]);
  const tooLong = await office.post(`/jobs/${jobId}/edit`, {
    customerId: customer.id,
    title: "Boiler service",
    checklist: "x".repeat(201),
  });
  assert.equal(tooLong.status, 422);
  assert.match(await tooLong.text(), /Keep each item to 200 characters\./);

  const quote = await createQuote(t.id, {
    customerId: customer.id,
    status: "approved",
    items: [
      { description: "Replace the pump", unitPriceCents: 30_000 },
      { description: "Power flush", unitPriceCents: 20_000 },
      { description: "Magnetic filter", unitPriceCents: 9_000 },
    ],
  });
  await rows(
    `UPDATE quote_items SET optional = position = 3, selected = position <> 3 WHERE tenant_id = $1 AND quote_id = $2`,
    [t.id, quote.id],
  );
  const fromQuote = idFrom(await office.post(`/quotes/${quote.id}/convert`, {}), "/jobs");
  assert.deepEqual(
    await checklistOf(t.id, fromQuote),
    [
      ["Replace the pump", false],
      ["Power flush", false],
    ],
    "the chosen items, not the optional one left out",
  );
});

test("the company setting decides whether completing needs the checklist; cancelling a job stops its clock into a time entry", async () => {
  const t = await createTenantWithUsers();
  const owner = await clientFor(t.users.owner);
  const page = await (await owner.get("/settings/company")).text();
  assert.match(page, /A job can be completed only when every checklist item is ticked/);
  const form = Object.fromEntries(
    [...page.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)]
      .map((m) => [m[1], m[2].replace(/&amp;/g, "&")])
      .filter(([k]) => k !== "_csrf" && k !== "checklistRequired"),
  );
  const saved = await owner.post("/settings/company", {
    ...form,
    businessName: form.businessName ?? "Tenant",
    timeZone: "UTC",
    currency: "USD",
    checklistRequired: "on",
  });
  assert.equal(
    saved.status,
    303,
    await saved
      .clone()
      .text()
      .then((s) => s.slice(0, 300)),
  );
  assert.equal(
    (await one<{ checklist_required: boolean }>(`SELECT checklist_required FROM tenants WHERE id = $1`, [t.id]))!
      .checklist_required,
    true,
  );

  const { job, tech, clientId } = await field({ tenant: t, required: true });
  await push(tech, clientId, [status(1, job.id, "en_route", 0)]);
  const office = await clientFor(t.users.office);
  const cancel = await office.post(`/jobs/${job.id}`, { intent: "cancel" });
  assert.equal(cancel.status, 303);
  const s = await state(t.id, job.id);
  assert.equal(s.status, "cancelled");
  assert.deepEqual(s.clocks, [], "no clock runs on a cancelled job");
  assert.equal(s.times.length, 1);
  assert.equal(s.times[0][0], at(0));
  const bad = await office.post(`/jobs/${job.id}`, { intent: "delete" });
  assert.equal(bad.status, 422, "the job page's form is checked by its schema");
});

test("the invoice made from a signed job shows the signature, on its page and in its PDF", async () => {
  const { t, job, tech, clientId } = await field();
  await push(tech, clientId, [
    status(1, job.id, "en_route", 0),
    status(2, job.id, "in_progress", 5),
    sign(3, job.id, { name: "Maria Gonzalez", image: PNG }, 30),
    status(4, job.id, "completed", 31),
  ]);
  const office = await clientFor(t.users.office);
  const invoiceId = idFrom(await office.post(`/jobs/${job.id}/invoice`, {}), "/invoices");
  const html = await (await office.get(`/invoices/${invoiceId}`)).text();
  assert.match(html, /Customer signature/);
  assert.match(html, /alt="Signature of Maria Gonzalez"/);
  const res = await office.get(`/invoices/${invoiceId}.pdf`);
  assert.equal(res.status, 200);
  const { extractText, getDocumentProxy } = await import("unpdf");
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { text } = await extractText(await getDocumentProxy(bytes.slice()), { mergePages: true });
  assert.match(text.replace(/\s+/g, " "), /Customer signature Signed by Maria Gonzalez on completion/);
  assert.ok(Buffer.from(bytes).includes("/Subtype /Image"), "the drawing is in the PDF");
});
