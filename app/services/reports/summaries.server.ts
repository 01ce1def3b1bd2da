import { Transaction } from "sequelize";
import { db, inTenant, one, rows } from "../../../db/index";
import type { PeriodRange } from "./periods";
import { scratchFigures, summaryFigures, type Figures } from "./figures.server";

// The summaries the writes keep (migration 0260): made again from the records, compared with
// them, and folded. What `npm run summaries` and the maintenance job call.

/** Every month there is: the range the check compares over. */
const ALL_TIME: PeriodRange = { period: "last-12-months", start: "1900-01-01", end: "2200-01-01", months: [] };

async function tenantIds(tenantId?: string): Promise<string[]> {
  if (tenantId) return [tenantId];
  return (await rows<{ id: string }>(`SELECT id FROM tenants ORDER BY id`)).map((r) => r.id);
}

/**
 * A tenant's summaries (or every tenant's) made again from its records: one repeatable-read
 * transaction per tenant, so the delete and the sums see the same records. Returns the tenants done.
 */
export async function rebuildSummaries(tenantId?: string): Promise<number> {
  const ids = await tenantIds(tenantId);
  for (const id of ids) {
    await db().transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ }, async (t) => {
      await one(`SELECT summaries_rebuild($1)`, [id], t);
    });
  }
  return ids.length;
}

/** Folds a tenant's delta rows (or every tenant's); returns the rows removed. */
export async function foldSummaries(tenantId?: string): Promise<number> {
  let removed = 0;
  for (const id of await tenantIds(tenantId)) {
    removed += Number((await one<{ n: number }>(`SELECT summaries_fold($1) AS n`, [id]))!.n);
  }
  return removed;
}

/** Figures in one order, zeros left out, so two sources compare with deepEqual. */
export function normalise(f: Figures) {
  const sort = <T>(list: T[]) => list.map((r) => JSON.stringify(r)).sort();
  return {
    money: sort(
      f.moneyRows
        .filter((r) => Number(r.cents))
        .map((r) => ({ ...r, currency: r.currency.trim(), cents: Number(r.cents) })),
    ),
    quotes: sort(f.quoteRows.filter((r) => r.sent || r.approved).map((r) => ({ ...r }))),
    jobs: sort(f.jobRows.filter((r) => r.completed).map((r) => ({ ...r, completed: Number(r.completed) }))),
    aging: sort(
      f.agingRows.map((r) => ({
        ...r,
        currency: r.currency.trim(),
        invoices: Number(r.invoices),
        cents: Number(r.cents),
      })),
    ),
  };
}

/** The summaries' figures and the records' figures of one tenant, over all time, normalised. */
export async function compareSummaries(tenantId: string) {
  return inTenant(tenantId, async (t) => {
    const clock = await one<{ today: string; time_zone: string }>(
      `SELECT (now() AT TIME ZONE time_zone)::date::text AS today, time_zone FROM tenants WHERE id = $1`,
      [tenantId],
      t,
    );
    // The customers the dashboard shows (migration 0380): the kept figure and the count.
    const customers = await one<{ kept: number; counted: number }>(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM summary_deltas WHERE tenant_id = $1 AND figure = 'customers')::int AS kept,
              (SELECT count(*) FROM customers WHERE tenant_id = $1)::int AS counted`,
      [tenantId],
      t,
    );
    // The open invoices' balances the "owed" figures per due date are moved from: each invoice's
    // due date and balance, kept and from the invoices.
    const balances = await one<{ kept: string; counted: string }>(
      `SELECT (SELECT coalesce(string_agg(invoice_id || ' ' || coalesce(due_date::text, '') || ' ' || currency || ' ' || cents, ',' ORDER BY invoice_id), '')
                 FROM invoice_balances WHERE tenant_id = $1) AS kept,
              (SELECT coalesce(string_agg(id || ' ' || coalesce(due_date::text, '') || ' ' || currency || ' ' || (total_cents - amount_paid_cents), ',' ORDER BY id), '')
                 FROM invoices WHERE tenant_id = $1 AND status IN ('sent', 'partial')) AS counted`,
      [tenantId],
      t,
    );
    // The open work the dashboard counts (migration 0396): open jobs by state, completed jobs not
    // invoiced, approved quotes not converted; kept and counted, as "figure count" lists.
    const openWork = await one<{ kept: string; counted: string }>(
      `SELECT (SELECT coalesce(string_agg(figure || ' ' || n, ',' ORDER BY figure), '') FROM (
                 SELECT figure, sum(amount) AS n FROM summary_deltas
                  WHERE tenant_id = $1 AND (figure LIKE 'jobs\\_%' OR figure = 'quotes_to_schedule')
                  GROUP BY figure HAVING sum(amount) <> 0) k) AS kept,
              (SELECT coalesce(string_agg(figure || ' ' || n, ',' ORDER BY figure), '') FROM (
                 SELECT CASE WHEN status = 'completed' THEN 'jobs_to_invoice' ELSE 'jobs_' || status END AS figure, count(*) AS n
                   FROM jobs WHERE tenant_id = $1 AND (status NOT IN ('completed', 'cancelled') OR invoice_id IS NULL AND status = 'completed')
                  GROUP BY 1
                 UNION ALL
                 SELECT 'quotes_to_schedule', count(*) FROM quotes
                  WHERE tenant_id = $1 AND status = 'approved' AND job_id IS NULL HAVING count(*) > 0) c) AS counted`,
      [tenantId],
      t,
    );
    return {
      summaries: {
        ...normalise(await summaryFigures(t, tenantId, ALL_TIME, clock!.today)),
        customers: customers!.kept,
        balances: balances!.kept,
        openWork: openWork!.kept,
      },
      records: {
        ...normalise(await scratchFigures(t, tenantId, clock!.time_zone, ALL_TIME, clock!.today)),
        customers: customers!.counted,
        balances: balances!.counted,
        openWork: openWork!.counted,
      },
    };
  });
}

/** The tenants whose summaries differ from their records (each with the figures that differ). */
export async function checkSummaries(tenantId?: string): Promise<Array<{ tenantId: string; differs: string[] }>> {
  const out: Array<{ tenantId: string; differs: string[] }> = [];
  for (const id of await tenantIds(tenantId)) {
    const { summaries, records } = await compareSummaries(id);
    const differs = (Object.keys(records) as Array<keyof typeof records>).filter(
      (k) => JSON.stringify(summaries[k]) !== JSON.stringify(records[k]),
    );
    if (differs.length) out.push({ tenantId: id, differs });
  }
  return out;
}
