import { inTenant, one, rows, type Tx } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { periodRange, weeksOf, type PeriodRange, type ReportPeriod } from "./periods";
import { AGING_JSON, summarySums, type AgingRow, type JobRow } from "./figures.server";

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

async function tenantClock(t: Tx, tenantId: string) {
  // With the clock, the version of the tenant's collected money: the count and a checksum of the
  // ids of its delta rows. Every change of a payment inserts a row with a new random id, and a
  // fold replaces every row with new ones, so an equal version means the same payments. And what
  // is owed today by age: one round trip for the three.
  const r = await one<{ today: string; time_zone: string; collected: string; aging: AgingRow[] }>(
    `SELECT tn.today::text AS today, tn.time_zone,
            (SELECT count(*) || ':' || coalesce(sum(hashtext(d.id::text)), 0)
               FROM summary_deltas d WHERE d.tenant_id = $1 AND d.figure = 'collected') AS collected,
            ${AGING_JSON} AS aging
       FROM (SELECT id, time_zone, (now() AT TIME ZONE time_zone)::date AS today FROM tenants WHERE id = $1) tn`,
    [tenantId],
    t,
  );
  return { today: r!.today, timeZone: r!.time_zone, collected: r!.collected, agingRows: r!.aging };
}

type Ranked = Array<{ id: string; cents: number }>;
/** The ranking of top customers per tenant, period, currency and version of the collected money. */
const rankings = new Map<string, Ranked>();
const RANKINGS_KEPT = 500;

/**
 * The ten customers who paid the most in the period. Ranking them reads every payment of the
 * period (tens of thousands on a large tenant), so the ranking is kept per process under the
 * version of the tenant's collected money (a payment recorded, changed or removed makes a new
 * version, hence a new ranking); the names are read each time.
 */
async function topCustomers(t: Tx, tenantId: string, range: PeriodRange, currency: string, version: string) {
  const key = `${tenantId} ${range.start} ${range.end} ${currency} ${version}`;
  let ranked = rankings.get(key);
  if (!ranked) {
    ranked = (
      await rows<{ id: string; cents: string }>(
        `SELECT i.customer_id AS id, sum(p.amount_cents)::bigint AS cents
           FROM payments p
           JOIN invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
          WHERE p.tenant_id = $1 AND p.currency = $4
            AND p.received_on >= $2::date AND p.received_on < $3::date
          GROUP BY i.customer_id
          ORDER BY cents DESC, i.customer_id
          LIMIT 10`,
        [tenantId, range.start, range.end, currency],
        t,
      )
    ).map((r) => ({ id: r.id, cents: Number(r.cents) }));
    if (rankings.size >= RANKINGS_KEPT) rankings.delete(rankings.keys().next().value!);
    rankings.set(key, ranked);
  }
  if (!ranked.length) return [];
  const named = await rows<{ id: string; name: string; cents: string }>(
    `SELECT c.id, c.name, x.cents
       FROM unnest($2::uuid[], $3::bigint[]) AS x (id, cents)
       JOIN customers c ON c.tenant_id = $1 AND c.id = x.id
      ORDER BY x.cents DESC, c.name`,
    [tenantId, ranked.map((r) => r.id), ranked.map((r) => r.cents)],
    t,
  );
  return named.map((r) => ({ id: r.id, name: r.name, cents: Number(r.cents) }));
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
    const { today, timeZone, collected, agingRows } = await tenantClock(t, actor.tenantId);
    const range = periodRange(period, today);
    const { moneyRows, quoteRows, jobRows } = await summarySums(t, actor.tenantId, range);
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
    // Each week's rows, found once (a year of weeks by thirty technicians is thousands of rows).
    const rowsOfWeek = new Map<string, JobRow[]>();
    for (const r of jobRows) {
      const list = rowsOfWeek.get(r.week);
      if (list) list.push(r);
      else rowsOfWeek.set(r.week, [r]);
    }
    const jobs = weeksOf(range).map((week) => {
      const counts: Record<string, number> = {};
      for (const tech of technicians) counts[tech.id ?? ""] = 0;
      for (const r of rowsOfWeek.get(week) ?? []) counts[r.assignee_id ?? ""] += r.completed;
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

    const top = await topCustomers(t, actor.tenantId, range, currency, collected);
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
