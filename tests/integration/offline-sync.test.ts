import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { db, one, rows } from "../../db/index";
import { ARGS_SCHEMAS } from "../../app/services/field/mutation-schemas";
import { Client, clientFor, envelope } from "../helpers/client";
import {
  createCustomer,
  createJob,
  createTenantWithUsers,
  createUser,
  twoTenants,
  type TestTenant,
} from "../helpers/fixtures";

type M = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const status = (id: number, jobId: string, s: string, occurredAt = at(60 - id)): M => ({
  id,
  type: "job.status",
  occurredAt,
  args: { jobId, status: s },
});
const note = (id: number, jobId: string, body: string): M => ({
  id,
  type: "job.note",
  occurredAt: at(60 - id),
  args: { jobId, body },
});
const timeEntry = (id: number, jobId: string, startedAt = at(50), endedAt = at(20)): M => ({
  id,
  type: "job.time_entry",
  occurredAt: endedAt,
  args: { jobId, startedAt, endedAt, note: "Replaced the anode rod" },
});

const push = (c: Client, clientId: string, mutations: unknown[], headers?: Record<string, string>) =>
  c.postJson("/api/offline-sync", { clientId, mutations }, headers);

/** A tenant with a technician, a job assigned to them, and a client signed in as them. */
async function field(tenant?: TestTenant) {
  const t = tenant ?? (await createTenantWithUsers());
  const customer = await createCustomer(t.id);
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
  return { t, job, tech: await clientFor(t.users.technician) };
}

/** What the field did to a job, read from the database. */
async function effects(tenantId: string, jobId: string) {
  const [job, events, notes, times] = await Promise.all([
    one<{ status: string; completed_at: Date | null }>(
      `SELECT status, completed_at FROM jobs WHERE tenant_id = $1 AND id = $2`,
      [tenantId, jobId],
    ),
    rows<{ from_status: string; to_status: string; occurred_at: Date; user_id: string }>(
      `SELECT from_status, to_status, occurred_at, user_id FROM job_events WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at`,
      [tenantId, jobId],
    ),
    rows<{ body: string; author_id: string }>(
      `SELECT body, author_id FROM job_notes WHERE tenant_id = $1 AND job_id = $2`,
      [tenantId, jobId],
    ),
    rows<{ started_at: Date; ended_at: Date; note: string | null }>(
      `SELECT started_at, ended_at, note FROM time_entries WHERE tenant_id = $1 AND job_id = $2`,
      [tenantId, jobId],
    ),
  ]);
  return { status: job!.status, completedAt: job!.completed_at, events, notes, times };
}

const lastMutationId = async (tenantId: string, clientId: string) =>
  (
    await one<{ n: number }>(`SELECT last_mutation_id AS n FROM sync_clients WHERE tenant_id = $1 AND client_id = $2`, [
      tenantId,
      clientId,
    ])
  )?.n;

test("a batch 1..4 applies in order, lastMutationId is 4; the same batch again is all duplicate and stores nothing", async () => {
  const { t, job, tech } = await field();
  const clientId = randomUUID();
  const batch = [
    status(1, job.id, "en_route"),
    status(2, job.id, "in_progress"),
    note(3, job.id, "Customer asked about a water softener"),
    timeEntry(4, job.id),
  ];
  const res = await push(tech, clientId, batch);
  assert.equal(res.status, 200);
  const body = await envelope(res);
  assert.equal(body.success, true);
  assert.equal(body.data.clientId, clientId);
  assert.equal(body.data.lastMutationId, 4);
  assert.deepEqual(
    body.data.results,
    [1, 2, 3, 4].map((id) => ({ id, status: "applied" })),
  );
  const listed = body.data.jobs.find((j: { id: string }) => j.id === job.id);
  assert.equal(listed.status, "in_progress", "data.jobs shows the job as it is now");
  assert.deepEqual(listed.nextStatuses, ["completed", "on_hold"]);

  const done = await effects(t.id, job.id);
  assert.equal(done.status, "in_progress");
  assert.deepEqual(
    done.events.map((e) => [e.from_status, e.to_status]),
    [
      ["scheduled", "en_route"],
      ["en_route", "in_progress"],
    ],
  );
  assert.equal(
    done.events[0].occurred_at.toISOString(),
    batch[0].occurredAt,
    "the event keeps the time it happened in the field",
  );
  assert.equal(done.events[0].user_id, t.users.technician.id);
  assert.deepEqual(
    done.notes.map((n) => n.body),
    ["Customer asked about a water softener"],
  );
  assert.equal(done.notes[0].author_id, t.users.technician.id);
  assert.equal(done.times.length, 1);
  assert.equal(done.times[0].note, "Replaced the anode rod");
  assert.equal(await lastMutationId(t.id, clientId), 4);

  const again = await envelope(await push(tech, clientId, batch));
  assert.equal(again.data.lastMutationId, 4);
  assert.deepEqual(
    again.data.results,
    [1, 2, 3, 4].map((id) => ({ id, status: "duplicate" })),
  );
  assert.deepEqual(await effects(t.id, job.id), done, "nothing more is stored");
});

