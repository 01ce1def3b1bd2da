import { z } from "zod";
import { epochMs, inTenant, preparedRows, rows } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { can, recordScope } from "~/utils/permissions";
import { utcToZoned, zonedToday, zonedToUtc } from "~/services/jobs/local-time";
import { addDays, isLocalDate, weekStart } from "./days";
import { outsideWindow, type PreferredWindow } from "./windows";
import { BOARD_VIEWS, MAX_JOB_MINUTES, type BoardView } from "./schemas";

export const boardParamsSchema = z.object({
  view: z.enum(BOARD_VIEWS).catch("day"),
  date: z.string().refine(isLocalDate).optional().catch(undefined),
});

/**
 * A card of the board: a visit (placed in the row of each member of its crew), or on the
 * unscheduled list a job that has no visit yet.
 */
export type BoardJob = {
  /** The visit's id; absent for a job on the unscheduled list (the card's key is then the job's id). */
  visitId?: string;
  jobId: string;
  title: string;
  status: string;
  customerName: string;
  address?: string;
  /** The crew's user ids (first-named first); empty = unassigned. */
  crew: string[];
  /** Wall clock in the tenant's zone, "YYYY-MM-DDTHH:MM"; absent for an unscheduled job. */
  start?: string;
  end?: string;
  /** What the customer asked for in the booking request the job came from (directly or through its quote). */
  preferred?: PreferredWindow;
  /** Why the time is outside what the customer asked for in their booking request, if it is. */
  outsideWindow?: string;
  /** The job's running clock: "On site since 9:12 AM" on the card. */
  clock?: { startedAt: string; onSiteAt: string | null };
  /** An unscheduled job's booking length when dropped on the board (its quote's labour hours), in minutes. */
  minutes?: number;
};

/** A row of the board; `nameOnly`: a technician's crewmate, named on their cards but given no row. */
export type BoardMember = { id: string; name: string; role: string; nameOnly?: boolean };

export type Board = {
  view: BoardView;
  date: string;
  today: string;
  days: string[];
  prev: string;
  next: string;
  timeZone: string;
  /** One row each, in order (technicians first); a visit's crew names come from here too. */
  members: BoardMember[];
  /** The window's visits, each once (the page places a crew visit in each member's row). */
  visits: BoardJob[];
  unscheduled: BoardJob[];
  unscheduledTotal: number;
  /** Whether this member may move jobs (manage_records): the board is read-only otherwise. */
  canMove: boolean;
  ownOnly: boolean;
};

/** At most this many unscheduled jobs are listed beside the board (the oldest waiting first). */
export const UNSCHEDULED_LIMIT = 100;
/**
 * A job's labour on its quote, in minutes: the quantities of the lines the customer chose (else
 * every line always included and the first option) whose description names labour
 * ("Labour, plumbing (person-hours)", "Installation labor"), at most a week.
 */
const LABOUR_MINUTES = `(SELECT nullif(least(coalesce(round(sum(qi.quantity) * 60), 0), ${MAX_JOB_MINUTES}), 0)::int
    FROM quote_items qi
   WHERE j.quote_id IS NOT NULL AND qi.tenant_id = j.tenant_id AND qi.quote_id = j.quote_id
     AND qi.description ~* '(^|[^a-z])labou?r([^a-z]|$)'
     AND CASE WHEN EXISTS (SELECT 1 FROM quote_items s WHERE s.tenant_id = qi.tenant_id AND s.quote_id = qi.quote_id AND s.selected IS NOT NULL)
              THEN coalesce(qi.selected, false)
              ELSE NOT qi.optional AND (qi.option_name IS NULL OR qi.option_name = (
                     SELECT f.option_name FROM quote_items f
                      WHERE f.tenant_id = qi.tenant_id AND f.quote_id = qi.quote_id AND f.option_name IS NOT NULL
                      ORDER BY f.position LIMIT 1)) END)`;
/** A visit without an end is drawn one hour long. */
const DEFAULT_MINUTES = 60;

