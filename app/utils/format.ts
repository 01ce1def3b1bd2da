// Formatting shared by server and browser. Money is integer cents with a currency.

export function formatMoney(cents: number, currency = "USD"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}

/** Several currencies summed separately: "$1,200.00 + €300.00"; nothing is "$0.00". */
export function formatMoneyTotals(totals: Array<{ currency: string; cents: number }>): string {
  const nonZero = totals.filter((t) => Number(t.cents) !== 0);
  if (!nonZero.length) return formatMoney(0, "USD");
  return nonZero.map((t) => formatMoney(Number(t.cents), t.currency)).join(" + ");
}

/** A date-time in the tenant's time zone, e.g. "Jun 16, 2026, 9:30 AM". */
export function formatDateTime(value: string | Date | null | undefined, timeZone = "UTC"): string {
  if (!value) return "";
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(value));
}

/** A calendar date (YYYY-MM-DD, no time zone), e.g. "Jun 16, 2026". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const [y, m, d] = value.slice(0, 10).split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(Date.UTC(y, m - 1, d));
}

export const humanize = (s: string) => s.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());