test("a gap is skipped and changes nothing; a bad transition, unknown job, another technician's or tenant's job and bad args are rejected and still count", async () => {
  const { a, b } = await twoTenants();
  const { t, job, tech } = await field(a);
  const other = await createUser(t.id, { role: "technician" });
  const customer = await createCustomer(t.id);
  const othersJob = await createJob(t.id, { customerId: customer.id, assigneeId: other.id });
  const foreign = await createJob(b.id, {
    customerId: (await createCustomer(b.id)).id,
    assigneeId: b.users.technician.id,
  });
  const clientId = randomUUID();
  await push(tech, clientId, [
    status(1, job.id, "en_route"),
    status(2, job.id, "in_progress"),
    note(3, job.id, "Started"),
    timeEntry(4, job.id),
  ]);
  const before = await effects(t.id, job.id);

  const gap = await envelope(await push(tech, clientId, [note(6, job.id, "Sent too early")]));
  assert.deepEqual(gap.data.results, [{ id: 6, status: "skipped" }]);
  assert.equal(gap.data.lastMutationId, 4);
  assert.deepEqual(await effects(t.id, job.id), before, "a skipped mutation changes nothing");

  const res = await push(tech, clientId, [
    status(5, job.id, "en_route"), // in_progress -> en_route is not a transition
    note(6, randomUUID(), "No such job"),
    note(7, othersJob.id, "Not mine"),
    status(8, foreign.id, "en_route"), // another tenant's job: exactly like a missing one
    note(9, job.id, ""),
    { id: 10, type: "job.teleport", occurredAt: at(1), args: { jobId: job.id } },
    status(11, job.id, "on_hold"),
    note(12, job.id, "a NUL \u0000 character"), // text PostgreSQL cannot store: refused, not retried for ever
    note(13, job.id, "a lone \ud800 surrogate"),
  ]);
  assert.equal(res.status, 200);
  const body = await envelope(res);
  assert.equal(body.data.lastMutationId, 13);
  const byId = Object.fromEntries(body.data.results.map((r: { id: number }) => [r.id, r]));
  assert.equal(byId[5].status, "rejected");
  assert.equal(byId[5].error.code, "CONFLICT");
  assert.match(byId[5].error.message, /in progress cannot become on the way/);
  assert.equal(byId[6].error.code, "NOT_FOUND");
  assert.deepEqual(byId[7].error, byId[6].error, "another technician's job answers like a missing one");
  assert.equal(byId[8].error.code, "NOT_FOUND");
  assert.equal(byId[8].error.message, byId[6].error.message, "another tenant's job answers like a missing one");
  assert.equal(byId[9].error.code, "VALIDATION_FAILED");
  assert.ok(byId[9].error.fields.body, "the bad argument is named");
  assert.equal(byId[10].error.code, "VALIDATION_FAILED");
  assert.deepEqual(byId[11], { id: 11, status: "applied" }, "processing goes on after a rejection");
  for (const id of [5, 6, 7, 8, 9, 10, 12, 13]) assert.equal(byId[id].status, "rejected");
  assert.equal(byId[12].error.code, "VALIDATION_FAILED");
  assert.equal(byId[13].error.code, "VALIDATION_FAILED");

  const now = await effects(t.id, job.id);
  assert.equal(now.status, "on_hold");
  assert.equal(now.events.length, before.events.length + 1);
  assert.equal(now.notes.length, before.notes.length);
  assert.equal((await effects(t.id, othersJob.id)).notes.length, 0);
  assert.equal((await effects(b.id, foreign.id)).status, "scheduled");
  assert.equal(await lastMutationId(t.id, clientId), 13);
});

