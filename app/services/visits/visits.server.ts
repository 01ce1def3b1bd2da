import { inTenant, insertSelect, one, rows, type Tx } from "../../../db/index";
import { conflict, notFound, validationFailed } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import { recordScope } from "~/utils/permissions";
import type { Actor } from "~/services/accounts/actor";
import { lockJob, tenantTimeZone } from "~/services/jobs/jobs.server";
import { assertManagesJobVisits, assertManagesVisit } from "./access.server";
import { utcToZoned, zonedToUtc } from "~/services/jobs/local-time";
import { recordHistory } from "~/services/history/history.server";
import { notify } from "~/services/events/events.server";
import { crewWords, visitWhen } from "./words";
import type { AddVisitInput, VisitScheduleInput } from "./schemas";

// A job's visits made and moved by hand in the office (docs/decisions/276-visits.md): the job
// page's "Add visit" form, the board's card form and its drag and drop. Each command locks the
// job (and the visit) it changes; the database triggers keep the job's row the visits' summary.

export type JobVisit = {
  id: string;
  start: string;
  end: string | null;
  status: string;
  note: string | null;
  crew: Array<{ id: string; name: string }>;
  /** Started before now: listed under "Past". */
  past: boolean;
};

/**
 * The job page's visits, oldest first, each with its crew. A technician sees only the visits
 * they are on (another visit of the job is not theirs to know).
 */
export async function jobVisits(actor: Actor, jobId: string, timeZone: string): Promise<JobVisit[]> {
  if (!isUuid(jobId)) return [];
  const ownOnly = recordScope(actor.role) !== "all";
  return inTenant(actor.tenantId, async (t) => {
    const bind: unknown[] = [actor.tenantId, jobId];
    const own = ownOnly
      ? `AND EXISTS (SELECT 1 FROM visit_assignees m WHERE m.tenant_id = v.tenant_id AND m.visit_id = v.id AND m.user_id = $${bind.push(actor.userId)})`
      : "";
    const found = await rows<{
      id: string;
      starts_at: Date;
      ends_at: Date | null;
      status: string;
      note: string | null;
      crew: Array<{ id: string; name: string }>;
      past: boolean;
    }>(
      `SELECT v.id, v.starts_at, v.ends_at, v.status, v.note, v.starts_at < now() AS past,
              coalesce((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY a.created_at, a.user_id)
                          FROM visit_assignees a JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
                         WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id), '[]') AS crew
         FROM visits v
        WHERE v.tenant_id = $1 AND v.job_id = $2 ${own}
        ORDER BY v.starts_at, v.id
        LIMIT 500`,
      bind,
      t,
    );
    return found.map((v) => ({
      id: v.id,
      start: utcToZoned(v.starts_at, timeZone),
      end: v.ends_at ? utcToZoned(v.ends_at, timeZone) : null,
      status: v.status,
      note: v.note,
      crew: v.crew,
      past: v.past,
    }));
  });
}

