import { rows, type Tx } from "../../../db/index";
import type { PeriodRange } from "./periods";

// The figures behind the reports and the dashboard, from two sources that must agree:
// - `summaryFigures`: what the pages read. Sums of the delta rows the writes keep
//   (summary_deltas, one small row per change, migration 0260), today's ageing among them (what is
//   owed per due date, migration 0395): a read that does not grow with the tenant's history.
// - `scratchFigures`: the same figures aggregated from the invoices, payments, quotes, visits
//   and jobs themselves, in the tenant's time zone. The summaries command checks one against
//   the other, and the tests compare them after random changes.

export type MoneyRow = { kind: "invoiced" | "collected"; month: string; currency: string; cents: number };
export type QuoteRow = { month: string; sent: number; approved: number };
export type JobRow = { week: string; assignee_id: string | null; name: string | null; completed: number };
export type AgingRow = { bucket: string; currency: string; invoices: number; cents: number };
export type Figures = { moneyRows: MoneyRow[]; quoteRows: QuoteRow[]; jobRows: JobRow[]; agingRows: AgingRow[] };

/** Days past due as an age bucket (`due` a date column, `today` the tenant's today, `$2` by default). */
const bucketOf = (due: string, today = "$2::date") => `CASE WHEN ${due} IS NULL OR ${due} > ${today} THEN 'current'
                 WHEN ${today} - ${due} <= 30 THEN '0-30'
                 WHEN ${today} - ${due} <= 60 THEN '31-60'
                 WHEN ${today} - ${due} <= 90 THEN '61-90'
                 ELSE 'over-90' END`;

/**
 * What is owed today by age: one `AgingRow` per bucket and currency of the tenant `tenant`,
 * `today` its today (SQL expressions). From the "owed" and "owed_invoices" delta rows the
 * invoices' writes keep per due date (an invoice without one under 'infinity': never past
 * due), so the read is a few rows per due date, not one per open invoice.
 */
const agingSql = (tenant: string, today: string) =>
  `SELECT ${bucketOf("period", today)} AS bucket, currency,
          sum(amount) FILTER (WHERE figure = 'owed_invoices')::int AS invoices,
          coalesce(sum(amount) FILTER (WHERE figure = 'owed'), 0)::bigint AS cents
     FROM summary_deltas
    WHERE tenant_id = ${tenant} AND figure IN ('owed', 'owed_invoices')
    GROUP BY 1, 2
   HAVING sum(amount) FILTER (WHERE figure = 'owed_invoices') <> 0`;

/**
 * The same as a JSON array, an expression over the tenant's row `tn` (its `today` a date
 * column), so the reports read it in the same statement as the tenant's clock.
 */
export const AGING_JSON = `(SELECT coalesce(json_agg(a), '[]') FROM (${agingSql("tn.id", "tn.today")}) a)`;

/** The reports' figures for a period from the summaries: one indexed read of a few hundred rows. */
export async function summaryFigures(t: Tx, tenantId: string, range: PeriodRange, today: string): Promise<Figures> {
  const agingRows = await rows<AgingRow>(agingSql("$1", "$2::date"), [tenantId, today], t);
  return { ...(await summarySums(t, tenantId, range)), agingRows };
}

/**
 * The summaries' sums of a period: money, quotes and visits per technician (with the
 * technicians' names, read in the same statement).
 */
export async function summarySums(t: Tx, tenantId: string, range: PeriodRange): Promise<Omit<Figures, "agingRows">> {
  const sums = await rows<{
    figure: string;
    period: string;
    party_id: string | null;
    currency: string;
    amount: number;
    name: string | null;
  }>(
    `SELECT s.figure, to_char(s.period, 'YYYY-MM-DD') AS period, s.party_id, s.currency, s.amount, u.name
       FROM (SELECT figure, period, party_id, currency, sum(amount)::bigint AS amount
               FROM summary_deltas
              WHERE tenant_id = $1 AND figure IN ('invoiced', 'collected', 'quotes_sent', 'quotes_approved', 'visits_completed')
                AND period >= $2::date AND period < $3::date
              GROUP BY figure, period, party_id, currency
             HAVING sum(amount) <> 0) s
       LEFT JOIN users u ON s.figure = 'visits_completed' AND u.tenant_id = $1 AND u.id = s.party_id`,
    [tenantId, range.start, range.end],
    t,
  );
  const moneyRows: MoneyRow[] = [];
  const quotes = new Map<string, QuoteRow>();
  const jobs = new Map<string, JobRow>();
  // A year of weeks by technician is thousands of rows over about sixty periods: each period's
  // Monday is worked out once.
  const mondays = new Map<string, string>();
  for (const r of sums) {
    const month = r.period.slice(0, 7);
    const amount = Number(r.amount);
    if (r.figure === "invoiced" || r.figure === "collected") {
      moneyRows.push({ kind: r.figure, month, currency: r.currency, cents: amount });
    } else if (r.figure === "quotes_sent" || r.figure === "quotes_approved") {
      const q = quotes.get(month) ?? { month, sent: 0, approved: 0 };
      if (r.figure === "quotes_sent") q.sent += amount;
      else q.approved += amount;
      quotes.set(month, q);
    } else if (r.figure === "visits_completed") {
      let week = mondays.get(r.period);
      if (week === undefined) mondays.set(r.period, (week = mondayOf(r.period)));
      const key = `${week} ${r.party_id ?? ""}`;
      const j = jobs.get(key) ?? { week, assignee_id: r.party_id, name: r.party_id ? r.name : null, completed: 0 };
      j.completed += amount;
      jobs.set(key, j);
    }
  }
  return {
    moneyRows,
    quoteRows: [...quotes.values()],
    jobRows: [...jobs.values()].filter((j) => j.completed),
  };
}