test("completing a job stores completed_at from the field; office staff act on any job of the tenant and see only their own in data.jobs", async () => {
  const { t, job } = await field();
  const office = await clientFor(t.users.office);
  const finishedAt = at(5);
  const res = await envelope(
    await push(office, randomUUID(), [
      status(1, job.id, "en_route"),
      status(2, job.id, "in_progress"),
      status(3, job.id, "completed", finishedAt),
    ]),
  );
  assert.deepEqual(
    res.data.results.map((r: { status: string }) => r.status),
    ["applied", "applied", "applied"],
  );
  const done = await effects(t.id, job.id);
  assert.equal(done.status, "completed");
  assert.equal(done.completedAt?.toISOString(), finishedAt);
  assert.equal(done.events.at(-1)?.user_id, t.users.office.id);
  assert.deepEqual(res.data.jobs, [], "the office user has no assigned jobs");

  const mine = await createJob(t.id, { customerId: (await createCustomer(t.id)).id, assigneeId: t.users.office.id });
  const pulled = await envelope(await push(office, randomUUID(), []));
  assert.deepEqual(
    pulled.data.jobs.map((j: { id: string }) => j.id),
    [mine.id],
    "an empty push refreshes the caller's open jobs",
  );
});

test("ten devices each sending the same five mutations five times at once: exactly one effect per mutation", async () => {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id);
  const devices = await Promise.all(
    Array.from({ length: 10 }, async (_, d) => {
      const job = await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
      const mutations = [
        status(1, job.id, "en_route"),
        status(2, job.id, "in_progress"),
        note(3, job.id, `Device ${d}: replaced the thermocouple`),
        timeEntry(4, job.id),
        status(5, job.id, "completed"),
      ];
      return { clientId: randomUUID(), job, mutations, client: await clientFor(t.users.technician) };
    }),
  );
  const sends = devices.flatMap((d) => Array.from({ length: 5 }, () => d));
  const answers = await Promise.all(
    sends.map(async (d) => ({ d, res: await push(d.client, d.clientId, d.mutations) })),
  );
  for (const { res } of answers) assert.equal(res.status, 200, `every push is answered (got ${res.status})`);
  const applied = new Map<string, number>();
  for (const { d, res } of answers) {
    const body = await envelope(res);
    for (const r of body.data.results) {
      assert.ok(
        r.status === "applied" || r.status === "duplicate",
        `device ${d.clientId} mutation ${r.id}: ${r.status}`,
      );
      if (r.status === "applied") applied.set(`${d.clientId}:${r.id}`, (applied.get(`${d.clientId}:${r.id}`) ?? 0) + 1);
    }
  }
  assert.equal(applied.size, 50, "each of the 50 mutations was applied by one of the pushes");
  assert.ok(
    [...applied.values()].every((n) => n === 1),
    "and by only one",
  );
  for (const d of devices) {
    const e = await effects(t.id, d.job.id);
    assert.equal(e.status, "completed");
    assert.equal(e.events.length, 3);
    assert.equal(e.notes.length, 1);
    assert.equal(
      e.times.length,
      2,
      "the time entry sent, and the job's clock (from On my way) stopped once by Complete",
    );
    assert.equal(await lastMutationId(t.id, d.clientId), 5);
  }
});

test("a database failure in the middle of a batch answers 503, keeps the earlier mutations, leaves the rest untouched; the retry completes with no duplicate", async () => {
  const { t, job, tech } = await field();
  const clientId = randomUUID();
  const batch = [
    status(1, job.id, "en_route"),
    note(2, job.id, "Parking on the street"),
    status(3, job.id, "in_progress"),
    note(4, job.id, "Found the leak"),
    timeEntry(5, job.id),
  ];

  // The database fails while writing mutation 3's event (after its job row was updated).
  const fn = `fail_${randomUUID().replace(/-/g, "")}`;
  await db().query(
    `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`,
  );
  await db().query(
    `CREATE TRIGGER ${fn} BEFORE INSERT ON job_events FOR EACH ROW WHEN (NEW.job_id = '${job.id}' AND NEW.to_status = 'in_progress') EXECUTE FUNCTION ${fn}()`,
  );
  let res: Response;
  try {
    res = await push(tech, clientId, batch);
  } finally {
    await db().query(`DROP TRIGGER ${fn} ON job_events; DROP FUNCTION ${fn}()`);
  }
  assert.equal(res.status, 503);
  assert.ok(Number(res.headers.get("retry-after")) > 0);
  const failed = await envelope(res);
  assert.equal(failed.success, false);
  assert.equal(failed.error?.code, "INTERNAL_ERROR");
  assert.doesNotMatch(failed.error!.message, /disk on fire/, "no internals in the message");

  const half = await effects(t.id, job.id);
  assert.equal(half.status, "en_route", "mutation 1 committed; 3 failed and its job update was rolled back with it");
  assert.deepEqual(
    half.events.map((e) => e.to_status),
    ["en_route"],
  );
  assert.deepEqual(
    half.notes.map((n) => n.body),
    ["Parking on the street"],
    "2 committed, 4 untouched",
  );
  assert.equal(half.times.length, 0, "5 untouched");
  assert.equal(await lastMutationId(t.id, clientId), 2);

  const retry = await envelope(await push(tech, clientId, batch));
  assert.deepEqual(
    retry.data.results.map((r: { status: string }) => r.status),
    ["duplicate", "duplicate", "applied", "applied", "applied"],
  );
  assert.equal(retry.data.lastMutationId, 5);
  const done = await effects(t.id, job.id);
  assert.equal(done.status, "in_progress");
  assert.deepEqual(
    done.events.map((e) => e.to_status),
    ["en_route", "in_progress"],
  );
  assert.deepEqual(done.notes.map((n) => n.body).sort(), ["Found the leak", "Parking on the street"]);
  assert.equal(done.times.length, 1);
});

