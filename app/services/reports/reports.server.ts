import { inTenant, one, rows, type Tx } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { periodRange, weeksOf, type PeriodRange, type ReportPeriod } from "./periods";

// The owner's reports. Every figure is an aggregate in SQL over an index
// of the tenant's rows (migration 0070), in the tenant's time zone: months and weeks are the
// tenant's calendar, so a payment at 23:30 on the last day of the month in Auckland counts in
// that month there, whatever the server's clock says. Set-based reads, hence raw SQL.

export type MonthMoney = { month: string; invoicedCents: number; collectedCents: number };
export type MonthQuotes = { month: string; sent: number; approved: number; rate: number | null };
export type WeekJobs = { week: string; counts: Record<string, number>; total: number };
export type Technician = { id: string | null; name: string };
export type AgeBucket = { bucket: AgeBucketName; label: string; invoices: number; cents: number };
export type TopCustomer = { id: string; name: string; cents: number };

export const AGE_BUCKETS = ["current", "0-30", "31-60", "61-90", "over-90"] as const;
export type AgeBucketName = (typeof AGE_BUCKETS)[number];
export const AGE_LABELS: Record<AgeBucketName, string> = {
  current: "Not yet due",
  "0-30": "0-30 days past due",
  "31-60": "31-60 days past due",
  "61-90": "61-90 days past due",
  "over-90": "Over 90 days past due",
};

export type Reports = {
  range: PeriodRange;
  today: string;
  timeZone: string;
  /** The currency of the money figures: the one most invoiced or collected in the period. */
  currency: string;
  /** Other currencies seen in the period, left out of the money figures (said on the page). */
  otherCurrencies: string[];
  money: MonthMoney[];
  quotes: MonthQuotes[];
  technicians: Technician[];
  jobs: WeekJobs[];
  aging: AgeBucket[];
  topCustomers: TopCustomer[];
};

/** The start of a tenant calendar date as an instant: `$d::date::timestamp AT TIME ZONE tz`. */
const localStart = (param: string) => `(${param}::date::timestamp AT TIME ZONE $2)`;

async function tenantClock(t: Tx, tenantId: string) {
  const r = await one<{ today: string; time_zone: string }>(
    `SELECT (now() AT TIME ZONE time_zone)::date::text AS today, time_zone FROM tenants WHERE id = $1`,
    [tenantId],
    t,
  );
  return { today: r!.today, timeZone: r!.time_zone };
}

/**
 * Invoiced (issued, not draft or void, by issue date) and collected (payments by the day the
 * money was received: payments.received_on, a date of the tenant's calendar, migration 0071).
 */