/** The Monday of the ISO week holding a date (YYYY-MM-DD). */
function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The start of a tenant calendar date as an instant: `$d::date::timestamp AT TIME ZONE tz`. */
const localStart = (param: string) => `(${param}::date::timestamp AT TIME ZONE $2)`;

/** The same figures aggregated from the records themselves (every row of the period). */
export async function scratchFigures(
  t: Tx,
  tenantId: string,
  timeZone: string,
  range: PeriodRange,
  today: string,
): Promise<Figures> {
  // Invoiced: issued (not draft or void) by issue date; collected: by the day the money arrived.
  const moneyRows = await rows<MoneyRow>(
    `SELECT 'invoiced' AS kind, to_char(issue_date, 'YYYY-MM') AS month, currency, sum(total_cents)::bigint AS cents
       FROM invoices
      WHERE tenant_id = $1 AND issue_date >= $2::date AND issue_date < $3::date AND status NOT IN ('draft', 'void')
      GROUP BY 2, 3
     UNION ALL
     SELECT 'collected', to_char(received_on, 'YYYY-MM'), currency, sum(amount_cents)::bigint
       FROM payments
      WHERE tenant_id = $1 AND received_on >= $2::date AND received_on < $3::date
      GROUP BY 2, 3`,
    [tenantId, range.start, range.end],
    t,
  );
  // Quotes sent in each month, and how many of those were approved.
  const quoteRows = await rows<QuoteRow>(
    `SELECT to_char(sent_at AT TIME ZONE $2, 'YYYY-MM') AS month, count(*)::int AS sent,
            count(*) FILTER (WHERE approved_at IS NOT NULL)::int AS approved
       FROM quotes
      WHERE tenant_id = $1 AND sent_at >= ${localStart("$3")} AND sent_at < ${localStart("$4")}
      GROUP BY 1`,
    [tenantId, timeZone, range.start, range.end],
    t,
  );
  // Visits completed per week and technician: a crew visit once for each member, a visit
  // without a crew under no one, a job completed without any visit once for its technician.
  const jobRows = await rows<JobRow>(
    `SELECT to_char(date_trunc('week', d.completed_at AT TIME ZONE $2), 'YYYY-MM-DD') AS week,
            d.user_id AS assignee_id, u.name, count(*)::int AS completed
       FROM (
         SELECT v.completed_at, a.user_id
           FROM visits v
           LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
          WHERE v.tenant_id = $1 AND v.status = 'completed'
            AND v.completed_at >= ${localStart("$3")} AND v.completed_at < ${localStart("$4")}
         UNION ALL
         SELECT j.completed_at, j.assignee_id
           FROM jobs j
          WHERE j.tenant_id = $1 AND j.status = 'completed'
            AND j.completed_at >= ${localStart("$3")} AND j.completed_at < ${localStart("$4")}
            AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id)
       ) d
       LEFT JOIN users u ON u.tenant_id = $1 AND u.id = d.user_id
      GROUP BY 1, 2, 3`,
    [tenantId, timeZone, range.start, range.end],
    t,
  );
  // What is owed today, by how far past its due date.
  const agingRows = await rows<AgingRow>(
    `SELECT ${bucketOf("due_date")} AS bucket,
            currency, count(*)::int AS invoices, sum(total_cents - amount_paid_cents)::bigint AS cents
       FROM invoices
      WHERE tenant_id = $1 AND status IN ('sent', 'partial')
      GROUP BY 1, 2`,
    [tenantId, today],
    t,
  );
  return { moneyRows, quoteRows, jobRows, agingRows };
}
