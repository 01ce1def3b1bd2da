// Formatting shared by server and browser. Money is integer cents with a currency.

// Building an Intl formatter costs far more than using one (a page of line items made
// hundreds): each distinct one is made once and kept.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

/** A shared Intl.DateTimeFormat for en-US with these options (time zones included). */
export function dateTimeFormat(options: Intl.DateTimeFormatOptions, locale = "en-US"): Intl.DateTimeFormat {
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function formatMoney(cents: number, currency = "USD"): string {
  return cached(`m|${currency}`, () => new Intl.NumberFormat("en-US", { style: "currency", currency })).format(
    cents / 100,
  );
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
  return dateTimeFormat({ dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(value));
}

/**
 * A date-time with its zone named, for what leaves the app (PDFs, e-mails): the reader may be
 * elsewhere, so "Jun 16, 2026, 9:30 AM MDT" rather than a bare "9:30 AM".
 */
export function formatDateTimeZoned(value: string | Date | null | undefined, timeZone = "UTC"): string {
  if (!value) return "";
  return dateTimeFormat({
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  }).format(new Date(value));
}

/** A calendar date (YYYY-MM-DD, no time zone), e.g. "Jun 16, 2026". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const [y, m, d] = value.slice(0, 10).split("-").map(Number);
  return dateTimeFormat({ dateStyle: "medium", timeZone: "UTC" }).format(Date.UTC(y, m - 1, d));
}

export const humanize = (s: string) => s.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase());

/** Short money for chart axes: "$1.2K", "$30K", "$0". */
export function formatMoneyCompact(cents: number, currency = "USD"): string {
  return cached(
    `mc|${currency}`,
    () =>
      new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        notation: "compact",
        minimumFractionDigits: 0,
        maximumFractionDigits: 1,
      }),
  ).format(cents / 100);
}
