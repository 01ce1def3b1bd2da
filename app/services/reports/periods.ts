// The periods a report covers, as calendar dates in the tenant's time zone.
// Pure: shared by the service, the page's period selector and the tests.

export const REPORT_PERIODS = ["last-12-months", "this-year", "last-year"] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

export const PERIOD_LABELS: Record<ReportPeriod, string> = {
  "last-12-months": "Last 12 months",
  "this-year": "This year",
  "last-year": "Last year",
};

export const isReportPeriod = (v: unknown): v is ReportPeriod =>
  typeof v === "string" && (REPORT_PERIODS as readonly string[]).includes(v);

/** A half-open range of calendar dates [start, end) and the months in it, oldest first. */
export type PeriodRange = { period: ReportPeriod; start: string; end: string; months: string[] };

const ymd = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** `today` is the tenant's calendar date (YYYY-MM-DD). */
export function periodRange(period: ReportPeriod, today: string): PeriodRange {
  const [y, m] = today.split("-").map(Number);
  let start: string;
  let end: string;
  if (period === "this-year") {
    start = ymd(y, 1);
    end = ymd(y, m + 1); // months after this one have not happened yet
  } else if (period === "last-year") {
    start = ymd(y - 1, 1);
    end = ymd(y, 1);
  } else {
    start = ymd(y, m - 11);
    end = ymd(y, m + 1);
  }
  const months: string[] = [];
  for (let d = start; d < end;) {
    months.push(d.slice(0, 7));
    const [yy, mm] = d.split("-").map(Number);
    d = ymd(yy, mm + 1);
  }
  return { period, start, end, months };
}

/** Mondays (ISO weeks) from the week holding `start` up to the last one starting before `end`. */
export function weeksOf(range: PeriodRange): string[] {
  const first = new Date(`${range.start}T00:00:00Z`);
  first.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  const weeks: string[] = [];
  for (const d = first; d.toISOString().slice(0, 10) < range.end; d.setUTCDate(d.getUTCDate() + 7)) {
    weeks.push(d.toISOString().slice(0, 10));
  }
  return weeks;
}

/** "2026-06" -> "Jun 2026". */
// en-US short month names: a constant, not a new Intl formatter on each label (a page draws hundreds).
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export function monthLabel(month: string, style: "short" | "long" = "short"): string {
  const [y, m] = month.split("-").map(Number);
  const name = MONTH_NAMES[m - 1];
  return style === "short" ? `${name} ${String(y).slice(2)}` : `${name} ${y}`;
}
