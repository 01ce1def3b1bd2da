// Timesheets (docs/decisions/385-timesheets.md): a person's week and the team's, built from
// the time entries the field clock writes (work per visit, travel before "Start work", breaks
// between a stopped and restarted clock) and those the office adds; corrections with a reason
// kept in the history; approval that locks a week; the payroll file.
import { epochMs, inTenant, one, rows, type Tx } from "../../../db/index";
import type { TimeEntryKind, TimeEntryOrigin, TimeEntryState, TimesheetAction } from "../../../db/enums";
import type { Actor } from "~/services/accounts/actor";
import { zonedToUtc, zonedToday, utcToZoned } from "~/services/jobs/local-time";
import { conflict, forbidden, notFound, validationFailed } from "~/utils/app-error";
import { can } from "~/utils/permissions";
import {
  addDays,
  dayBounds,
  localDate,
  overlapping,
  weekDates,
  weekHours,
  weekStartOf,
  type DayHours,
  type OvertimeRules,
  type PaidSpan,
} from "./hours";
import type { AddEntryValue, ChangeEntryValue, WeekActionValue } from "./schemas";
import { MAX_JOB_MINUTES } from "~/services/schedule/schemas";

export type TimesheetSettings = { timeZone: string; weekStartsOn: number; rules: OvertimeRules };

export type TimesheetLine = {
  entryId: string;
  kind: TimeEntryKind;
  start: string;
  end: string;
  minutes: number;
  state: TimeEntryState;
  origin: TimeEntryOrigin;
  note: string | null;
  job: { id: string; title: string } | null;
  visitId: string | null;
  overlaps: boolean;
  /** A pending entry in an approved week: it reached the week after approval. */
  late: boolean;
  /**
   * The whole entry this line is part of (a field clock's entry is two lines, travel then
   * work): a correction changes the entry, so its form starts from these, and only the
   * entry's last line carries it.
   */
  entry: { kind: TimeEntryKind; start: string; end: string };
  lastPart: boolean;
};

type EntryRow = {
  id: string;
  user_id: string;
  kind: TimeEntryKind;
  state: TimeEntryState;
  origin: TimeEntryOrigin;
  started_at: Date;
  ended_at: Date;
  on_site_at: Date | null;
  note: string | null;
  job_id: string | null;
  job_title: string | null;
  visit_id: string | null;
};

const MAX_ENTRY_MS = 24 * 3600_000;

async function settingsOf(tenantId: string, t: Tx): Promise<TimesheetSettings> {
  const row = await one<{
    time_zone: string;
    week_starts_on: number;
    overtime_weekly_minutes: number;
    overtime_daily_minutes: number | null;
  }>(
    `SELECT time_zone, week_starts_on, overtime_weekly_minutes, overtime_daily_minutes FROM tenants WHERE id = $1`,
    [tenantId],
    t,
  );
  if (!row) throw notFound();
  return {
    timeZone: row.time_zone,
    weekStartsOn: row.week_starts_on,
    rules: { weeklyMinutes: row.overtime_weekly_minutes, dailyMinutes: row.overtime_daily_minutes },
  };
}

/** The week asked for (any date in it; today when absent or not a date), as its first day. */
function weekOf(asked: string | null | undefined, s: TimesheetSettings): string {
  const date = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : zonedToday(s.timeZone);
  return weekStartOf(date, s.weekStartsOn);
}

const mayManage = (actor: Actor) => can(actor.role, "manage_timesheets");

/** The person, in the actor's tenant; unknown (404) before any refusal, a colleague's week 403 to a technician. */
async function personFor(actor: Actor, userId: string, t: Tx) {
  const person = /^[0-9a-f-]{36}$/i.test(userId)
    ? await one<{ id: string; name: string; role: string }>(
        `SELECT id, name, role FROM users WHERE tenant_id = $1 AND id = $2`,
        [actor.tenantId, userId],
        t,
      )
    : null;
  if (!person) throw notFound("No such person in your team.");
  if (!mayManage(actor) && person.id !== actor.userId) throw forbidden("You can see only your own timesheet.");
  return person;
}

