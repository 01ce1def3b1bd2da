// Crews on a visit (docs/decisions/320-crews-and-visit-sync.md): every member sees the visit in
// /field and their calendar feed, each has their own clock and time entries, the first
// "Complete" completes it for all and stops the others' clocks; a technician outside the crew,
// and another tenant, meet the visit as an unknown id. Offline sync answers `visits` and takes
// an optional `visitId`.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import ICAL from "ical.js";
import { one, rows } from "../../db/index";
import { clientFor, envelope, type Client } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser, type TestUser } from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";

type M = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };
type Result = { id: number; status: string; error?: { code: string; message: string } };
type Visit = {
  id: string;
  jobId: string;
  start: string;
  end: string | null;
  status: string;
  crew: Array<{ id: string; name: string }>;
};

const base = Date.now() - 3 * 3600_000;
const at = (minute: number) => new Date(base + minute * 60_000).toISOString();

async function push(c: Client, clientId: string, mutations: M[]) {
  const res = await c.postJson("/api/offline-sync", { clientId, mutations });
  assert.equal(res.status, 200, `push answered ${res.status}`);
  return (await envelope(res)).data as {
    lastMutationId: number;
    results: Result[];
    jobs: Array<{ id: string; visitId: string | null; status: string; crew: Array<{ name: string }> }>;
    visits: Visit[];
  };
}

async function feedOf(c: Client, userId: string) {
  const made = await c.post("/settings/calendar/feeds", { userId });
  assert.equal(made.status, 303, await made.clone().text());
  const html = await (await c.get("/settings/calendar")).text();
  const url = decode(
    html
      .match(/id="own-feed-url"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="own-feed-url"/)!
      .slice(1)
      .find(Boolean)!,
  );
  return new URL(url).pathname;
}

async function feedEvents(c: Client, userId: string) {
  const res = await c.get(await feedOf(c, userId));
  assert.equal(res.status, 200);
  const cal = new ICAL.Component(ICAL.parse(await res.text()));
  return cal.getAllSubcomponents("vevent").map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      sequence: e.sequence,
      description: e.description,
      start: e.startDate.toJSDate().toISOString(),
    };
  });
}

/** A job of `ann` with one visit an hour ahead, and `ben` added to its crew. */
async function crewVisit() {
  const t = await createTenantWithUsers();
  const ann = t.users.technician;
  const ben = await createUser(t.id, { role: "technician", name: "Ben Okafor" });
  const cal = await createUser(t.id, { role: "technician", name: "Cal Outsider" });
  const customer = await createCustomer(t.id, { name: "Priya Raman" });
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: ann.id, title: "Panel upgrade" });
  const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    job.id,
  ]))!;
  await one(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [t.id, visit.id, ben.id]);
  return { t, ann, ben, cal, customer, job, visit };
}

const crewOf = async (tenantId: string, visitId: string) =>
  (
    await rows<{ user_id: string }>(
      `SELECT user_id FROM visit_assignees WHERE tenant_id = $1 AND visit_id = $2 ORDER BY user_id`,
      [tenantId, visitId],
    )
  ).map((r) => r.user_id);

