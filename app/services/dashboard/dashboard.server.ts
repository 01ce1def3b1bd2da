import { inTenant, preparedRows } from "../../../db/index";
import { VISITS_TO_INVOICE_SQL } from "~/services/jobs/items.server";
import { formatMoneyTotals } from "~/utils/format";
import { JOB_STATUSES } from "../../../db/enums";

/** The open job states in board order (what "open work by status" draws, zeros included). */
export const OPEN_JOB_STATUSES = JOB_STATUSES.filter((s) => s !== "completed" && s !== "cancelled");

/**
 * The figures the writes keep that the dashboard counts with: the customers (migration 0380), the
 * open jobs by state, the completed jobs not invoiced and the approved quotes not converted
 * (migration 0396), each the sum of a few delta rows.
 */
export const DASHBOARD_KEPT_FIGURES = [
  "customers",
  ...OPEN_JOB_STATUSES.map((s) => `jobs_${s}`),
  "jobs_to_invoice",
  "quotes_to_schedule",
];

/**
 * The dashboard's counts and money figures in one statement ($1 the tenant, $2
 * DASHBOARD_KEPT_FIGURES). The tenant's day is computed once (a materialized CTE, not per row).
 * The customers, the open work and what is owed are figures the writes keep (a few delta rows
 * each, not 50,000 customers, 11,000 open jobs or 12,000 open invoices read on each view), each
 * read once; the quotes awaiting a response are the sent quotes still valid plus those with
 * no valid_until, two ranges of one index (quotes_awaiting) reading only those entries. Under
 * row-level security a condition with coalesce() is never an index condition (PostgreSQL
 * counts it as possibly leaking the row), so none here or in the lists bounds an index (docs/decisions/480-dashboard-counts-kept-or-indexed.md,
 * 515-the-dashboards-counts-all-kept.md).
 */
export const DASHBOARD_COUNTS_SQL = `WITH m AS MATERIALIZED (
   SELECT currency::text AS currency, today, date_trunc('month', today)::date AS this_month, (date_trunc('month', today) - interval '1 month')::date AS last_month,
          (date_trunc('month', today) + interval '1 month')::date AS next_month
     FROM (SELECT currency, (now() AT TIME ZONE time_zone)::date AS today FROM tenants WHERE id = $1) t
 ),
 k AS MATERIALIZED (
   SELECT figure, sum(amount)::bigint AS n FROM summary_deltas WHERE tenant_id = $1 AND figure = ANY ($2::text[]) GROUP BY figure
 ),
 -- What is owed per currency and how many open invoices are overdue, from the delta rows the
 -- invoices' writes keep per due date (a few rows per due date, not one per open invoice).
 b AS MATERIALIZED (
   SELECT currency, coalesce(sum(amount) FILTER (WHERE figure = 'owed'), 0)::bigint AS cents,
          coalesce(sum(amount) FILTER (WHERE figure = 'owed_invoices' AND period < (SELECT today FROM m)), 0)::int AS overdue
     FROM summary_deltas WHERE tenant_id = $1 AND figure IN ('owed', 'owed_invoices') GROUP BY currency
   HAVING sum(amount) FILTER (WHERE figure = 'owed_invoices') <> 0
 )
 SELECT
   (SELECT coalesce(sum(n), 0) FROM k WHERE figure = 'customers')::int AS customers,
   (SELECT json_object_agg(substr(figure, 6), n) FROM k
     WHERE figure NOT IN ('customers', 'jobs_to_invoice', 'quotes_to_schedule')) AS open_by_status,
   ((SELECT count(*) FROM quotes WHERE tenant_id = $1 AND status = 'sent' AND valid_until >= m.today)
    + (SELECT count(*) FROM quotes WHERE tenant_id = $1 AND status = 'sent' AND valid_until IS NULL))::int AS quotes_awaiting,
   (SELECT count(*) FROM booking_requests WHERE tenant_id = $1 AND status = 'new')::int AS new_requests,
   (SELECT coalesce(sum(overdue), 0) FROM b)::int AS overdue_invoices,
   (SELECT coalesce(sum(n), 0) FROM k WHERE figure = 'quotes_to_schedule')::int AS quotes_to_schedule,
   (SELECT coalesce(sum(n), 0) FROM k WHERE figure = 'jobs_to_invoice')::int AS jobs_to_invoice,
   (SELECT json_agg(json_build_object('currency', currency, 'cents', cents) ORDER BY currency) FROM b) AS unpaid,
   m.currency, to_char(m.this_month, 'YYYY-MM') AS this_month, to_char(m.last_month, 'YYYY-MM') AS last_month,
   c.collected_this, c.collected_last
 FROM m, LATERAL (
   SELECT coalesce(sum(amount) FILTER (WHERE period = m.this_month), 0)::bigint AS collected_this,
          coalesce(sum(amount) FILTER (WHERE period = m.last_month), 0)::bigint AS collected_last
     FROM summary_deltas
    WHERE tenant_id = $1 AND figure = 'collected' AND currency = m.currency AND period >= m.last_month AND period < m.next_month
 ) c`;