const ENTRY_COLUMNS = `e.id, e.user_id, e.kind, e.state, e.origin, e.started_at, e.ended_at, e.on_site_at, e.note,
       e.job_id, j.title AS job_title, e.visit_id`;

/** Entries touching [from, to): an entry is at most a day long, so its start is at most a day before. */
async function entriesBetween(tenantId: string, from: number, to: number, t: Tx, userId?: string) {
  return rows<EntryRow>(
    `SELECT ${ENTRY_COLUMNS}
       FROM time_entries e LEFT JOIN jobs j ON j.tenant_id = e.tenant_id AND j.id = e.job_id
      WHERE e.tenant_id = $1 AND e.user_id IS NOT NULL ${userId ? "AND e.user_id = $4" : ""}
        AND e.started_at >= $2::timestamptz - interval '24 hours' AND e.started_at < $3 AND e.ended_at > $2
      ORDER BY e.started_at, e.id`,
    userId ? [tenantId, new Date(from), new Date(to), userId] : [tenantId, new Date(from), new Date(to)],
    t,
  );
}

/** An entry as the timesheet's lines: a field clock's entry is travel until "Start work", then work. */
function linesOf(e: EntryRow, approved: boolean): TimesheetLine[] {
  const base = {
    entryId: e.id,
    state: e.state,
    origin: e.origin,
    note: e.note,
    job: e.job_id ? { id: e.job_id, title: e.job_title ?? "" } : null,
    visitId: e.visit_id,
    overlaps: false,
    late: approved && e.state === "pending" && e.origin === "field",
    entry: { kind: e.kind, start: e.started_at.toISOString(), end: e.ended_at.toISOString() },
  };
  const line = (kind: TimeEntryKind, start: Date, end: Date, lastPart = true): TimesheetLine => ({
    ...base,
    lastPart,
    kind,
    start: start.toISOString(),
    end: end.toISOString(),
    minutes: Math.round((end.getTime() - start.getTime()) / 60_000),
  });
  const onSite = e.on_site_at;
  if (e.kind === "work" && onSite && onSite > e.started_at) {
    const parts = [line("travel", e.started_at, onSite, !(e.ended_at > onSite))];
    if (e.ended_at > onSite) parts.push(line("work", onSite, e.ended_at));
    return parts;
  }
  return [line(e.kind, e.started_at, e.ended_at)];
}

const paidSpans = (lines: readonly TimesheetLine[]) =>
  lines
    .filter((l) => l.kind !== "break" && l.state === "counted")
    .map((l) => ({ start: Date.parse(l.start), end: Date.parse(l.end) }));

export type PersonWeek = Awaited<ReturnType<typeof personWeek>>;

/** GET /timesheets?userId=&week=: one person's week. */
/**
 * The person's visits that run into the week ($3 .. $4): those that start in it, or started up
 * to the longest visit before it ($5, computed by the caller so PostgreSQL can estimate the
 * range). The lower bound keeps the read to a range of the visits_start index (without it, the
 * read ran from the tenant's first visit, or through every visit of the person).
 */
export const PERSON_WEEK_VISITS_SQL = `SELECT v.id, v.starts_at, j.title FROM visits v
   JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id AND a.user_id = $2
   JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
  WHERE v.tenant_id = $1 AND v.starts_at < $4 AND v.starts_at >= $5
    AND coalesce(v.ends_at, v.starts_at) >= $3
  ORDER BY v.starts_at LIMIT 200`;

/** The binds of PERSON_WEEK_VISITS_SQL for a week from `start` to `end` (epoch milliseconds). */
export const personWeekVisitsBind = (tenantId: string, userId: string, start: number, end: number) => [
  tenantId,
  userId,
  new Date(start - 86_400_000),
  new Date(end),
  new Date(start - 86_400_000 - MAX_JOB_MINUTES * 60_000),
];