async function moneyByMonth(t: Tx, tenantId: string, range: PeriodRange) {
  return rows<{ kind: "invoiced" | "collected"; month: string; currency: string; cents: number }>(
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
}

/** Quotes sent in each month, and how many of those were approved (so the rate is of that month's quotes). */
async function quotesByMonth(t: Tx, tenantId: string, tz: string, range: PeriodRange) {
  return rows<{ month: string; sent: number; approved: number }>(
    `SELECT to_char(sent_at AT TIME ZONE $2, 'YYYY-MM') AS month, count(*)::int AS sent,
            count(*) FILTER (WHERE approved_at IS NOT NULL)::int AS approved
       FROM quotes
      WHERE tenant_id = $1 AND sent_at >= ${localStart("$3")} AND sent_at < ${localStart("$4")}
      GROUP BY 1`,
    [tenantId, tz, range.start, range.end],
    t,
  );
}

/**
 * Visits completed per ISO week (Monday) and technician: a crew visit counts once for each
 * member, a visit without a crew under no one; a job completed without any visit (closed by
 * the office, imported done) counts once for its technician.
 */
async function jobsByWeek(t: Tx, tenantId: string, tz: string, range: PeriodRange) {
  return rows<{ week: string; assignee_id: string | null; name: string | null; completed: number }>(
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
    [tenantId, tz, range.start, range.end],
    t,
  );
}

/** What is owed today, by how far past its due date (the tenant's today). */
async function outstandingByAge(t: Tx, tenantId: string, today: string) {
  return rows<{ bucket: AgeBucketName; currency: string; invoices: number; cents: number }>(
    `SELECT CASE WHEN due_date IS NULL OR due_date > $2::date THEN 'current'
                 WHEN $2::date - due_date <= 30 THEN '0-30'
                 WHEN $2::date - due_date <= 60 THEN '31-60'
                 WHEN $2::date - due_date <= 90 THEN '61-90'
                 ELSE 'over-90' END AS bucket,
            currency, count(*)::int AS invoices, sum(total_cents - amount_paid_cents)::bigint AS cents
       FROM invoices
      WHERE tenant_id = $1 AND status IN ('sent', 'partial')
      GROUP BY 1, 2`,
    [tenantId, today],
    t,
  );
}

async function topCustomers(t: Tx, tenantId: string, range: PeriodRange, currency: string) {
  return rows<{ id: string; name: string; cents: number }>(
    `SELECT c.id, c.name, s.cents
       FROM (SELECT i.customer_id, sum(p.amount_cents)::bigint AS cents
               FROM payments p
               JOIN invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
              WHERE p.tenant_id = $1 AND p.currency = $4
                AND p.received_on >= $2::date AND p.received_on < $3::date
              GROUP BY i.customer_id
              ORDER BY cents DESC, i.customer_id
              LIMIT 10) s
       JOIN customers c ON c.tenant_id = $1 AND c.id = s.customer_id
      ORDER BY s.cents DESC, c.name`,
    [tenantId, range.start, range.end, currency],
    t,
  );
}

/** The currency with the most money in the period (ties: alphabetical); USD when there is none. */
function mainCurrency(
  money: Array<{ currency: string; cents: number }>,
  aging: Array<{ currency: string; cents: number }>,
): string {
  const totals = new Map<string, number>();
  for (const r of [...money, ...aging]) totals.set(r.currency, (totals.get(r.currency) ?? 0) + Number(r.cents));
  const sorted = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return sorted[0]?.[0] ?? "USD";
}

export async function loadReports(actor: Actor, period: ReportPeriod): Promise<Reports> {
  return inTenant(actor.tenantId, async (t) => {
    const { today, timeZone } = await tenantClock(t, actor.tenantId);
    const range = periodRange(period, today);
    const [moneyRows, quoteRows, jobRows, agingRows] = [
      await moneyByMonth(t, actor.tenantId, range),
      await quotesByMonth(t, actor.tenantId, timeZone, range),
      await jobsByWeek(t, actor.tenantId, timeZone, range),
      await outstandingByAge(t, actor.tenantId, today),
    ];
    const currency = mainCurrency(moneyRows, agingRows);
    const otherCurrencies = [...new Set([...moneyRows, ...agingRows].map((r) => r.currency))]
      .filter((c) => c !== currency)
      .sort();

    const money = range.months.map((month) => {
      const sum = (kind: string) =>
        moneyRows
          .filter((r) => r.kind === kind && r.month === month && r.currency === currency)
          .reduce((s, r) => s + Number(r.cents), 0);
      return { month, invoicedCents: sum("invoiced"), collectedCents: sum("collected") };
    });
    const quotes = range.months.map((month) => {
      const r = quoteRows.find((q) => q.month === month);
      const sent = r?.sent ?? 0;
      const approved = r?.approved ?? 0;
      return { month, sent, approved, rate: sent ? approved / sent : null };
    });

    const technicianMap = new Map<string, Technician>();
    for (const r of jobRows)
      technicianMap.set(r.assignee_id ?? "", { id: r.assignee_id, name: r.name ?? "Unassigned" });
    const technicians = [...technicianMap.values()].sort((a, b) =>
      a.id === null ? 1 : b.id === null ? -1 : a.name.localeCompare(b.name),
    );
    const jobs = weeksOf(range).map((week) => {
      const counts: Record<string, number> = {};
      for (const tech of technicians) counts[tech.id ?? ""] = 0;
      for (const r of jobRows) if (r.week === week) counts[r.assignee_id ?? ""] += r.completed;
      return { week, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
    });

    const aging = AGE_BUCKETS.map((bucket) => {
      const inBucket = agingRows.filter((r) => r.bucket === bucket && r.currency === currency);
      return {
        bucket,
        label: AGE_LABELS[bucket],
        invoices: inBucket.reduce((s, r) => s + r.invoices, 0),
        cents: inBucket.reduce((s, r) => s + Number(r.cents), 0),
      };
    });

    const top = (await topCustomers(t, actor.tenantId, range, currency)).map((r) => ({ ...r, cents: Number(r.cents) }));
    return {
      range,
      today,
      timeZone,
      currency,
      otherCurrencies,
      money,
      quotes,
      technicians,
      jobs,
      aging,
      topCustomers: top,
    };
  });
}
