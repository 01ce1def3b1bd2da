import { inTenant, insertSelect, one, rows, type Tx } from "../../../db/index";
import { conflict, forbidden, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { recordHistory } from "~/services/history/history.server";
import { tenantTimeZone } from "~/services/jobs/jobs.server";
import { utcToZoned, zonedToUtc } from "~/services/jobs/local-time";
import { isUuid } from "~/utils/crypto.server";
import { formatDateTime } from "~/utils/format";
import { can } from "~/utils/permissions";
import type { VisitEditInput } from "./edit-schema";
import { repeats } from "./repeat";
import { createSeries } from "./series.server";
import {
  addMinutes,
  describeRule,
  floating,
  occurrences,
  placeOccurrence,
  ruleCount,
  withEnd,
} from "./recurrence.server";

// Changing one visit from the office (docs/decisions/316-visit-edit.md): its start, end (several
// days allowed), crew and note, or cancelling it. A completed, cancelled or past visit never
// changes. A visit of a recurring job changes alone ("this visit only") or with the visits after
// it ("this and following"), which splits the series at this visit so the visits made later by
// the horizon worker follow the change.

type VisitRow = {
  id: string;
  job_id: string;
  job_title: string;
  job_status: string;
  starts_at: Date;
  ends_at: Date | null;
  status: string;
  note: string | null;
  series_id: string | null;
  occurrence: string | null;
  crew: string[];
};

/**
 * The visit, if the actor may see it: another tenant's id is "not found" like a missing one, and
 * so is a visit a technician is not on the crew of. `lock` locks the row for this transaction.
 */
async function findVisit(actor: Actor, visitId: string, t: Tx, lock = false): Promise<VisitRow> {
  const visit = isUuid(visitId)
    ? await one<VisitRow>(
        `SELECT v.id, v.job_id, j.title AS job_title, j.status AS job_status, v.starts_at, v.ends_at, v.status, v.note,
                v.series_id, to_char(v.occurrence, 'YYYY-MM-DD"T"HH24:MI') AS occurrence,
                coalesce((SELECT array_agg(a.user_id::text ORDER BY a.created_at, a.user_id) FROM visit_assignees a
                           WHERE a.tenant_id = $1 AND a.visit_id = v.id), '{}') AS crew
           FROM visits v JOIN jobs j ON j.tenant_id = $1 AND j.id = v.job_id
          WHERE v.tenant_id = $1 AND v.id = $2${lock ? " FOR UPDATE OF v" : ""}`,
        [actor.tenantId, visitId],
        t,
      )
    : undefined;
  if (!visit) throw notFound("Visit not found.");
  if (!can(actor.role, "manage_records")) {
    if (!visit.crew.includes(actor.userId)) throw notFound("Visit not found.");
    throw forbidden("Your role cannot change visits.");
  }
  return visit;
}

/** Why a visit can no longer change, or null. */
function lockedReason(v: Pick<VisitRow, "status" | "starts_at">, now: Date): string | null {
  if (v.status === "completed") return "This visit is completed; it can no longer change.";
  if (v.status === "cancelled") return "This visit is cancelled; it can no longer change.";
  if (new Date(v.starts_at) < now) return "This visit is in the past; it can no longer change.";
  return null;
}

/** The edit page's data: the visit as wall clock in the tenant's zone, the team, the series. */
export async function visitEditData(actor: Actor, visitId: string, now = new Date()) {
  return inTenant(actor.tenantId, async (t) => {
    const v = await findVisit(actor, visitId, t);
    const zone = await tenantTimeZone(actor.tenantId, t);
    const members = await rows<{ id: string; name: string; role: string }>(
      `SELECT id, name, role FROM users WHERE tenant_id = $1 ORDER BY name, id LIMIT 500`,
      [actor.tenantId],
      t,
    );
    const series = v.series_id
      ? await one<{ rule: string; first_local: string }>(
          `SELECT rule, to_char(first_local, 'YYYY-MM-DD"T"HH24:MI') AS first_local FROM visit_series WHERE tenant_id = $1 AND id = $2`,
          [actor.tenantId, v.series_id],
          t,
        )
      : undefined;
    const end = v.ends_at ?? new Date(new Date(v.starts_at).getTime() + 3600_000);
    return {
      visit: {
        id: v.id,
        jobId: v.job_id,
        jobTitle: v.job_title,
        status: v.status,
        startsAt: new Date(v.starts_at).toISOString(),
        endsAt: end.toISOString(),
      },
      values: {
        start: utcToZoned(v.starts_at, zone),
        end: utcToZoned(end, zone),
        assigneeIds: v.crew,
        note: v.note ?? "",
        scope: "this",
      },
      locked: lockedReason(v, now),
      series: series ? describeRule({ rule: series.rule, firstLocal: series.first_local }) : null,
      members,
      timeZone: zone,
    };
  });
}

async function assertMembers(tenantId: string, ids: string[], t: Tx) {
  if (!ids.length) return;
  const found = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM users WHERE tenant_id = $1 AND id = ANY ($2::uuid[])`,
    [tenantId, ids],
    t,
  );
  if ((found?.n ?? 0) !== ids.length) throw validationFailed({ assigneeIds: ["Choose members of your team."] });
}

/** Replaces a visit's crew (those staying keep their place). */
async function setCrew(tenantId: string, visitIds: string[], crew: string[], t: Tx) {
  if (!visitIds.length) return;
  await rows(
    `DELETE FROM visit_assignees WHERE tenant_id = $1 AND visit_id = ANY ($2::uuid[]) AND NOT (user_id = ANY ($3::uuid[]))`,
    [tenantId, visitIds, crew],
    t,
  );
  await insertSelect(
    `INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
     SELECT $1, v, u FROM unnest($2::uuid[]) v CROSS JOIN unnest($3::uuid[]) u ON CONFLICT DO NOTHING`,
    [tenantId, visitIds, crew],
    t,
  );
}

type SeriesRow = {
  id: string;
  job_id: string;
  rule: string;
  first_local: string;
  time_zone: string;
  duration_minutes: number;
  crew: string[];
  open_ended: boolean;
  made_until: string;
};

async function lockSeries(tenantId: string, seriesId: string, t: Tx): Promise<SeriesRow> {
  const s = await one<SeriesRow>(
    `SELECT id, job_id, rule, to_char(first_local, 'YYYY-MM-DD"T"HH24:MI') AS first_local, time_zone, duration_minutes,
            crew::text[] AS crew, open_ended, to_char(made_until, 'YYYY-MM-DD"T"HH24:MI') AS made_until
       FROM visit_series WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
    [tenantId, seriesId],
    t,
  );
  if (!s) throw notFound("Visit not found.");
  return s;
}