export async function personWeek(actor: Actor, userId: string, asked?: string | null) {
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const person = await personFor(actor, userId, t);
    const weekStart = weekOf(asked, s);
    const bounds = dayBounds(weekStart, s.timeZone);
    const [entries, approval, history, visits] = await Promise.all([
      entriesBetween(actor.tenantId, bounds[0], bounds[7], t, person.id),
      one<{ approved_at: Date; approved_by_name: string | null }>(
        `SELECT w.approved_at, u.name AS approved_by_name FROM timesheet_weeks w
           LEFT JOIN users u ON u.tenant_id = w.tenant_id AND u.id = w.approved_by
          WHERE w.tenant_id = $1 AND w.user_id = $2 AND w.week_start = $3`,
        [actor.tenantId, person.id, weekStart],
        t,
      ),
      rows<{
        action: TimesheetAction;
        reason: string | null;
        created_at: Date;
        actor_name: string | null;
        before: unknown;
        after: unknown;
      }>(
        `SELECT c.action, c.reason, c.created_at, u.name AS actor_name, c.before, c.after FROM timesheet_changes c
           LEFT JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.actor_id
          WHERE c.tenant_id = $1 AND c.user_id = $2 AND c.week_start = $3 ORDER BY c.created_at DESC, c.id LIMIT 100`,
        [actor.tenantId, person.id, weekStart],
        t,
      ),
      rows<{ id: string; starts_at: Date; title: string }>(
        PERSON_WEEK_VISITS_SQL,
        personWeekVisitsBind(actor.tenantId, person.id, bounds[0], bounds[7]),
        t,
      ),
    ]);
    const approved = !!approval;
    const lines = entries.flatMap((e) => linesOf(e, approved));
    const flagged = overlapping(lines.map((l) => ({ start: Date.parse(l.start), end: Date.parse(l.end) })));
    flagged.forEach((i) => (lines[i].overlaps = true));
    const hours = weekHours(paidSpans(lines), s.rules, weekStart, s.timeZone, bounds);
    const days = hours.days.map((d) => ({
      ...d,
      lines: lines.filter((l) => localDate(l.start, s.timeZone) === d.date),
      breakMinutes: lines
        .filter((l) => l.kind === "break" && localDate(l.start, s.timeZone) === d.date)
        .reduce((n, l) => n + l.minutes, 0),
    }));
    // Lines that began the day before the week and run into it are listed on its first day.
    const listed = new Set(days.flatMap((d) => d.lines));
    days[0].lines.unshift(...lines.filter((l) => !listed.has(l)));
    return {
      person,
      isSelf: person.id === actor.userId,
      mayManage: mayManage(actor),
      timeZone: s.timeZone,
      rules: s.rules,
      weekStart,
      weekEnd: addDays(weekStart, 6),
      previousWeek: addDays(weekStart, -7),
      nextWeek: addDays(weekStart, 7),
      approval: approval
        ? { at: approval.approved_at.toISOString(), by: approval.approved_by_name ?? "someone no longer in the team" }
        : null,
      days,
      totals: {
        paidMinutes: hours.paidMinutes,
        regularMinutes: hours.regularMinutes,
        overtimeMinutes: hours.overtimeMinutes,
        breakMinutes: days.reduce((n, d) => n + d.breakMinutes, 0),
      },
      pending: lines.filter((l) => l.state === "pending"),
      overlapCount: flagged.size,
      history: history.map((h) => ({
        action: h.action,
        reason: h.reason,
        at: h.created_at.toISOString(),
        by: h.actor_name ?? "someone no longer in the team",
        before: h.before as { start?: string; end?: string; kind?: string } | null,
        after: h.after as { start?: string; end?: string; kind?: string } | null,
      })),
      visits: visits.map((v) => ({
        id: v.id,
        label: `${utcToZoned(v.starts_at, s.timeZone).replace("T", " ")} · ${v.title}`,
      })),
    };
  });
}

