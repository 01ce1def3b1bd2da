import { z } from "zod";
import { inTenant, rows } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { can, recordScope } from "~/utils/permissions";
import { utcToZoned, zonedToday, zonedToUtc } from "~/services/jobs/local-time";
import { addDays, isLocalDate, weekStart } from "./days";
import { markOverlaps } from "./layout";
import { outsideWindow, type PreferredWindow } from "./windows";
import { BOARD_VIEWS, type BoardView } from "./schemas";

export const boardParamsSchema = z.object({
  view: z.enum(BOARD_VIEWS).catch("day"),
  date: z.string().refine(isLocalDate).optional().catch(undefined),
});

export type BoardJob = {
  id: string;
  title: string;
  status: string;
  customerName: string;
  address: string | null;
  assigneeId: string | null;
  /** Wall clock in the tenant's zone, "YYYY-MM-DDTHH:MM"; null for an unscheduled job. */
  start: string | null;
  end: string | null;
  /** Another job of the same technician runs at the same time. */
  overlaps: boolean;
  /** What the customer asked for in the booking request the job came from (directly or through its quote). */
  preferred: PreferredWindow | null;
  /** Why the time is outside what the customer asked for in their booking request, if it is. */
  outsideWindow: string | null;
  /** The job's running clock: "On site since 9:12 AM" on the card. */
  clock: { startedAt: string; onSiteAt: string | null } | null;
};

export type BoardRow = { id: string | null; name: string; role: string | null; jobs: BoardJob[] };

export type Board = {
  view: BoardView;
  date: string;
  today: string;
  days: string[];
  prev: string;
  next: string;
  timeZone: string;
  rows: BoardRow[];
  unscheduled: BoardJob[];
  unscheduledTotal: number;
  /** Whether this member may move jobs (manage_records): the board is read-only otherwise. */
  canMove: boolean;
  ownOnly: boolean;
};

/** At most this many unscheduled jobs are listed beside the board (the oldest waiting first). */
export const UNSCHEDULED_LIMIT = 100;
/** A job without an end is drawn one hour long. */
const DEFAULT_MINUTES = 60;

type JobRow = {
  id: string;
  title: string;
  status: string;
  customer_name: string;
  address: string | null;
  assignee_id: string | null;
  scheduled_start: Date | null;
  scheduled_end: Date | null;
  preferred_date: string | null;
  time_window: PreferredWindow["timeWindow"] | null;
  clock_started_at: Date | null;
  clock_on_site_at: Date | null;
};

// The board's reads are set-based (a window of jobs joined to their customers, and the team),
// so they are SQL; the address falls back to the customer's, as on the field app.
// The preferred window is the booking request's that made the job (booking_requests.job_id) or
// made the quote the job came from (booking_requests.quote_id = jobs.quote_id); each link is
// unique per tenant, so the joins add no rows.
const JOB_COLUMNS = `j.id, j.title, j.status, c.name AS customer_name, j.assignee_id, j.scheduled_start, j.scheduled_end,
  coalesce(j.address, nullif(concat_ws(', ', c.address_line1, c.city, c.region), '')) AS address,
  coalesce(rj.preferred_date, rq.preferred_date)::text AS preferred_date, coalesce(rj.time_window, rq.time_window) AS time_window,
  k.started_at AS clock_started_at, k.on_site_at AS clock_on_site_at`;
const JOB_FROM = `jobs j JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
  LEFT JOIN booking_requests rj ON rj.tenant_id = j.tenant_id AND rj.job_id = j.id
  LEFT JOIN booking_requests rq ON rq.tenant_id = j.tenant_id AND rq.quote_id = j.quote_id AND rj.id IS NULL
  LEFT JOIN LATERAL (
    SELECT k.started_at, k.on_site_at FROM job_clocks k WHERE k.tenant_id = j.tenant_id AND k.job_id = j.id
     ORDER BY k.started_at LIMIT 1) k ON true`;

/**
 * GET /schedule: one row per technician with the day's or week's jobs by
 * time in the tenant's zone, and the unscheduled jobs beside it. A technician sees only their
 * own row and their own unscheduled jobs; office and above see everyone (and any other member
 * who has jobs in the window, and the scheduled jobs nobody is assigned to).
 */
