import { inTenant, one } from "../../../db/index";
import { formatMoneyTotals } from "~/utils/format";

/** The dashboard's counts in one query (each an index-backed count within the tenant). */
export async function dashboardCounts(tenantId: string) {
  return inTenant(tenantId, async (t) => {
    const r = await one<{ customers: number; open_jobs: number; quotes_awaiting: number; new_requests: number; unpaid: Array<{ currency: string; cents: number }> | null }>(
      `SELECT
         (SELECT count(*) FROM customers WHERE tenant_id = $1)::int AS customers,
         (SELECT count(*) FROM jobs WHERE tenant_id = $1 AND status NOT IN ('completed', 'cancelled'))::int AS open_jobs,
         (SELECT count(*) FROM quotes WHERE tenant_id = $1 AND status = 'sent' AND (valid_until IS NULL OR valid_until >= current_date))::int AS quotes_awaiting,
         (SELECT count(*) FROM booking_requests WHERE tenant_id = $1 AND status = 'new')::int AS new_requests,
         (SELECT json_agg(json_build_object('currency', currency, 'cents', cents) ORDER BY currency)
            FROM (SELECT currency, sum(total_cents - amount_paid_cents)::bigint AS cents FROM invoices
                   WHERE tenant_id = $1 AND status IN ('sent', 'partial') GROUP BY currency) u) AS unpaid`,
      [tenantId],
      t,
    );
    return {
      customers: r!.customers,
      openJobs: r!.open_jobs,
      quotesAwaiting: r!.quotes_awaiting,
      newRequests: r!.new_requests,
      unpaidTotal: formatMoneyTotals(r!.unpaid ?? []),
    };
  });
}
