import { toCsv, type CsvCell } from "~/services/import/csv-write";
import type { Reports } from "./reports.server";

// Each report as a CSV download (/reports/<name>.csv), escaped like every CSV the app writes
// (OWASP CSV injection: a customer named "=HYPERLINK(...)" stays text). Amounts are decimals in
// the report's currency, so a spreadsheet sums them.

export const REPORT_NAMES = [
  "invoiced-collected",
  "quote-conversion",
  "jobs-completed",
  "outstanding-by-age",
  "top-customers",
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
export const isReportName = (v: string): v is ReportName => (REPORT_NAMES as readonly string[]).includes(v);

export const REPORT_TITLES: Record<ReportName, string> = {
  "invoiced-collected": "Invoiced and collected per month",
  "quote-conversion": "Quotes sent and approved per month",
  "jobs-completed": "Visits completed per week by technician",
  "outstanding-by-age": "Outstanding invoices by age",
  "top-customers": "Top 10 customers by collected revenue",
};

const amount = (cents: number) => (cents / 100).toFixed(2);
const percent = (rate: number | null) => (rate === null ? null : (rate * 100).toFixed(1));

export function reportCsv(name: ReportName, r: Reports): string {
  let headers: string[];
  let data: CsvCell[][];
  switch (name) {
    case "invoiced-collected":
      headers = ["month", `invoiced_${r.currency}`, `collected_${r.currency}`];
      data = r.money.map((m) => [m.month, amount(m.invoicedCents), amount(m.collectedCents)]);
      break;
    case "quote-conversion":
      headers = ["month", "quotes_sent", "quotes_approved", "approval_rate_percent"];
      data = r.quotes.map((q) => [q.month, q.sent, q.approved, percent(q.rate)]);
      break;
    case "jobs-completed":
      headers = ["week_starting", ...r.technicians.map((t) => t.name), "total"];
      data = r.jobs.map((w) => [w.week, ...r.technicians.map((t) => w.counts[t.id ?? ""] ?? 0), w.total]);
      break;
    case "outstanding-by-age":
      headers = ["age", "invoices", `outstanding_${r.currency}`];
      data = r.aging.map((a) => [a.label, a.invoices, amount(a.cents)]);
      break;
    case "top-customers":
      headers = ["rank", "customer", `collected_${r.currency}`];
      data = r.topCustomers.map((c, i) => [i + 1, c.name, amount(c.cents)]);
      break;
  }
  return toCsv(headers, data);
}