export type TeamRow = {
  userId: string;
  name: string;
  role: string;
  days: DayHours[];
  paidMinutes: number;
  regularMinutes: number;
  overtimeMinutes: number;
  pendingCount: number;
  approved: boolean;
};

/**
 * The team's week: every person with hours that week, and every technician, with hours per day.
 * One lean query for the whole team (who, what state, paid or not, and the times as epoch
 * milliseconds): no job titles, no Date objects or ISO strings, no timesheet lines. A field
 * clock's travel and work are one contiguous paid span, which weekHours counts exactly as the
 * two lines a person's week shows (it takes time in order and sums it).
 */
async function teamRows(tenantId: string, s: TimesheetSettings, weekStart: string, t: Tx): Promise<TeamRow[]> {
  const bounds = dayBounds(weekStart, s.timeZone);
  // One statement: everyone of the tenant, whether their week is approved, and their entries
  // touching the week (an entry is at most a day long, so it starts at most a day before), each
  // person's from the index of their own entries by start.
  const people = await rows<{
    id: string;
    name: string;
    role: string;
    approved: boolean;
    entries: Array<{ id: string; paid: boolean; pending: boolean; start_ms: number; end_ms: number }> | null;
  }>(
    `SELECT u.id, u.name, u.role,
            EXISTS (SELECT 1 FROM timesheet_weeks w
                     WHERE w.tenant_id = $1 AND w.week_start = $4 AND w.user_id = u.id) AS approved,
            (SELECT json_agg(json_build_object(
                      'id', e.id, 'paid', e.kind <> 'break', 'pending', e.state = 'pending',
                      'start_ms', ${epochMs("e.started_at")}, 'end_ms', ${epochMs("e.ended_at")}))
               FROM time_entries e
              WHERE e.tenant_id = $1 AND e.user_id = u.id
                AND e.started_at >= $2::timestamptz - interval '24 hours' AND e.started_at < $3 AND e.ended_at > $2) AS entries
       FROM users u
      WHERE u.tenant_id = $1
      ORDER BY u.name, u.id`,
    [tenantId, new Date(bounds[0]), new Date(bounds[7]), weekStart],
    t,
  );
  // Anyone with entries in the week has a row; technicians have one in any case.
  return people
    .filter((p) => p.role === "technician" || p.entries)
    .map((p) => {
      const spans: PaidSpan[] = [];
      let pendingCount = 0;
      for (const e of p.entries ?? []) {
        if (e.pending) pendingCount++;
        else if (e.paid) spans.push({ start: Number(e.start_ms), end: Number(e.end_ms) });
      }
      const hours = weekHours(spans, s.rules, weekStart, s.timeZone, bounds);
      return {
        userId: p.id,
        name: p.name,
        role: p.role,
        days: hours.days,
        paidMinutes: hours.paidMinutes,
        regularMinutes: hours.regularMinutes,
        overtimeMinutes: hours.overtimeMinutes,
        pendingCount,
        approved: p.approved,
      };
    });
}

/** GET /timesheets without a person: the team's week (manage_timesheets). */
export async function teamWeek(actor: Actor, asked?: string | null) {
  if (!mayManage(actor)) throw forbidden("Only the office sees the team's timesheets.");
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const weekStart = weekOf(asked, s);
    const team = await teamRows(actor.tenantId, s, weekStart, t);
    return {
      weekStart,
      weekEnd: addDays(weekStart, 6),
      previousWeek: addDays(weekStart, -7),
      nextWeek: addDays(weekStart, 7),
      dates: weekDates(weekStart),
      rules: s.rules,
      team,
      mayExport: can(actor.role, "export_payroll"),
    };
  });
}