/**
 * The dashboard: its counts and figures in one query (each an index-backed aggregate within the
 * tenant, in the tenant's time zone). "Quotes awaiting response" counts exactly what
 * /quotes?status=sent lists (sent, not past valid_until); each figure that links to a list
 * counts what that list shows: approved quotes not yet converted (/quotes?status=to_schedule),
 * completed jobs with no invoice (/jobs?status=to_invoice, jobs.invoice_id kept by the database),
 * overdue invoices (/invoices?status=overdue). The customers, the open work and the money figures
 * read the summaries the writes keep (migrations 0260, 0380, 0395, 0396): what is owed and overdue by due date, collected
 * (by the tenant's calendar day the money arrived, in the tenant's currency) this month so far
 * and last month from the delta rows.
 */
export async function dashboardCounts(tenantId: string) {
  return inTenant(tenantId, async (t) => {
    const [r] = await preparedRows<{
      customers: number;
      open_by_status: Record<string, number> | null;
      quotes_awaiting: number;
      new_requests: number;
      overdue_invoices: number;
      quotes_to_schedule: number;
      jobs_to_invoice: number;
      unpaid: Array<{ currency: string; cents: number }> | null;
      currency: string;
      this_month: string;
      last_month: string;
      collected_this: number;
      collected_last: number;
    }>(DASHBOARD_COUNTS_SQL, [tenantId, DASHBOARD_KEPT_FIGURES], t);
    const byStatus = OPEN_JOB_STATUSES.map((status) => ({ status, count: r!.open_by_status?.[status] ?? 0 }));
    return {
      customers: r!.customers,
      openJobs: byStatus.reduce((sum, s) => sum + s.count, 0),
      unscheduledJobs: r!.open_by_status?.unscheduled ?? 0,
      openByStatus: byStatus,
      quotesAwaiting: r!.quotes_awaiting,
      newRequests: r!.new_requests,
      overdueInvoices: r!.overdue_invoices,
      quotesToSchedule: r!.quotes_to_schedule,
      jobsToInvoice: r!.jobs_to_invoice,
      unpaidTotal: formatMoneyTotals(r!.unpaid ?? []),
      collected: {
        currency: r!.currency,
        thisMonth: { month: r!.this_month, cents: Number(r!.collected_this) },
        lastMonth: { month: r!.last_month, cents: Number(r!.collected_last) },
      },
    };
  });
}

type Lists = {
  inTheField: Array<{
    id: string;
    title: string;
    status: string;
    customer_name: string;
    assignee_name: string | null;
    started_at: string;
    on_site_at: string | null;
  }>;
  upcomingJobs: Array<{
    id: string;
    title: string;
    status: string;
    scheduled_start: string;
    customer_name: string;
    assignee_name: string | null;
  }>;
  newRequests: Array<{
    id: string;
    service: string;
    preferred_date: string | null;
    created_at: string;
    customer_name: string;
  }>;
  changeRequests: Array<{
    id: string;
    quote_id: string;
    quote_number: string;
    message: string;
    created_at: string;
    customer_name: string;
  }>;
  visitsToBill: Array<{ id: string; job_id: string; title: string; starts_at: string; customer: string }>;
};

/** The job states that are not next on the schedule: done, cancelled, or waiting to be scheduled. */
const NOT_UPCOMING = "('completed', 'cancelled', 'unscheduled')";

/**
 * The dashboard's lists in one statement ($1 the tenant, $2 how many visits to invoice): each
 * list a JSON array, so the page pays one round trip and one transaction for all of them.
 */