test("a two-person crew: both see the visit in /field and in their calendar feeds; both clock in; the first Complete completes it and stops the other's clock; each has their own time entry", async () => {
  const { t, ann, ben, cal, job, visit } = await crewVisit();
  assert.deepEqual(await crewOf(t.id, visit.id), [ann.id, ben.id].sort());
  const [a, b, c] = await Promise.all([clientFor(ann), clientFor(ben), clientFor(cal)]);

  // Both members see it on /field, named as a crew; the third technician does not.
  for (const member of [a, b]) {
    const page = await member.get("/field");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(textOf(html), /Panel upgrade/);
    assert.ok(html.includes(`name="visitId" value="${visit.id}"`), "the card's forms name the visit");
    assert.match(textOf(html), /Crew.*Ben Okafor/);
  }
  assert.doesNotMatch(textOf(await (await c.get("/field")).text()), /Panel upgrade/);

  // Both members' calendar feeds carry the visit (one event, the job's UID); the third's does not.
  for (const [client, user] of [
    [a, ann],
    [b, ben],
  ] as Array<[Client, TestUser]>) {
    const events = await feedEvents(client, user.id);
    assert.deepEqual(
      events.map((e) => e.uid),
      [`${job.id}@fieldwork`],
    );
    assert.match(events[0].description!, /Crew: .*Ben Okafor/);
  }
  assert.deepEqual(await feedEvents(c, cal.id), []);

  // Ann is on her way and starts work (jobId only, as a phone from before visits sends it); Ben
  // joins the visit already under way with his own clock (visitId named).
  const ca = randomUUID();
  const cb = randomUUID();
  let r = await push(a, ca, [
    { id: 1, type: "job.status", occurredAt: at(0), args: { jobId: job.id, status: "en_route" } },
    { id: 2, type: "job.status", occurredAt: at(20), args: { jobId: job.id, status: "in_progress" } },
  ]);
  assert.deepEqual(
    r.results.map((x) => x.status),
    ["applied", "applied"],
  );
  r = await push(b, cb, [
    {
      id: 1,
      type: "job.status",
      occurredAt: at(30),
      args: { jobId: job.id, visitId: visit.id, status: "in_progress" },
    },
  ]);
  assert.deepEqual(r.results, [{ id: 1, status: "applied" }], "a member joins the visit under way");
  const clocks = await rows<{ user_id: string; started_at: Date; visit_id: string }>(
    `SELECT user_id, started_at, visit_id FROM job_clocks WHERE tenant_id = $1 AND job_id = $2 ORDER BY started_at`,
    [t.id, job.id],
  );
  assert.deepEqual(
    clocks.map((k) => [k.user_id, k.started_at.toISOString(), k.visit_id]),
    [
      [ann.id, at(0), visit.id],
      [ben.id, at(30), visit.id],
    ],
    "each member has their own clock on the visit",
  );
  // Ben's answer: the visit with its crew, his own clock on the card.
  assert.equal(r.jobs.length, 1);
  assert.equal(r.jobs[0].visitId, visit.id);
  assert.deepEqual(r.jobs[0].crew.map((m) => m.name).sort(), [ann.name, "Ben Okafor"].sort());
  const mine = r.visits.find((v) => v.id === visit.id)!;
  assert.equal(mine.jobId, job.id);
  assert.equal(mine.status, "in_progress");
  assert.deepEqual(mine.crew.map((m) => m.id).sort(), [ann.id, ben.id].sort());
  // A second "Start clock" of Ben's is refused: his clock runs.
  r = await push(b, cb, [{ id: 2, type: "job.clock", occurredAt: at(31), args: { jobId: job.id, action: "start" } }]);
  assert.equal(r.results[0].status, "rejected");
  assert.match(r.results[0].error!.message, /already running/);

  // Ann completes: the visit and the job complete for both; Ben's clock stops with it. The moment
  // is 178 minutes after Ann set off, or midnight in the business's zone if that came later (a run
  // just after midnight would otherwise complete it yesterday, and "Done today" below would miss).
  const midnight = await one<{ at: Date }>(
    `SELECT date_trunc('day', now() AT TIME ZONE time_zone) AT TIME ZONE time_zone AS at FROM tenants WHERE id = $1`,
    [t.id],
  );
  const doneAt = new Date(Math.max(Date.parse(at(178)), midnight!.at.getTime())).toISOString();
  r = await push(a, ca, [
    { id: 3, type: "job.status", occurredAt: doneAt, args: { jobId: job.id, visitId: visit.id, status: "completed" } },
  ]);
  assert.deepEqual(r.results, [{ id: 3, status: "applied" }]);
  const after = await one<{ job: string; visit: string; completed_at: Date }>(
    `SELECT j.status AS job, v.status AS visit, v.completed_at FROM jobs j JOIN visits v ON v.tenant_id = j.tenant_id AND v.job_id = j.id
      WHERE j.tenant_id = $1 AND j.id = $2`,
    [t.id, job.id],
  );
  assert.deepEqual([after!.job, after!.visit, after!.completed_at.toISOString()], ["completed", "completed", doneAt]);
  assert.equal(
    (await rows(`SELECT 1 FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`, [t.id, job.id])).length,
    0,
    "no clock runs on the completed visit",
  );
  const entries = await rows<{ user_id: string; started_at: Date; ended_at: Date; visit_id: string }>(
    `SELECT user_id, started_at, ended_at, visit_id FROM time_entries WHERE tenant_id = $1 AND job_id = $2 ORDER BY started_at`,
    [t.id, job.id],
  );
  assert.deepEqual(
    entries.map((e) => [e.user_id, e.started_at.toISOString(), e.ended_at.toISOString(), e.visit_id]),
    [
      [ann.id, at(0), doneAt, visit.id],
      [ben.id, at(30), doneAt, visit.id],
    ],
    "each member has their own time entry on the visit",
  );
  // Ben's late "Complete" finds it completed: refused, nothing doubled.
  r = await push(b, cb, [
    { id: 3, type: "job.status", occurredAt: doneAt, args: { jobId: job.id, visitId: visit.id, status: "completed" } },
  ]);
  assert.equal(r.results[0].status, "rejected");
  assert.equal(r.results[0].error!.code, "CONFLICT");
  assert.equal(
    (await rows(`SELECT 1 FROM time_entries WHERE tenant_id = $1 AND job_id = $2`, [t.id, job.id])).length,
    2,
  );
  assert.equal(r.visits.find((v) => v.id === visit.id)!.status, "completed", "yesterday..14 days: the done visit too");
  assert.ok(!r.jobs.some((j) => j.id === job.id), "no longer open work");
  // Both see it done today on /field.
  for (const member of [a, b])
    assert.match(textOf(await (await member.get("/field")).text()), /Done today.*Panel upgrade/s);
});