describe("refused requests answer the envelope and store nothing", () => {
  test("text/plain is 415, malformed JSON 400, a wrong shape 422 with fields, 501 mutations 413, a body over 1 MiB 413", async () => {
    const { t, job, tech } = await field();
    const clientId = randomUUID();
    const valid = JSON.stringify({ clientId, mutations: [note(1, job.id, "hello")] });

    const plain = await tech.request("POST", "/api/offline-sync", {
      body: valid,
      headers: { "content-type": "text/plain" },
    });
    assert.equal(plain.status, 415);
    assert.equal((await envelope(plain)).error?.code, "UNSUPPORTED_MEDIA_TYPE");
    const form = await tech.request("POST", "/api/offline-sync", { body: { clientId } });
    assert.equal(form.status, 415, "a form post is refused too");

    const malformed = await tech.request("POST", "/api/offline-sync", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await envelope(malformed)).error?.code, "BAD_REQUEST");

    const shape = await push(tech, "not-a-uuid", [{ id: 0, type: "job.note", occurredAt: "yesterday", args: [] }]);
    assert.equal(shape.status, 422);
    const err = (await envelope(shape)).error!;
    assert.equal(err.code, "VALIDATION_FAILED");
    for (const key of ["clientId", "mutations.0.id", "mutations.0.occurredAt", "mutations.0.args"])
      assert.ok(err.fields[key]?.length, `error.fields names ${key}`);
    const missing = await tech.postJson("/api/offline-sync", { clientId });
    assert.equal(missing.status, 422);
    assert.ok((await envelope(missing)).error!.fields.mutations);

    const many = await push(
      tech,
      clientId,
      Array.from({ length: 501 }, (_, i) => note(i + 1, job.id, "x")),
    );
    assert.equal(many.status, 413);
    assert.equal((await envelope(many)).error?.code, "PAYLOAD_TOO_LARGE");
    const big = await push(tech, clientId, [note(1, job.id, "x".repeat(1024 * 1024))]);
    assert.equal(big.status, 413);
    assert.equal((await envelope(big)).error?.code, "PAYLOAD_TOO_LARGE");
    // The refused body was never read: the connection closes, so the next request is not mixed with it.
    assert.equal((await tech.postJson("/api/offline-sync", { clientId: randomUUID(), mutations: [] })).status, 200);

    const wrongMethod = await tech.get("/api/offline-sync");
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("allow"), "POST");

    assert.equal(await lastMutationId(t.id, clientId), undefined, "no client was registered");
    assert.equal((await effects(t.id, job.id)).notes.length, 0);
  });

  test("a cross-site Origin is 403, another user's client id 403, no session 401", async () => {
    const { t, job, tech } = await field();
    const clientId = randomUUID();
    const crossSite = await push(tech, clientId, [note(1, job.id, "from evil")], { origin: "https://evil.example" });
    assert.equal(crossSite.status, 403);
    assert.equal((await envelope(crossSite)).error?.code, "CSRF_INVALID");
    const fetchSite = await push(tech, clientId, [note(1, job.id, "from evil")], { "sec-fetch-site": "cross-site" });
    assert.equal(fetchSite.status, 403);

    assert.equal((await push(tech, clientId, [note(1, job.id, "mine")])).status, 200);
    const office = await clientFor(t.users.office);
    const stolen = await push(office, clientId, [note(2, job.id, "someone else's device")]);
    assert.equal(stolen.status, 403);
    const stolenBody = await envelope(stolen);
    assert.equal(stolenBody.error?.code, "FORBIDDEN");
    assert.deepEqual(stolenBody.error?.fields, {});

    const anonymous = await push(new Client(), randomUUID(), [note(1, job.id, "who am I")]);
    assert.equal(anonymous.status, 401);
    assert.equal((await envelope(anonymous)).error?.code, "UNAUTHENTICATED");

    assert.deepEqual(
      (await effects(t.id, job.id)).notes.map((n) => n.body),
      ["mine"],
    );
    assert.equal(await lastMutationId(t.id, clientId), 1);
  });

  test("client ids are per tenant: the same id in another tenant is a separate client", async () => {
    const { a, b } = await twoTenants();
    const fa = await field(a);
    const fb = await field(b);
    const clientId = randomUUID();
    assert.equal(
      (await envelope(await push(fa.tech, clientId, [note(1, fa.job.id, "A's note"), note(2, fa.job.id, "A again")])))
        .data.lastMutationId,
      2,
    );
    const inB = await envelope(await push(fb.tech, clientId, [note(1, fb.job.id, "B's note")]));
    assert.deepEqual(inB.data.results, [{ id: 1, status: "applied" }], "B's first mutation is not a duplicate of A's");
    assert.equal(await lastMutationId(a.id, clientId), 2);
    assert.equal(await lastMutationId(b.id, clientId), 1);
  });
});