/** The payroll file's rows: one per person and day with paid hours, from the team view's figures. */
export async function payrollWeek(actor: Actor, asked?: string | null) {
  if (!can(actor.role, "export_payroll")) throw forbidden("Only an owner or admin exports payroll hours.");
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const weekStart = weekOf(asked, s);
    const team = await teamRows(actor.tenantId, s, weekStart, t);
    const emails = new Map(
      (
        await rows<{ id: string; email: string }>(
          `SELECT id, email FROM users WHERE tenant_id = $1`,
          [actor.tenantId],
          t,
        )
      ).map((u) => [u.id, u.email]),
    );
    return { weekStart, team: team.map((r) => ({ ...r, email: emails.get(r.userId) ?? "" })) };
  });
}

// ---------------------------------------------------------------- changes

async function weekApproved(tenantId: string, userId: string, start: Date, end: Date, t: Tx): Promise<boolean> {
  const row = await one<{ locked: boolean }>(
    `SELECT timesheet_week_locked($1, $2, $3, $4) AS locked`,
    [tenantId, userId, start, end],
    t,
  );
  return !!row?.locked;
}

const LOCKED = "This week is approved and locked. Reopen it to change it.";

type EntryInput = Pick<AddEntryValue, "kind" | "start" | "end" | "visitId">;

/** The entry's instants and job from the form's wall-clock times and visit; 422 beside the field when wrong. */
async function resolveEntry(actor: Actor, userId: string, v: EntryInput, s: TimesheetSettings, t: Tx) {
  const start = zonedToUtc(v.start, s.timeZone);
  const end = zonedToUtc(v.end, s.timeZone);
  if (end <= start) throw validationFailed({ end: ["The end must be after the start."] });
  if (end.getTime() - start.getTime() > MAX_ENTRY_MS)
    throw validationFailed({ end: ["An entry is at most 24 hours; add one per day."] });
  let jobId: string | null = null;
  if (v.visitId) {
    const visit = await one<{ job_id: string }>(
      `SELECT v.job_id FROM visits v JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id AND a.user_id = $3
        WHERE v.tenant_id = $1 AND v.id = $2`,
      [actor.tenantId, v.visitId, userId],
      t,
    );
    if (!visit) throw validationFailed({ visitId: ["Choose one of this person's visits."] });
    jobId = visit.job_id;
  }
  return { start, end, jobId };
}

const snapshot = (e: { kind: string; started_at: Date; ended_at: Date; visit_id: string | null; state?: string }) => ({
  kind: e.kind,
  start: e.started_at.toISOString(),
  end: e.ended_at.toISOString(),
  visitId: e.visit_id,
  ...(e.state ? { state: e.state } : {}),
});

async function logChange(
  t: Tx,
  actor: Actor,
  c: {
    userId: string;
    weekStart: string;
    entryId: string | null;
    action: TimesheetAction;
    reason: string | null;
    before?: unknown;
    after?: unknown;
  },
) {
  await rows(
    `INSERT INTO timesheet_changes (tenant_id, user_id, week_start, entry_id, action, reason, before, after, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9)`,
    [
      actor.tenantId,
      c.userId,
      c.weekStart,
      c.entryId,
      c.action,
      c.reason,
      c.before === undefined ? null : JSON.stringify(c.before),
      c.after === undefined ? null : JSON.stringify(c.after),
      actor.userId,
    ],
    t,
  );
}