test("outside the crew, a visit is unknown: a third technician's and another tenant's mutations are rejected exactly as an unknown id, its pages are 404, nothing changes", async () => {
  const { t, cal, job, visit } = await crewVisit();
  const other = await createTenantWithUsers();
  const c = await clientFor(cal);
  const stranger = await clientFor(other.users.technician);
  const strangerOffice = await clientFor(other.users.office);

  const probes = (jobId: string, visitId?: string) =>
    (
      [
        ["job.status", { status: "en_route" }],
        ["job.note", { body: "Am I on this one?" }],
        ["job.time_entry", { startedAt: at(0), endedAt: at(30) }],
        ["job.clock", { action: "start" }],
        ["job.signature", { name: "Pat Customer" }],
      ] as const
    ).map(([type, args]) => ({ type, args: { jobId, ...(visitId ? { visitId } : {}), ...args } }));
  const shapes: Array<[string, string | undefined, string, string | undefined]> = [
    // [the visit's job, its visit] beside [an unknown job, an unknown visit]
    [job.id, undefined, randomUUID(), undefined],
    [job.id, visit.id, job.id, randomUUID()],
    [job.id, visit.id, randomUUID(), randomUUID()],
    [job.id, visit.id, job.id, "not-a-uuid"],
  ];
  for (const who of [c, stranger, strangerOffice]) {
    const clientId = randomUUID();
    let id = 0;
    const mutations: M[] = [];
    for (const [jobId, visitId, unknownJob, unknownVisit] of shapes) {
      const real = probes(jobId, visitId);
      const fake = probes(unknownJob, unknownVisit);
      real.forEach((m, i) => {
        mutations.push({ id: ++id, occurredAt: at(10), ...m });
        mutations.push({ id: ++id, occurredAt: at(10), ...fake[i] });
      });
    }
    const r = await push(who, clientId, mutations);
    for (let i = 0; i < r.results.length; i += 2) {
      const [known, unknown] = [r.results[i], r.results[i + 1]];
      assert.equal(unknown.status, "rejected", JSON.stringify(mutations[i + 1]));
      assert.equal(unknown.error!.code, "NOT_FOUND");
      assert.deepEqual(
        { ...known, id: 0 },
        { ...unknown, id: 0 },
        `the same answer as an unknown id: ${JSON.stringify(mutations[i])}`,
      );
    }
    assert.ok(!r.visits.some((v) => v.id === visit.id));
    assert.ok(!r.jobs.some((j) => j.id === job.id));
  }
  const state = await one<{ status: string; n: number }>(
    `SELECT v.status, (SELECT count(*) FROM job_notes n WHERE n.tenant_id = v.tenant_id AND n.job_id = v.job_id)
          + (SELECT count(*) FROM time_entries e WHERE e.tenant_id = v.tenant_id AND e.job_id = v.job_id)
          + (SELECT count(*) FROM job_clocks k WHERE k.tenant_id = v.tenant_id AND k.job_id = v.job_id)
          + (SELECT count(*) FROM job_signatures s WHERE s.tenant_id = v.tenant_id AND s.job_id = v.job_id) AS n
       FROM visits v WHERE v.tenant_id = $1 AND v.id = $2`,
    [t.id, visit.id],
  );
  assert.deepEqual([state!.status, Number(state!.n)], ["scheduled", 0], "nothing changed");

  // Pages and routes: 404 as for an unknown id, for the third technician and the other tenant.
  for (const who of [c, stranger]) {
    for (const path of [`/jobs/${job.id}`, `/jobs/${randomUUID()}`])
      assert.equal((await who.get(path)).status, 404, path);
    const [known, unknown] = await Promise.all(
      [job.id, randomUUID()].map((jobId) =>
        who.post("/field", { intent: "note", jobId, visitId: visit.id, body: "Am I on this one?" }),
      ),
    );
    assert.equal(known.status, 404);
    assert.equal(unknown.status, 404);
  }
});