test("every mutation type: a job of the tenant assigned to someone else answers exactly as an unknown job id, and changes nothing", async () => {
  const { t, tech } = await field();
  const customer = await createCustomer(t.id);
  const other = await createUser(t.id, { role: "technician" });
  const othersJob = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: other.id,
    status: "in_progress",
    checklist: ["Shut off the gas"],
  });
  const item = await one<{ id: string }>(`SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    othersJob.id,
  ]);
  const png =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  // Valid arguments for each type, so only the job decides the answer.
  const argsOf: Record<keyof typeof ARGS_SCHEMAS, Record<string, unknown>> = {
    "job.status": { status: "on_hold" },
    "job.note": { body: "Is this job here?" },
    "job.time_entry": { startedAt: at(50), endedAt: at(20) },
    "job.clock": { action: "stop" },
    "job.checklist": { itemId: item!.id, done: true },
    "job.signature": { name: "Pat Customer", image: png },
  };
  const types = Object.keys(ARGS_SCHEMAS) as (keyof typeof ARGS_SCHEMAS)[];
  assert.deepEqual(Object.keys(argsOf).sort(), [...types].sort(), "every mutation type is probed");
  const before = await effects(t.id, othersJob.id);
  const clientId = randomUUID();
  let id = 0;
  const mutations = types.flatMap((type) =>
    [othersJob.id, randomUUID()].map((jobId) => ({
      id: ++id,
      type,
      occurredAt: at(5),
      args: { jobId, ...argsOf[type] },
    })),
  );
  const body = await envelope(await push(tech, clientId, mutations));
  assert.equal(body.data.results.length, mutations.length);
  for (const [i, type] of types.entries()) {
    const [notMine, unknown] = body.data.results.slice(i * 2, i * 2 + 2);
    assert.equal(unknown.status, "rejected", type);
    assert.equal(unknown.error.code, "NOT_FOUND", type);
    assert.deepEqual({ ...notMine, id: 0 }, { ...unknown, id: 0 }, `${type}: the same answer as an unknown job`);
  }
  assert.deepEqual(await effects(t.id, othersJob.id), before, "the other technician's job is unchanged");
  const touched = await one<{ n: number }>(
    `SELECT (SELECT count(*) FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 AND done_at IS NOT NULL)
          + (SELECT count(*) FROM job_signatures WHERE tenant_id = $1 AND job_id = $2)
          + (SELECT count(*) FROM job_clocks WHERE tenant_id = $1 AND job_id = $2) AS n`,
    [t.id, othersJob.id],
  );
  assert.equal(Number(touched!.n), 0);
  // The no-JavaScript field form answers alike too.
  const form = (jobId: string) => tech.post("/field", { intent: "note", jobId, body: "Is this job here?" });
  const [a, b] = [await form(othersJob.id), await form(randomUUID())];
  assert.equal(a.status, b.status);
  assert.equal(a.status, 404);
});