export async function scheduleBoard(
  actor: Actor,
  params: z.infer<typeof boardParamsSchema>,
  timeZone: string,
): Promise<Board> {
  const today = zonedToday(timeZone);
  const date = params.date ?? today;
  const view = params.view;
  const first = view === "week" ? weekStart(date) : date;
  const length = view === "week" ? 7 : 1;
  const days = Array.from({ length }, (_, i) => addDays(first, i));
  const from = zonedToUtc(`${first}T00:00`, timeZone);
  const to = zonedToUtc(`${addDays(first, length)}T00:00`, timeZone);
  const ownOnly = recordScope(actor.role) !== "all";

  return inTenant(actor.tenantId, async (t) => {
    const bind: unknown[] = [actor.tenantId, from, to];
    const own = ownOnly ? `AND j.assignee_id = $${bind.push(actor.userId)}` : "";
    // Jobs that start in the window, or started up to a week before and still run into it.
    const scheduled = await rows<JobRow>(
      `SELECT ${JOB_COLUMNS}
         FROM ${JOB_FROM}
        WHERE j.tenant_id = $1 AND j.scheduled_start < $3 AND j.scheduled_start >= $2::timestamptz - interval '7 days'
          AND coalesce(j.scheduled_end, j.scheduled_start + interval '${DEFAULT_MINUTES} minutes') > $2 ${own}
        ORDER BY j.scheduled_start, j.id`,
      bind,
      t,
    );
    const waitingBind: unknown[] = [actor.tenantId];
    const waitingOwn = ownOnly ? `AND j.assignee_id = $${waitingBind.push(actor.userId)}` : "";
    // coalesce(...) = 'infinity' is the jobs_schedule_order index's key for "not scheduled".
    const waiting = await rows<JobRow & { total: number }>(
      `SELECT ${JOB_COLUMNS}, count(*) OVER ()::int AS total
         FROM ${JOB_FROM}
        WHERE j.tenant_id = $1 AND coalesce(j.scheduled_start, 'infinity'::timestamptz) = 'infinity'
          AND j.status NOT IN ('completed', 'cancelled') ${waitingOwn}
        ORDER BY j.created_at, j.id LIMIT ${UNSCHEDULED_LIMIT}`,
      waitingBind,
      t,
    );
    const members = await rows<{ id: string; name: string; role: string }>(
      ownOnly
        ? `SELECT id, name, role FROM users WHERE tenant_id = $1 AND id = $2`
        : `SELECT id, name, role FROM users WHERE tenant_id = $1 AND (role = 'technician' OR id = ANY($2::uuid[])) ORDER BY (role <> 'technician'), name, id`,
      ownOnly
        ? [actor.tenantId, actor.userId]
        : [actor.tenantId, [...new Set(scheduled.map((j) => j.assignee_id).filter(Boolean))]],
      t,
    );

    const toJob = (r: JobRow): BoardJob => {
      const start = r.scheduled_start ? utcToZoned(r.scheduled_start, timeZone) : null;
      const endAt = r.scheduled_start
        ? (r.scheduled_end ?? new Date(new Date(r.scheduled_start).getTime() + DEFAULT_MINUTES * 60_000))
        : null;
      const asked = r.preferred_date || (r.time_window && r.time_window !== "any");
      const preferred: PreferredWindow | null = asked
        ? { date: r.preferred_date, timeWindow: r.time_window ?? "any" }
        : null;
      return {
        id: r.id,
        title: r.title,
        status: r.status,
        customerName: r.customer_name,
        address: r.address,
        assigneeId: r.assignee_id,
        start,
        end: endAt ? utcToZoned(endAt, timeZone) : null,
        overlaps: false,
        preferred,
        outsideWindow: outsideWindow(start, preferred),
        clock: r.clock_started_at
          ? {
              startedAt: new Date(r.clock_started_at).toISOString(),
              onSiteAt: r.clock_on_site_at ? new Date(r.clock_on_site_at).toISOString() : null,
            }
          : null,
      };
    };
    const byMember = new Map<string | null, BoardJob[]>(members.map((m) => [m.id, []]));
    for (const r of scheduled) {
      const job = toJob(r);
      if (!byMember.has(job.assigneeId)) byMember.set(job.assigneeId, []);
      byMember.get(job.assigneeId)!.push(job);
    }
    const boardRows: BoardRow[] = members.map((m) => ({
      id: m.id,
      name: m.name,
      role: m.role,
      jobs: byMember.get(m.id)!,
    }));
    const unassigned = byMember.get(null);
    if (unassigned?.length) boardRows.push({ id: null, name: "Unassigned", role: null, jobs: unassigned });
    for (const row of boardRows) if (row.id) markOverlaps(row.jobs);

    return {
      view,
      date,
      today,
      days,
      prev: addDays(first, -length),
      next: addDays(first, length),
      timeZone,
      rows: boardRows,
      unscheduled: waiting.map(toJob),
      unscheduledTotal: waiting[0]?.total ?? 0,
      canMove: can(actor.role, "manage_records"),
      ownOnly,
    };
  });
}