/** POST /timesheets/entries. The office adds a counted entry; a technician a pending one for themselves. */
export async function addEntry(actor: Actor, v: AddEntryValue): Promise<{ userId: string; week: string }> {
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const person = await personFor(actor, v.userId, t);
    const { start, end, jobId } = await resolveEntry(actor, person.id, v, s, t);
    if (await weekApproved(actor.tenantId, person.id, start, end, t)) throw conflict(LOCKED);
    const manage = mayManage(actor);
    const state: TimeEntryState = manage ? "counted" : "pending";
    const origin: TimeEntryOrigin = manage ? "office" : "technician";
    const row = await one<{ id: string }>(
      `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, visit_id, kind, state, origin, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [actor.tenantId, jobId, person.id, start, end, v.visitId, v.kind, state, origin, v.reason],
      t,
    );
    const week = weekStartOf(localDate(start, s.timeZone), s.weekStartsOn);
    await logChange(t, actor, {
      userId: person.id,
      weekStart: week,
      entryId: row!.id,
      action: "add",
      reason: v.reason,
      after: snapshot({ kind: v.kind, started_at: start, ended_at: end, visit_id: v.visitId, state }),
    });
    return { userId: person.id, week };
  });
}

/** POST /timesheets/entries/<id>: update, delete, accept or discard (manage_timesheets). */
export async function changeEntry(
  actor: Actor,
  entryId: string,
  v: ChangeEntryValue,
): Promise<{ userId: string; week: string; message: string }> {
  if (!mayManage(actor)) throw forbidden("Only the office corrects timesheets.");
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const entry = /^[0-9a-f-]{36}$/i.test(entryId)
      ? await one<{
          id: string;
          user_id: string | null;
          kind: TimeEntryKind;
          state: TimeEntryState;
          started_at: Date;
          ended_at: Date;
          visit_id: string | null;
          on_site_at: Date | null;
        }>(
          `SELECT id, user_id, kind, state, started_at, ended_at, visit_id, on_site_at FROM time_entries
            WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
          [actor.tenantId, entryId],
          t,
        )
      : null;
    if (!entry || !entry.user_id) throw notFound("No such time entry.");
    const userId = entry.user_id;
    const week = weekStartOf(localDate(entry.started_at, s.timeZone), s.weekStartsOn);
    const locked = await weekApproved(actor.tenantId, userId, entry.started_at, entry.ended_at, t);
    const before = snapshot(entry);
    // Discarding a pending entry and deleting a counted one remove the row alike; the history keeps it.
    const remove = async (action: "discard" | "delete", reason: string, done: string) => {
      await rows(`DELETE FROM time_entries WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, entry.id], t);
      await logChange(t, actor, { userId, weekStart: week, entryId: entry.id, action, reason, before });
      return { userId, week, message: `The entry was ${done}; the history keeps it with your reason.` };
    };
    if (v.intent === "accept" || v.intent === "discard") {
      if (entry.state !== "pending") throw conflict("This entry is not waiting for the office.");
      if (v.intent === "discard") return remove("discard", v.reason, "discarded");
      // Accepting a late entry reopens its approved week: the totals change, so it needs approving again.
      if (locked) {
        const weeks = await rows<{ week_start: string }>(
          // The days are written out of the RETURNING: Citus allows only immutable functions there.
          `WITH gone AS (
             DELETE FROM timesheet_weeks w USING tenants tn
              WHERE w.tenant_id = $1 AND tn.id = $1 AND w.user_id = $2
                AND w.week_start <= ($4::timestamptz AT TIME ZONE tn.time_zone)::date
                AND w.week_start + 7 > ($3::timestamptz AT TIME ZONE tn.time_zone)::date
              RETURNING w.week_start)
           SELECT to_char(week_start, 'YYYY-MM-DD') AS week_start FROM gone`,
          [actor.tenantId, userId, entry.started_at, entry.ended_at],
          t,
        );
        for (const w of weeks)
          await logChange(t, actor, {
            userId,
            weekStart: w.week_start,
            entryId: entry.id,
            action: "reopen",
            reason: "Reopened to count an entry that arrived after approval.",
          });
      }
      await rows(
        `UPDATE time_entries SET state = 'counted', updated_at = now() WHERE tenant_id = $1 AND id = $2`,
        [actor.tenantId, entry.id],
        t,
      );
      await logChange(t, actor, {
        userId,
        weekStart: week,
        entryId: entry.id,
        action: "accept",
        reason: v.reason,
        before,
        after: { ...before, state: "counted" },
      });
      return {
        userId,
        week,
        message: locked
          ? "The entry counts now. Its week was reopened: approve it again when it is right."
          : "The entry counts now.",
      };
    }
    if (locked) throw conflict(LOCKED);
    if (v.intent === "delete") return remove("delete", v.reason, "deleted");
    if (v.userId !== userId)
      throw validationFailed({ userId: ["An entry stays with its person; delete it and add one instead."] });
    const { start, end, jobId } = await resolveEntry(actor, userId, v, s, t);
    if (await weekApproved(actor.tenantId, userId, start, end, t)) throw conflict(LOCKED);
    // The corrected times replace the clock's: a travel part no longer applies unless still within.
    const onSite =
      entry.on_site_at && entry.on_site_at >= start && entry.on_site_at <= end && v.kind === "work"
        ? entry.on_site_at
        : null;
    await rows(
      `UPDATE time_entries SET kind = $3, started_at = $4, ended_at = $5, visit_id = $6,
              job_id = coalesce($7, CASE WHEN $6::uuid IS NULL THEN job_id END), on_site_at = $8, updated_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, entry.id, v.kind, start, end, v.visitId, jobId, onSite],
      t,
    );
    await logChange(t, actor, {
      userId,
      weekStart: week,
      entryId: entry.id,
      action: "update",
      reason: v.reason,
      before,
      after: snapshot({ kind: v.kind, started_at: start, ended_at: end, visit_id: v.visitId }),
    });
    return { userId, week, message: "The entry was changed; the history keeps what it was." };
  });
}