const ts = (local: string) => `${local.replace("T", " ")}:00`;

/**
 * Ends a series just before `occurrence` (its visits from there on are the caller's to move or
 * cancel): its rule gets an UNTIL, it is no longer open-ended, and it is made no further.
 */
async function endSeriesBefore(tenantId: string, s: SeriesRow, occurrence: string, t: Tx) {
  const until = addMinutes(occurrence, -1);
  await rows(
    `UPDATE visit_series SET rule = $3, open_ended = false, made_until = LEAST(made_until, $4::timestamp), updated_at = now()
      WHERE tenant_id = $1 AND id = $2`,
    [tenantId, s.id, withEnd(s.rule, { until }), ts(until)],
    t,
  );
}

/** The open visits of a series from `occurrence` on that may still change (not started, not past). */
async function followingVisits(tenantId: string, seriesId: string, occurrence: string, now: Date, t: Tx) {
  return rows<{ id: string; occurrence: string; status: string }>(
    `SELECT id, to_char(occurrence, 'YYYY-MM-DD"T"HH24:MI') AS occurrence, status FROM visits
      WHERE tenant_id = $1 AND series_id = $2 AND occurrence >= $3::timestamp
        AND status IN ('scheduled', 'cancelled') AND starts_at >= $4
      ORDER BY occurrence FOR UPDATE`,
    [tenantId, seriesId, ts(occurrence), now.toISOString()],
    t,
  );
}

const minutesBetween = (a: string, b: string) => (floating(b).getTime() - floating(a).getTime()) / 60_000;

/**
 * Saves or cancels a visit. Answers the job's id (the page goes back to the job).
 * `now` decides what is past (a test may pass its own).
 */