type CardRow = {
  id: string;
  visit_id: string | null;
  job_id: string;
  title: string;
  status: string;
  customer_name: string;
  address: string | null;
  /** The crew's user ids joined by commas, first-named first ("" for none). */
  crew: string;
  /** Milliseconds since the epoch (a number to the driver, not a timestamp it parses into a Date). */
  starts_at: number | null;
  ends_at: number | null;
  preferred_date: string | null;
  time_window: PreferredWindow["timeWindow"] | null;
  clock_started_at: number | null;
  clock_on_site_at: number | null;
  labour_minutes: number | null;
};

// The board's reads are set-based (a window of visits joined to their jobs and customers, and
// the team), so they are SQL; the address falls back to the customer's, as on the field app.
// The preferred window is the booking request's that made the job (booking_requests.job_id) or
// made the quote the job came from (booking_requests.quote_id = jobs.quote_id); each link is
// unique per tenant, so the joins add no rows. The week's hundreds of starts and ends come as
// epoch milliseconds (epochMs) and reach the page as wall-clock times in the viewer's zone.
const JOB_COLUMNS = `j.title, c.name AS customer_name,
  coalesce(j.address, nullif(concat_ws(', ', c.address_line1, c.city, c.region), '')) AS address,
  coalesce(rj.preferred_date, rq.preferred_date)::text AS preferred_date, coalesce(rj.time_window, rq.time_window) AS time_window,
  ${epochMs("k.started_at")} AS clock_started_at, ${epochMs("k.on_site_at")} AS clock_on_site_at`;
// The job's first clock is one lookup a card (a lateral join), not one per column.
const JOB_FROM = `JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
  LEFT JOIN booking_requests rj ON rj.tenant_id = j.tenant_id AND rj.job_id = j.id
  LEFT JOIN booking_requests rq ON rq.tenant_id = j.tenant_id AND rq.quote_id = j.quote_id AND rj.id IS NULL
  LEFT JOIN LATERAL (SELECT k.started_at, k.on_site_at FROM job_clocks k WHERE k.tenant_id = j.tenant_id AND k.job_id = j.id
                      ORDER BY k.started_at LIMIT 1) k ON true`;

/**
 * A week's (or day's) visits as cards, kept in this process with the tenant's board version
 * they were read at: the sum of the tenant's board_changes rows, which every committed write to
 * the tables the visits are read from moves (a statement trigger inserts a row, migration 0391).
 * A view reads the version in its own statement with the waiting jobs and the rows, and uses the
 * kept cards only while it is the same: equal sums in two snapshots mean the same committed
 * writes, as rows are only inserted (and folded into one row of their sum). Each process keeps
 * its own; a few views at a time (the oldest goes first).
 * (docs/decisions/501-the-board-keeps-its-visits-until-a-write.md)
 */
type KeptVisits = { version: string; visits: BoardJob[]; onCrews: string[] };
const keptVisits = new Map<string, KeptVisits>();
const KEPT_VIEWS = 32;
/**
 * The tenant's board version ($1 the tenant): moves with every committed write to visits, their
 * crews, jobs, customers, booking requests and job clocks. The calendar feeds key their kept files on it too.
 */
export const BOARD_VERSION = `(SELECT coalesce(sum(b.amount), 0)::text FROM board_changes b WHERE b.tenant_id = $1)`;

/** Forgets every kept week (tests start from a cold board). */
export function forgetKeptBoards() {
  keptVisits.clear();
}

/**
 * GET /schedule: one row per technician with the day's or week's visits by
 * time in the tenant's zone, and the jobs with no visit yet beside it. A technician sees only
 * their own row, their own visits and their own unscheduled jobs; office and above see everyone
 * (and any other member on a crew in the window, and the visits nobody is assigned to).
 */

/**
 * The jobs waiting for a visit ($1 the tenant, `own` a further condition): the expressions of
 * the jobs_waiting partial index (migration 0370), so the 100 oldest and their count are read
 * from it.
 */