export const DASHBOARD_LISTS_SQL = `SELECT
  -- Who is on the way or on site now: the jobs with a running clock, longest first.
  (SELECT coalesce(json_agg(x ORDER BY x.started_at, x.id), '[]') FROM (
     SELECT j.id, j.title, j.status, c.name AS customer_name, u.name AS assignee_name, k.started_at, k.on_site_at
       FROM job_clocks k
       JOIN jobs j ON j.tenant_id = k.tenant_id AND j.id = k.job_id
       JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
       LEFT JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
      WHERE k.tenant_id = $1
      ORDER BY k.started_at, j.id LIMIT 20) x) AS "inTheField",
  -- The next open jobs on the schedule: from today on, then those with no start. Two bounded
  -- reads (scheduled_start from today in jobs_schedule_window; the few open jobs with no start
  -- but not unscheduled in jobs_open_unstarted): under row-level security a coalesce() in the
  -- condition is not an index condition, and the one ordered read went through every past job.
  (SELECT coalesce(json_agg(x ORDER BY x.o, x.id), '[]') FROM (
     SELECT j.id, j.title, j.status, j.scheduled_start, c.name AS customer_name, u.name AS assignee_name,
            coalesce(j.scheduled_start, 'infinity'::timestamptz) AS o
       FROM (
         (SELECT j.* FROM jobs j
           WHERE j.tenant_id = $1 AND j.status NOT IN ${NOT_UPCOMING}
             AND j.scheduled_start >= date_trunc('day', now())
           ORDER BY j.scheduled_start, j.id LIMIT 6)
         UNION ALL
         (SELECT j.* FROM jobs j
           WHERE j.tenant_id = $1 AND j.status NOT IN ${NOT_UPCOMING} AND j.scheduled_start IS NULL
           ORDER BY j.id LIMIT 6)
       ) j
       JOIN customers c ON c.tenant_id = $1 AND c.id = j.customer_id
       LEFT JOIN users u ON u.tenant_id = $1 AND u.id = j.assignee_id
      ORDER BY coalesce(j.scheduled_start, 'infinity'::timestamptz), j.id LIMIT 6) x) AS "upcomingJobs",
  -- The newest booking requests.
  (SELECT coalesce(json_agg(x ORDER BY x.created_at DESC), '[]') FROM (
     SELECT r.id, r.service, r.preferred_date::text, r.created_at, c.name AS customer_name
       FROM booking_requests r JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      WHERE r.tenant_id = $1 AND r.status = 'new' ORDER BY r.created_at DESC LIMIT 6) x) AS "newRequests",
  -- A customer's request for changes waits here while its quote is still sent and was not
  -- edited since (docs/decisions/157).
  (SELECT coalesce(json_agg(x ORDER BY x.created_at DESC), '[]') FROM (
     SELECT cr.id, cr.quote_id, q.number AS quote_number, cr.message, cr.created_at, c.name AS customer_name
       FROM quote_change_requests cr
       JOIN quotes q ON q.tenant_id = cr.tenant_id AND q.id = cr.quote_id
       JOIN customers c ON c.tenant_id = cr.tenant_id AND c.id = cr.customer_id
      WHERE cr.tenant_id = $1 AND q.status = 'sent'
        AND NOT EXISTS (SELECT 1 FROM record_history h WHERE h.tenant_id = q.tenant_id AND h.record_type = 'quote' AND h.record_id = q.id
                          AND h.action = 'updated' AND h.occurred_at > cr.created_at)
      ORDER BY cr.created_at DESC LIMIT 6) x) AS "changeRequests",
  -- Completed visits of jobs billed per visit, not invoiced yet.
  (SELECT coalesce(json_agg(x ORDER BY x.starts_at, x.id), '[]') FROM (${VISITS_TO_INVOICE_SQL}) x) AS "visitsToBill"`;

/** The dashboard's lists: who is in the field, what comes up, new requests, asked changes, visits to invoice. */
export async function dashboardLists(tenantId: string): Promise<Lists> {
  return inTenant(tenantId, async (t) => {
    const [r] = await preparedRows<Lists>(DASHBOARD_LISTS_SQL, [tenantId, 10], t);
    for (const j of r.upcomingJobs) delete (j as { o?: unknown }).o;
    return r;
  });
}
