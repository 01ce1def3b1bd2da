// A phone's outbox written by the field app before visits (job mutations without visitId,
// tests/fixtures/field-queue-before-visits.json) syncs after visits with the same results as
// before, recorded from the code before visits: nothing lost, nothing doubled, also when the
// phone sends the whole queue again twice (docs/decisions/320-crews-and-visit-sync.md).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { one, rows } from "../../db/index";
import { clientFor, envelope } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/field-queue-before-visits.json");
type Fixture = {
  timeZone: string;
  jobs: Array<{
    id: string;
    title: string;
    start: string;
    end: string;
    checklist: Array<{ id: string; label: string }>;
  }>;
  queue: Array<{ id: number; type: string; occurredAt: string; args: Record<string, unknown> }>;
  expected: { results: unknown; state: unknown } | null;
};
const fixture = JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as Fixture;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** Everything the queue can change, per job, in a form that reads the same before and after visits. */
async function stateOf(tenantId: string) {
  const out: Record<string, unknown> = {};
  for (const j of fixture.jobs) {
    const bind = [tenantId, j.id];
    const job = await one<{ status: string; completed_at: Date | null; scheduled_start: Date; scheduled_end: Date }>(
      `SELECT status, completed_at, scheduled_start, scheduled_end FROM jobs WHERE tenant_id = $1 AND id = $2`,
      bind,
    );
    out[j.title] = {
      status: job!.status,
      completedAt: iso(job!.completed_at),
      time: [iso(job!.scheduled_start), iso(job!.scheduled_end)],
      events: (
        await rows<{ from_status: string; to_status: string; occurred_at: Date }>(
          `SELECT from_status, to_status, occurred_at FROM job_events WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at, to_status`,
          bind,
        )
      ).map((e) => [e.from_status, e.to_status, iso(e.occurred_at)]),
      // The paid time as it was recorded before visits; the break between two clock runs that
      // timesheets now record as well is a row the old model did not have.
      timeEntries: (
        await rows<{ started_at: Date; ended_at: Date; note: string | null }>(
          `SELECT started_at, ended_at, note FROM time_entries WHERE tenant_id = $1 AND job_id = $2 AND kind <> 'break' ORDER BY started_at, ended_at`,
          bind,
        )
      ).map((e) => [iso(e.started_at), iso(e.ended_at), e.note]),
      notes: (
        await rows<{ body: string; occurred_at: Date }>(
          `SELECT body, occurred_at FROM job_notes WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at`,
          bind,
        )
      ).map((n) => [n.body, iso(n.occurred_at)]),
      checklist: (
        await rows<{ label: string; done_at: Date | null }>(
          `SELECT label, done_at FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
          bind,
        )
      ).map((i) => [i.label, iso(i.done_at)]),
      signature:
        (
          await rows<{ signer_name: string; signed_at: Date; drawn: boolean }>(
            `SELECT signer_name, signed_at, image IS NOT NULL AS drawn FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
            bind,
          )
        ).map((s) => [s.signer_name, iso(s.signed_at), s.drawn])[0] ?? null,
      clocks: (
        await rows<{ started_at: Date; on_site_at: Date | null }>(
          `SELECT started_at, on_site_at FROM job_clocks WHERE tenant_id = $1 AND job_id = $2 ORDER BY started_at`,
          bind,
        )
      ).map((k) => [iso(k.started_at), iso(k.on_site_at)]),
    };
  }
  return out;
}

test("a queue recorded before visits applies after them with the same results, and sending it twice more changes nothing", async () => {
  const t = await createTenantWithUsers();
  await one(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, fixture.timeZone]);
  const customer = await createCustomer(t.id, { name: "Maria Gonzalez" });
  const tech = t.users.technician;
  for (const j of fixture.jobs) {
    await one(
      `INSERT INTO jobs (tenant_id, id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end)
       VALUES ($1, $2, $3, $4, 'scheduled', $5, $6, $7)`,
      [t.id, j.id, customer.id, j.title, tech.id, j.start, j.end],
    );
    for (const [position, item] of j.checklist.entries())
      await one(
        `INSERT INTO job_checklist_items (tenant_id, id, job_id, position, label) VALUES ($1, $2, $3, $4, $5)`,
        [t.id, item.id, j.id, position, item.label],
      );
  }
  const phone = await clientFor(tech);
  const clientId = randomUUID();
  const send = async () => {
    const res = await phone.postJson("/api/offline-sync", { clientId, mutations: fixture.queue });
    assert.equal(res.status, 200);
    return (await envelope(res)).data as { lastMutationId: number; results: Array<{ id: number; status: string }> };
  };

  const first = await send();
  const observed = { results: first.results, state: await stateOf(t.id) };
  if (process.env.RECORD_OLD_QUEUE) {
    fs.writeFileSync(FIXTURE, `${JSON.stringify({ ...fixture, expected: observed }, null, 2)}\n`);
    return;
  }
  assert.ok(fixture.expected, "the fixture carries the results recorded before visits");
  assert.deepEqual(observed, fixture.expected);
  assert.equal(first.lastMutationId, fixture.queue.length);

  // The phone did not hear the answer and sends the queue again, twice: all duplicates.
  for (let i = 0; i < 2; i++) {
    const again = await send();
    assert.deepEqual(
      again.results,
      fixture.queue.map((m) => ({ id: m.id, status: "duplicate" })),
    );
    assert.deepEqual(await stateOf(t.id), fixture.expected.state, "nothing doubled");
  }

  // After visits, each job's work landed on its one visit.
  const visits = await rows<{ job_id: string; status: string; entries: number; unnamed: number }>(
    `SELECT v.job_id, v.status,
            (SELECT count(*)::int FROM time_entries e WHERE e.tenant_id = v.tenant_id AND e.visit_id = v.id AND e.kind <> 'break') AS entries,
            (SELECT count(*)::int FROM time_entries e WHERE e.tenant_id = v.tenant_id AND e.job_id = v.job_id AND e.visit_id IS NULL) AS unnamed
       FROM visits v WHERE v.tenant_id = $1 ORDER BY v.starts_at`,
    [t.id],
  );
  const state = fixture.expected.state as Record<string, { status: string; timeEntries: unknown[] }>;
  assert.deepEqual(
    visits.map((v) => [v.job_id, v.status, v.entries, v.unnamed]),
    fixture.jobs.map((j) => [j.id, state[j.title].status, state[j.title].timeEntries.length, 0]),
  );
});