/** The crew's members in the tenant, in the order given; 422 beside `assigneeIds` for any other id. */
async function crewOf(tenantId: string, ids: string[], t: Tx): Promise<Array<{ id: string; name: string }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = unique.every(isUuid)
    ? await rows<{ id: string; name: string }>(
        `SELECT id, name FROM users WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [tenantId, unique],
        t,
      )
    : [];
  if (found.length !== unique.length) throw validationFailed({ assigneeIds: ["Choose members of your team."] });
  const byId = new Map(found.map((u) => [u.id, u]));
  return unique.map((id) => byId.get(id)!);
}

/** The job page's members to choose a crew from: technicians first, then everyone else. */
export async function crewChoices(actor: Actor) {
  return inTenant(actor.tenantId, (t) =>
    rows<{ id: string; name: string; role: string }>(
      `SELECT id, name, role FROM users WHERE tenant_id = $1 ORDER BY (role <> 'technician'), name, id LIMIT 500`,
      [actor.tenantId],
      t,
    ),
  );
}

/**
 * POST /jobs/<id>/visits: a new visit of the job at a time with a crew. A cancelled or completed
 * job takes no new visit (409). The job's row follows its visits (its status becomes scheduled).
 */
export async function addVisit(
  actor: Actor,
  jobId: string,
  input: AddVisitInput,
): Promise<{ jobId: string; visitId: string; message: string }> {
  await assertManagesJobVisits(actor, jobId);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.status === "cancelled") throw conflict(`“${job.title}” is cancelled. Reopen it before adding a visit.`);
    if (job.status === "completed") throw conflict(`“${job.title}” is completed; it takes no more visits.`);
    const zone = await tenantTimeZone(actor.tenantId, t);
    const crew = await crewOf(actor.tenantId, input.assigneeIds, t);
    const start = zonedToUtc(input.start, zone);
    const end = zonedToUtc(input.end, zone);
    if (end <= start) throw validationFailed({ end: ["The end must be after the start."] });
    const visit = (await one<{ id: string }>(
      `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at, status, note)
       VALUES ($1, $2, $3, $4, 'scheduled', $5) RETURNING id`,
      [actor.tenantId, job.id, start, end, input.note || null],
      t,
    ))!;
    await setCrew(actor.tenantId, visit.id, crew, t);
    const when = visitWhen(utcToZoned(start, zone), utcToZoned(end, zone));
    const who = crewWords(crew.map((c) => c.name));
    await recordHistory(t, actor, {
      recordType: "job",
      recordId: job.id,
      action: "visit_added",
      summary: `Visit added for ${when}, ${who}`,
      details: { visitId: visit.id, start: start.toISOString(), end: end.toISOString(), crew: crew.map((c) => c.id) },
    });
    await notify(t, actor.tenantId, { type: "job.scheduled", id: job.id });
    return { jobId: job.id, visitId: visit.id, message: `Visit added: ${when}, ${who}.` };
  });
}

/**
 * The visit's crew becomes exactly `crew`: members no longer on it leave, new ones join (a
 * member who stays keeps their place, so the job's first-named technician stays put).
 */
async function setCrew(tenantId: string, visitId: string, crew: Array<{ id: string }>, t: Tx) {
  const ids = crew.map((c) => c.id);
  await rows(
    `DELETE FROM visit_assignees WHERE tenant_id = $1 AND visit_id = $2 AND NOT (user_id = ANY($3::uuid[]))`,
    [tenantId, visitId, ids],
    t,
  );
  if (ids.length)
    await insertSelect(
      `INSERT INTO visit_assignees (tenant_id, visit_id, user_id, created_at)
       SELECT $1, $2, u.id, clock_timestamp() + (u.n * interval '1 microsecond')
         FROM unnest($3::uuid[]) WITH ORDINALITY AS u (id, n)
       ON CONFLICT DO NOTHING`,
      [tenantId, visitId, ids],
      t,
    );
}

type LockedVisit = {
  id: string;
  job_id: string;
  starts_at: Date;
  ends_at: Date | null;
  status: string;
  title: string;
  job_status: string;
  crew: string[];
  worked: boolean;
};

/** The visit and its job, locked (job first, as every job command locks it); 404 when not the tenant's. */
async function lockVisit(actor: Actor, visitId: string, t: Tx): Promise<LockedVisit> {
  const found = isUuid(visitId)
    ? await one<{ job_id: string }>(
        `SELECT job_id FROM visits WHERE tenant_id = $1 AND id = $2`,
        [actor.tenantId, visitId],
        t,
      )
    : null;
  if (!found) throw notFound("Visit not found.");
  await lockJob(actor, found.job_id, t);
  const visit = await one<LockedVisit>(
    `SELECT v.id, v.job_id, v.starts_at, v.ends_at, v.status, j.title, j.status AS job_status,
            ARRAY(SELECT a.user_id FROM visit_assignees a WHERE a.tenant_id = $1 AND a.visit_id = v.id
                   ORDER BY a.created_at, a.user_id) AS crew,
            EXISTS (SELECT 1 FROM time_entries e WHERE e.tenant_id = $1 AND e.visit_id = v.id) AS worked
       FROM visits v JOIN jobs j ON j.tenant_id = $1 AND j.id = v.job_id
      WHERE v.tenant_id = $1 AND v.id = $2
        FOR UPDATE OF v`,
    [actor.tenantId, visitId],
    t,
  );
  if (!visit) throw notFound("Visit not found.");
  return visit;
}

export type VisitMoveResult = { visitId: string; jobId: string; changed: boolean; message: string };

/**
 * POST /visits/<id>/schedule: a visit's time and crew, or (all empty) the visit taken off the
 * schedule, which removes it when nothing happened on it yet (still scheduled, no time logged)
 * and is refused (409) otherwise. A completed or cancelled visit, or a visit of a cancelled job,
 * does not move (409).
 */
export async function scheduleVisit(
  actor: Actor,
  visitId: string,
  input: VisitScheduleInput,
): Promise<VisitMoveResult> {
  await assertManagesVisit(actor, visitId);
  return inTenant(actor.tenantId, async (t) => {
    const visit = await lockVisit(actor, visitId, t);
    const title = visit.title;
    if (visit.job_status === "cancelled") throw conflict(`“${title}” is cancelled. Reopen it before scheduling it.`);
    if (visit.status === "completed")
      throw conflict(`This visit of “${title}” is completed; it can no longer be moved.`);
    if (visit.status === "cancelled") throw conflict(`This visit of “${title}” is cancelled; add a new visit instead.`);
    const zone = await tenantTimeZone(actor.tenantId, t);
    const was = visitWhen(utcToZoned(visit.starts_at, zone), visit.ends_at ? utcToZoned(visit.ends_at, zone) : null);

    if (!input.start && !input.end) {
      if (visit.status !== "scheduled")
        throw conflict(`This visit of “${title}” is under way; move it to another time instead of unscheduling it.`);
      if (visit.worked)
        throw conflict(`Time was recorded on this visit of “${title}”; move it to another time instead.`);
      await rows(`DELETE FROM visits WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, visit.id], t);
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: visit.job_id,
        action: "visit_removed",
        summary: `Visit of ${was} taken off the schedule`,
        details: { visitId: visit.id },
      });
      await notify(t, actor.tenantId, { type: "job.scheduled", id: visit.job_id });
      return {
        visitId: visit.id,
        jobId: visit.job_id,
        changed: true,
        message: `The visit of “${title}” on ${was} is unscheduled.`,
      };
    }

    const crew = await crewOf(actor.tenantId, input.assigneeIds, t);
    const start = zonedToUtc(input.start!, zone);
    const end = zonedToUtc(input.end!, zone);
    if (end <= start) throw validationFailed({ end: ["The end must be after the start."] });
    const sameTime = visit.starts_at.getTime() === start.getTime() && visit.ends_at?.getTime() === end.getTime();
    const sameCrew = crew.length === visit.crew.length && crew.every((c) => visit.crew.includes(c.id));
    if (!sameTime)
      await rows(
        `UPDATE visits SET starts_at = $3, ends_at = $4, sequence = sequence + 1, updated_at = now()
          WHERE tenant_id = $1 AND id = $2`,
        [actor.tenantId, visit.id, start, end],
        t,
      );
    if (!sameCrew) {
      await setCrew(actor.tenantId, visit.id, crew, t);
      // A new crew is news for the calendar feeds too.
      if (sameTime)
        await rows(
          `UPDATE visits SET sequence = sequence + 1, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
          [actor.tenantId, visit.id],
          t,
        );
    }
    const when = visitWhen(utcToZoned(start, zone), utcToZoned(end, zone));
    const who = crewWords(crew.map((c) => c.name));
    const changed = !sameTime || !sameCrew;
    if (changed) {
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: visit.job_id,
        action: "scheduled",
        summary: `Moved to ${when}, ${who}`,
        details: { visitId: visit.id, start: start.toISOString(), end: end.toISOString(), crew: crew.map((c) => c.id) },
      });
      await notify(t, actor.tenantId, { type: "job.scheduled", id: visit.job_id });
    }
    return { visitId: visit.id, jobId: visit.job_id, changed, message: `“${title}” is booked ${when}, ${who}.` };
  });
}

/** The card form's visit: its job, its time as wall clock and its crew, and the team to choose from. */
export async function visitScheduleChoices(actor: Actor, visitId: string, timeZone: string) {
  await assertManagesVisit(actor, visitId);
  return inTenant(actor.tenantId, async (t) => {
    const visit = isUuid(visitId)
      ? await one<{
          id: string;
          job_id: string;
          title: string;
          status: string;
          customer_name: string;
          address: string | null;
          starts_at: Date;
          ends_at: Date | null;
          crew: string[];
        }>(
          `SELECT v.id, v.job_id, j.title, v.status, c.name AS customer_name, j.address, v.starts_at, v.ends_at,
                  ARRAY(SELECT a.user_id FROM visit_assignees a WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id
                         ORDER BY a.created_at, a.user_id) AS crew
             FROM visits v JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
             JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
            WHERE v.tenant_id = $1 AND v.id = $2`,
          [actor.tenantId, visitId],
          t,
        )
      : null;
    if (!visit) throw notFound("Visit not found.");
    const members = await rows<{ id: string; name: string; role: string }>(
      `SELECT id, name, role FROM users WHERE tenant_id = $1 ORDER BY (role <> 'technician'), name, id LIMIT 500`,
      [actor.tenantId],
      t,
    );
    return {
      visit: {
        id: visit.id,
        jobId: visit.job_id,
        title: visit.title,
        status: visit.status,
        customerName: visit.customer_name,
        address: visit.address,
      },
      members,
      values: {
        start: utcToZoned(visit.starts_at, timeZone),
        end: visit.ends_at ? utcToZoned(visit.ends_at, timeZone) : "",
        assigneeIds: visit.crew,
      },
    };
  });
}

/** The add-visit form's job and the team to choose its crew from (the office; 404 for another tenant's job). */
export async function addVisitChoices(actor: Actor, jobId: string) {
  await assertManagesJobVisits(actor, jobId);
  const job = isUuid(jobId)
    ? await inTenant(actor.tenantId, (t) =>
        one<{ id: string; title: string; status: string; customer_name: string }>(
          `SELECT j.id, j.title, j.status, c.name AS customer_name
             FROM jobs j JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
            WHERE j.tenant_id = $1 AND j.id = $2`,
          [actor.tenantId, jobId],
          t,
        ),
      )
    : null;
  if (!job) throw notFound("Job not found.");
  return {
    job: { id: job.id, title: job.title, status: job.status, customerName: job.customer_name },
    members: await crewChoices(actor),
  };
}