/** POST /timesheets/approve: locks the person's week; pending entries must be settled first. */
export async function approveWeek(actor: Actor, v: WeekActionValue): Promise<{ userId: string; week: string }> {
  if (!mayManage(actor)) throw forbidden("Only the office approves timesheets.");
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const person = await personFor(actor, v.userId, t);
    const week = weekOf(v.week, s);
    const bounds = dayBounds(week, s.timeZone);
    const pending = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM time_entries
        WHERE tenant_id = $1 AND user_id = $2 AND state = 'pending' AND started_at < $4 AND ended_at > $3`,
      [actor.tenantId, person.id, new Date(bounds[0]), new Date(bounds[7])],
      t,
    );
    if (pending && pending.n > 0)
      throw conflict(
        `Accept or discard the ${pending.n === 1 ? "pending entry" : `${pending.n} pending entries`} first.`,
      );
    const inserted = await rows(
      `INSERT INTO timesheet_weeks (tenant_id, user_id, week_start, approved_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING week_start`,
      [actor.tenantId, person.id, week, actor.userId],
      t,
    );
    if (!inserted.length) throw conflict("This week is already approved.");
    await logChange(t, actor, {
      userId: person.id,
      weekStart: week,
      entryId: null,
      action: "approve",
      reason: v.reason,
    });
    return { userId: person.id, week };
  });
}

/** POST /timesheets/reopen: unlocks an approved week. */
export async function reopenWeek(actor: Actor, v: WeekActionValue): Promise<{ userId: string; week: string }> {
  if (!mayManage(actor)) throw forbidden("Only the office reopens timesheets.");
  return inTenant(actor.tenantId, async (t) => {
    const s = await settingsOf(actor.tenantId, t);
    const person = await personFor(actor, v.userId, t);
    const week = weekOf(v.week, s);
    const deleted = await rows(
      `DELETE FROM timesheet_weeks WHERE tenant_id = $1 AND user_id = $2 AND week_start = $3 RETURNING week_start`,
      [actor.tenantId, person.id, week],
      t,
    );
    if (!deleted.length) throw conflict("This week is not approved.");
    await logChange(t, actor, {
      userId: person.id,
      weekStart: week,
      entryId: null,
      action: "reopen",
      reason: v.reason,
    });
    return { userId: person.id, week };
  });
}
