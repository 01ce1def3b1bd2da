import { inTenant, one, rows } from "../../../db/index";
import { formatMoneyTotals } from "~/utils/format";
import { TENANT_TODAY } from "~/services/records/sql.server";

/**
 * The dashboard: its counts in one query (each an index-backed count within the tenant) and
 * the two short lists that need a decision soon. "Quotes awaiting response" counts exactly
 * what /quotes?status=sent lists (sent, not past valid_until in the tenant's time zone).
 */
export async function dashboardCounts(tenantId: string) {
  return inTenant(tenantId, async (t) => {
    const r = await one<{ customers: number; open_jobs: number; unscheduled_jobs: number; quotes_awaiting: number; new_requests: number; overdue_invoices: number; unpaid: Array<{ currency: string; cents: number }> | null }>(
      `SELECT
         (SELECT count(*) FROM customers WHERE tenant_id = $1)::int AS customers,
         j.open_jobs, j.unscheduled_jobs,
         (SELECT count(*) FROM quotes WHERE tenant_id = $1 AND status = 'sent' AND (valid_until IS NULL OR valid_until >= ${TENANT_TODAY}))::int AS quotes_awaiting,
         (SELECT count(*) FROM booking_requests WHERE tenant_id = $1 AND status = 'new')::int AS new_requests,
         (SELECT count(*) FROM invoices WHERE tenant_id = $1 AND status IN ('sent', 'partial') AND due_date < ${TENANT_TODAY})::int AS overdue_invoices,
         (SELECT json_agg(json_build_object('currency', currency, 'cents', cents) ORDER BY currency)
            FROM (SELECT currency, sum(total_cents - amount_paid_cents)::bigint AS cents FROM invoices
                   WHERE tenant_id = $1 AND status IN ('sent', 'partial') GROUP BY currency) u) AS unpaid
       FROM (SELECT count(*) FILTER (WHERE status NOT IN ('completed', 'cancelled'))::int AS open_jobs,
                    count(*) FILTER (WHERE status = 'unscheduled')::int AS unscheduled_jobs
               FROM jobs WHERE tenant_id = $1) j`,
      [tenantId],
      t,
    );
    return {
      customers: r!.customers,
      openJobs: r!.open_jobs,
      unscheduledJobs: r!.unscheduled_jobs,
      quotesAwaiting: r!.quotes_awaiting,
      newRequests: r!.new_requests,
      overdueInvoices: r!.overdue_invoices,
      unpaidTotal: formatMoneyTotals(r!.unpaid ?? []),
    };
  });
}

/** The next open jobs on the schedule and the newest booking requests. */
export async function dashboardLists(tenantId: string) {
  return inTenant(tenantId, async (t) => ({
    upcomingJobs: await rows<{ id: string; title: string; status: string; scheduled_start: string; customer_name: string; assignee_name: string | null }>(
      `SELECT j.id, j.title, j.status, j.scheduled_start, c.name AS customer_name, u.name AS assignee_name
         FROM jobs j
         JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
         LEFT JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
        WHERE j.tenant_id = $1 AND j.status NOT IN ('completed', 'cancelled', 'unscheduled')
          AND coalesce(j.scheduled_start, 'infinity'::timestamptz) >= date_trunc('day', now())
        ORDER BY coalesce(j.scheduled_start, 'infinity'::timestamptz), j.id LIMIT 6`,
      [tenantId],
      t,
    ),
    newRequests: await rows<{ id: string; service: string; preferred_date: string | null; created_at: string; customer_name: string }>(
      `SELECT r.id, r.service, r.preferred_date::text, r.created_at, c.name AS customer_name
         FROM booking_requests r JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
        WHERE r.tenant_id = $1 AND r.status = 'new' ORDER BY r.created_at DESC LIMIT 6`,
      [tenantId],
      t,
    ),
    // A customer's request for changes waits here while its quote is still sent and was not
    // edited since (docs/decisions/157).
    changeRequests: await rows<{ id: string; quote_id: string; quote_number: string; message: string; created_at: string; customer_name: string }>(
      `SELECT cr.id, cr.quote_id, q.number AS quote_number, cr.message, cr.created_at, c.name AS customer_name
         FROM quote_change_requests cr
         JOIN quotes q ON q.tenant_id = cr.tenant_id AND q.id = cr.quote_id
         JOIN customers c ON c.tenant_id = cr.tenant_id AND c.id = cr.customer_id
        WHERE cr.tenant_id = $1 AND q.status = 'sent'
          AND NOT EXISTS (SELECT 1 FROM record_history h WHERE h.tenant_id = q.tenant_id AND h.record_type = 'quote' AND h.record_id = q.id
                            AND h.action = 'updated' AND h.occurred_at > cr.created_at)
        ORDER BY cr.created_at DESC LIMIT 6`,
      [tenantId],
      t,
    ),
  }));
}