export async function editVisit(
  actor: Actor,
  visitId: string,
  input: VisitEditInput,
  now = new Date(),
): Promise<{ jobId: string; changed: number; cancelled: boolean }> {
  return inTenant(actor.tenantId, async (t) => {
    const v = await findVisit(actor, visitId, t, true);
    const reason = lockedReason(v, now);
    if (reason) throw conflict(reason);
    if (v.job_status === "cancelled") throw conflict("This job is cancelled. Reopen it before changing its visits.");
    const zone = await tenantTimeZone(actor.tenantId, t);
    const following = input.scope === "following" && v.series_id && v.occurrence;
    const when = formatDateTime(v.starts_at, zone);

    if (input.intent === "cancel") {
      let ids = [v.id];
      if (following) {
        const s = await lockSeries(actor.tenantId, v.series_id!, t);
        ids = (await followingVisits(actor.tenantId, s.id, v.occurrence!, now, t))
          .filter((f) => f.status === "scheduled")
          .map((f) => f.id);
        if (!ids.includes(v.id)) ids.push(v.id);
        await endSeriesBefore(actor.tenantId, s, v.occurrence!, t);
      }
      await rows(
        `UPDATE visits SET status = 'cancelled', sequence = sequence + 1, updated_at = now()
          WHERE tenant_id = $1 AND id = ANY ($2::uuid[]) AND status IN ('scheduled', 'en_route')`,
        [actor.tenantId, ids],
        t,
      );
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: v.job_id,
        action: "visit_cancelled",
        summary: following
          ? `Visit of ${when} and the ${ids.length - 1} after it cancelled; the job no longer repeats after them`
          : `Visit of ${when} cancelled`,
      });
      return { jobId: v.job_id, changed: ids.length, cancelled: true };
    }

    const crew = [...new Set(input.assigneeIds ?? [])];
    await assertMembers(actor.tenantId, crew, t);
    const start = zonedToUtc(input.start!, zone);
    const end = zonedToUtc(input.end!, zone);
    if (end <= start) throw validationFailed({ end: ["The end must be after the start."] });
    if (start < now) throw validationFailed({ start: ["Choose a time that has not passed yet."] });
    const note = input.note?.trim() || null;

    if (!following) {
      await rows(
        `UPDATE visits SET starts_at = $3, ends_at = $4, note = $5, sequence = sequence + 1, updated_at = now()
          WHERE tenant_id = $1 AND id = $2`,
        [actor.tenantId, v.id, start.toISOString(), end.toISOString(), note],
        t,
      );
      await setCrew(actor.tenantId, [v.id], crew, t);
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: v.job_id,
        action: "visit_changed",
        summary: `Visit of ${when} changed to ${formatDateTime(start, zone)}`,
      });
      return { jobId: v.job_id, changed: 1, cancelled: false };
    }

    if (repeats(input)) return changeRule(actor, v, input, { zone, when, crew, note, now }, t);

    // This and following: the day stays, the time of day, length and crew carry to the later visits.
    const oldLocal = utcToZoned(v.starts_at, zone);
    if (input.start!.slice(0, 10) !== oldLocal.slice(0, 10))
      throw validationFailed({
        start: [
          "With “this and following visits” only the time can change. To move this visit to another day, choose “this visit only”.",
        ],
      });
    const s = await lockSeries(actor.tenantId, v.series_id!, t);
    const time = input.start!.slice(11, 16);
    const duration = minutesBetween(input.start!, input.end!);
    if (duration > 44_640) throw validationFailed({ end: ["A visit of a recurring job lasts at most 31 days."] });
    const occurrence = v.occurrence!;
    const newFirst = `${occurrence.slice(0, 10)}T${time}`;
    // The series from this visit on: the same days, the new time; an end by count keeps the
    // number of visits still to come.
    const count = ruleCount(s.rule);
    const before = count
      ? occurrences({ rule: s.rule, firstLocal: s.first_local }, { until: addMinutes(occurrence, -1) }).length
      : 0;
    const rule = count ? withEnd(s.rule, { count: Math.max(1, count - before) }) : s.rule;
    const made = await one<{ id: string }>(
      `INSERT INTO visit_series (tenant_id, job_id, rule, first_local, time_zone, duration_minutes, crew, open_ended, made_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8, GREATEST($9::timestamp, $4::timestamp)) RETURNING id`,
      [actor.tenantId, s.job_id, rule, ts(newFirst), s.time_zone, duration, crew, s.open_ended, ts(s.made_until)],
      t,
    );
    const later = await followingVisits(actor.tenantId, s.id, occurrence, now, t);
    await endSeriesBefore(actor.tenantId, s, occurrence, t);
    const moved = later.map((f) => {
      const local = `${f.occurrence.slice(0, 10)}T${time}`;
      return { id: f.id, local, ...placeOccurrence(local, duration, s.time_zone) };
    });
    if (!moved.some((m) => m.id === v.id))
      moved.push({ id: v.id, local: newFirst, ...placeOccurrence(newFirst, duration, s.time_zone) });
    await rows(
      `UPDATE visits v SET series_id = $2, occurrence = x.occurrence, starts_at = x.starts_at, ends_at = x.ends_at,
              sequence = v.sequence + 1, updated_at = now()
         FROM unnest($3::uuid[], $4::timestamp[], $5::timestamptz[], $6::timestamptz[]) AS x(id, occurrence, starts_at, ends_at)
        WHERE v.tenant_id = $1 AND v.id = x.id`,
      [
        actor.tenantId,
        made!.id,
        moved.map((m) => m.id),
        moved.map((m) => ts(m.local)),
        moved.map((m) => m.start.toISOString()),
        moved.map((m) => m.end.toISOString()),
      ],
      t,
    );
    await rows(`UPDATE visits SET note = $3 WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, v.id, note], t);
    await setCrew(
      actor.tenantId,
      later.filter((f) => f.status === "scheduled").map((f) => f.id),
      crew,
      t,
    );
    await setCrew(actor.tenantId, [v.id], crew, t);
    await recordHistory(t, actor, {
      recordType: "job",
      recordId: v.job_id,
      action: "visit_changed",
      summary: `Visit of ${when} and the ${moved.length - 1} after it moved to ${time}`,
    });
    return { jobId: v.job_id, changed: moved.length, cancelled: false };
  });
}

/**
 * "This and following" with a new rule: the series ends before this visit; this visit and the
 * later ones that nothing happened on (not started, not past, no time logged, not invoiced) give
 * way to a new series of the new rule whose first visit is the form's start (any day), with the
 * form's length and crew. Past, started and completed visits stay as they are.
 */
async function changeRule(
  actor: Actor,
  v: VisitRow,
  input: VisitEditInput,
  ctx: { zone: string; when: string; crew: string[]; note: string | null; now: Date },
  t: Tx,
): Promise<{ jobId: string; changed: number; cancelled: boolean }> {
  const s = await lockSeries(actor.tenantId, v.series_id!, t);
  const later = await followingVisits(actor.tenantId, s.id, v.occurrence!, ctx.now, t);
  await endSeriesBefore(actor.tenantId, s, v.occurrence!, t);
  const replaced = await rows<{ id: string }>(
    `DELETE FROM visits x WHERE x.tenant_id = $1 AND x.id = ANY ($2::uuid[]) AND x.status IN ('scheduled', 'cancelled')
        AND NOT EXISTS (SELECT 1 FROM time_entries e WHERE e.tenant_id = x.tenant_id AND e.visit_id = x.id)
        AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.tenant_id = x.tenant_id AND i.visit_id = x.id)
      RETURNING x.id`,
    [actor.tenantId, [...new Set([v.id, ...later.map((f) => f.id)])]],
    t,
  );
  const made = await createSeries(
    actor,
    { id: v.job_id },
    { ...input, scheduledStart: input.start, scheduledEnd: input.end, crew: ctx.crew },
    s.time_zone,
    t,
    ctx.now,
  );
  if (ctx.note)
    await rows(
      `UPDATE visits SET note = $3 WHERE tenant_id = $1 AND series_id = $2 AND occurrence = $4::timestamp`,
      [actor.tenantId, made.seriesId, ctx.note, ts(input.start!)],
      t,
    );
  await recordHistory(t, actor, {
    recordType: "job",
    recordId: v.job_id,
    action: "visit_changed",
    summary: `Visit of ${ctx.when} and the ${replaced.length - 1} after it replaced by ${made.visits} visit${made.visits === 1 ? "" : "s"} of the new rule`,
  });
  return { jobId: v.job_id, changed: made.visits, cancelled: false };
}