test("without visitId a mutation acts on the caller's visit under way, else the one nearest its time; a job's visits each keep their own status", async () => {
  const t = await createTenantWithUsers();
  const ann = t.users.technician;
  const customer = await createCustomer(t.id);
  const day = 24 * 3600_000;
  const job = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: ann.id,
    title: "Kitchen remodel",
    scheduledStart: new Date(base),
  });
  const first = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    job.id,
  ]))!;
  const second = (await one<{ id: string }>(
    `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id`,
    [t.id, job.id, new Date(base + 2 * day), new Date(base + 2 * day + 3 * 3600_000)],
  ))!;
  await one(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
    t.id,
    second.id,
    ann.id,
  ]);
  const a = await clientFor(ann);
  const clientId = randomUUID();
  const near = (ms: number) => new Date(Math.min(base + ms, Date.now() - 1000)).toISOString();
  // The first visit's time (a note) and a status near it: the first visit.
  let r = await push(a, clientId, [
    { id: 1, type: "job.status", occurredAt: near(5 * 60_000), args: { jobId: job.id, status: "en_route" } },
    {
      id: 2,
      type: "job.time_entry",
      occurredAt: near(6 * 60_000),
      args: { jobId: job.id, startedAt: at(0), endedAt: at(5) },
    },
  ]);
  assert.deepEqual(
    r.results.map((x) => x.status),
    ["applied", "applied"],
  );
  const statuses = async () =>
    (
      await rows<{ id: string; status: string }>(
        `SELECT id, status FROM visits WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
        [t.id, job.id],
      )
    ).map((v) => v.status);
  assert.deepEqual(await statuses(), ["en_route", "scheduled"]);
  const entry = await one<{ visit_id: string }>(
    `SELECT visit_id FROM time_entries WHERE tenant_id = $1 AND job_id = $2`,
    [t.id, job.id],
  );
  assert.equal(entry!.visit_id, first.id, "the time entry names the visit under way");
  assert.equal(r.visits.filter((v) => v.jobId === job.id).length, 2, "both visits in the 14 days");
  // Completing the first visit leaves the job open with the second.
  r = await push(a, clientId, [
    { id: 3, type: "job.status", occurredAt: near(30 * 60_000), args: { jobId: job.id, status: "in_progress" } },
    { id: 4, type: "job.status", occurredAt: near(60 * 60_000), args: { jobId: job.id, status: "completed" } },
  ]);
  assert.deepEqual(await statuses(), ["completed", "scheduled"]);
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [t.id, job.id]))!.status,
    "scheduled",
  );
  assert.equal(r.jobs.find((j) => j.id === job.id)?.visitId, second.id, "the card now stands for the next visit");
  // A status without visitId, nothing under way: the visit nearest its time (the second; the
  // first is done), and with visitId the named one.
  r = await push(a, clientId, [
    { id: 5, type: "job.status", occurredAt: near(70 * 60_000), args: { jobId: job.id, status: "en_route" } },
  ]);
  assert.equal(
    r.results[0].status,
    "rejected",
    "the nearest visit is the completed first one: a conflict, nothing moves",
  );
  r = await push(a, clientId, [
    {
      id: 6,
      type: "job.status",
      occurredAt: near(80 * 60_000),
      args: { jobId: job.id, visitId: second.id, status: "en_route" },
    },
  ]);
  assert.deepEqual(r.results, [{ id: 6, status: "applied" }]);
  assert.deepEqual(await statuses(), ["completed", "en_route"]);
});