export const waitingJobsWhere = (own = "") =>
  `j.tenant_id = $1 AND coalesce(j.scheduled_start, 'infinity'::timestamptz) = 'infinity'::timestamptz
          AND j.status NOT IN ('completed', 'cancelled') ${own}`;
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
    const key = [
      actor.tenantId,
      view,
      timeZone,
      from.toISOString(),
      to.toISOString(),
      ownOnly ? actor.userId : "",
    ].join("|");
    const kept = keptVisits.get(key);
    const bind: unknown[] = [actor.tenantId, from, to];
    const own = ownOnly
      ? `AND EXISTS (SELECT 1 FROM visit_assignees m WHERE m.tenant_id = v.tenant_id AND m.visit_id = v.id AND m.user_id = $${bind.push(actor.userId)})`
      : "";
    // Visits that start in the window, or started up to a week (the longest visit) before and
    // still run into it: a range of the visits_start index.
    const readVisits = () =>
      rows<CardRow & { version: string }>(
        `SELECT ${BOARD_VERSION} AS version, v.id, v.id AS visit_id, v.job_id, v.status, ${epochMs("v.starts_at")} AS starts_at,
              ${epochMs("v.ends_at")} AS ends_at, ${JOB_COLUMNS},
              coalesce((SELECT string_agg(a.user_id::text, ',' ORDER BY a.created_at, a.user_id) FROM visit_assignees a
                         WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id), '') AS crew,
              NULL::int AS labour_minutes
         FROM visits v JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
         ${JOB_FROM}
        WHERE v.tenant_id = $1 AND v.starts_at < $3 AND v.starts_at >= $2::timestamptz - interval '${MAX_JOB_MINUTES} minutes'
          AND coalesce(v.ends_at, v.starts_at + interval '${DEFAULT_MINUTES} minutes') > $2 ${own}
        ORDER BY v.starts_at, v.id`,
        bind,
        t,
      );
    const crewOf = (r: CardRow) => (r.crew ? r.crew.split(",") : []);
    const me = ownOnly ? "$3" : "";
    // coalesce(...) = 'infinity' is the jobs_schedule_order index's key for "not scheduled":
    // a job's row has no start exactly when it has no visit. Its booking length is its quote's
    // labour hours (docs/decisions/310-visits-on-the-board.md).
    // The oldest waiting jobs are picked through that index first; only those 100 are joined
    // to their customers, requests and quotes (a tenant may have thousands waiting).
    const waitingWhere = waitingJobsWhere(ownOnly ? `AND j.assignee_id = ${me}` : "");
    // Technicians get a row each; anyone else on a crew in the window too. A technician's own
    // board names their crewmates (the card says who else is on it) but shows only their row.
    const [members, membersOrder] = ownOnly
      ? [
          `SELECT id, name, role, id = ${me} AS own FROM users WHERE tenant_id = $1 AND (id = ${me} OR id = ANY($2::uuid[]))`,
          "m.name, m.id",
        ]
      : [
          `SELECT id, name, role, true AS own FROM users WHERE tenant_id = $1 AND (role = 'technician' OR id = ANY($2::uuid[]))`,
          "(m.role <> 'technician'), m.name, m.id",
        ];
    // Everything beside the week's visits in one statement (one round trip, not three): the
    // waiting jobs, their count (read only when the list is full) and the rows, each as JSON
    // (docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md).
    const readBeside = async (onCrews: string[]) =>
      (
        await preparedRows<{
          version: string;
          waiting: CardRow[];
          total: number;
          members: Array<BoardMember & { own: boolean }>;
        }>(
          `WITH w AS (
         SELECT j.id, j.created_at FROM jobs j WHERE ${waitingWhere} ORDER BY j.created_at, j.id LIMIT ${UNSCHEDULED_LIMIT}
       ), cards AS (
         SELECT w.created_at, j.id, NULL AS visit_id, j.id AS job_id, j.status, NULL AS starts_at, NULL AS ends_at,
                ${JOB_COLUMNS}, coalesce(j.assignee_id::text, '') AS crew,
                ${LABOUR_MINUTES} AS labour_minutes
           FROM w JOIN jobs j ON j.tenant_id = $1 AND j.id = w.id ${JOB_FROM}
       )
       SELECT ${BOARD_VERSION} AS version,
              (SELECT coalesce(json_agg(to_json(cards) ORDER BY cards.created_at, cards.id), '[]') FROM cards) AS waiting,
              CASE WHEN (SELECT count(*) FROM w) < ${UNSCHEDULED_LIMIT} THEN (SELECT count(*)::int FROM w)
                   ELSE (SELECT count(*)::int FROM jobs j WHERE ${waitingWhere}) END AS total,
              (SELECT coalesce(json_agg(to_json(m) ORDER BY ${membersOrder}), '[]') FROM (${members}) m) AS members`,
          ownOnly ? [actor.tenantId, onCrews, actor.userId] : [actor.tenantId, onCrews],
          t,
        )
      )[0]!;

    // Only what the page draws goes to the browser, and a field that has nothing is left out:
    // the week of a big firm is hundreds of cards, and this is serialised once more into the page.
    const toCard = (r: CardRow): BoardJob => {
      const card: BoardJob = {
        jobId: r.job_id,
        title: r.title,
        status: r.status,
        customerName: r.customer_name,
        crew: crewOf(r),
      };
      if (r.visit_id) card.visitId = r.visit_id;
      // The week's cells are narrow: its cards show no address (the day view and the list do).
      if (r.address && (view !== "week" || !r.visit_id)) card.address = r.address;
      if (r.starts_at !== null) {
        card.start = utcToZoned(r.starts_at, timeZone);
        card.end = utcToZoned(r.ends_at ?? r.starts_at + DEFAULT_MINUTES * 60_000, timeZone);
      }
      if (r.preferred_date || (r.time_window && r.time_window !== "any")) {
        card.preferred = { date: r.preferred_date, timeWindow: r.time_window ?? "any" };
        const outside = outsideWindow(card.start ?? null, card.preferred);
        if (outside) card.outsideWindow = outside;
      }
      if (r.clock_started_at)
        card.clock = {
          startedAt: new Date(r.clock_started_at).toISOString(),
          onSiteAt: r.clock_on_site_at ? new Date(r.clock_on_site_at).toISOString() : null,
        };
      if (r.labour_minutes !== null) card.minutes = r.labour_minutes;
      return card;
    };

    // A kept week is checked by the version read with everything beside it (one statement);
    // else the visits are read with the version they are kept at, then what is beside them.
    const checked = kept ? await readBeside(kept.onCrews) : undefined;
    let beside: NonNullable<typeof checked>;
    let visits: BoardJob[];
    if (kept && checked && checked.version === kept.version) [beside, visits] = [checked, kept.visits];
    else {
      const scheduled = await readVisits();
      visits = scheduled.map(toCard);
      const onCrews = [...new Set(scheduled.flatMap(crewOf))];
      if (scheduled.length > 0) {
        keptVisits.delete(key);
        if (keptVisits.size >= KEPT_VIEWS) keptVisits.delete(keptVisits.keys().next().value!);
        keptVisits.set(key, { version: scheduled[0]!.version, visits, onCrews });
      } else keptVisits.delete(key);
      beside = checked && onCrews.join() === kept!.onCrews.join() ? checked : await readBeside(onCrews);
    }
    const { waiting, total } = beside;

    return {
      view,
      date,
      today,
      days,
      prev: addDays(first, -length),
      next: addDays(first, length),
      timeZone,
      // A technician's board: their row first; crewmates only lend their names.
      members: beside.members
        .sort((a, b) => Number(b.own) - Number(a.own))
        .map((m) => ({ id: m.id, name: m.name, role: m.role, ...(ownOnly && !m.own ? { nameOnly: true } : {}) })),
      visits,
      unscheduled: waiting.map(toCard),
      unscheduledTotal: total,
      canMove: can(actor.role, "manage_records"),
      ownOnly,
    };
  });
}
