// A person's week in hours: the days of a week in the tenant's zone, each entry cut at local
// midnights, and regular and overtime hours by the company's rules (docs/decisions/385).
// Pure: no database, so the rules are unit-tested and shared by the page, the team view and
// the payroll file alike.
import { utcToZoned, zonedToUtc } from "~/services/jobs/local-time";

export type OvertimeRules = {
  /** Hours over this many minutes in a week are overtime. */
  weeklyMinutes: number;
  /** When set, hours over this many minutes in a day are overtime (and never counted twice). */
  dailyMinutes: number | null;
};

/** A stretch of paid time (work or travel), as instants in milliseconds. */
export type PaidSpan = { start: number; end: number };

export type DayHours = { date: string; paidMinutes: number; regularMinutes: number; overtimeMinutes: number };
export type WeekHours = { days: DayHours[]; paidMinutes: number; regularMinutes: number; overtimeMinutes: number };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.toISOString().slice(0, 10) === value;
}

/** `date` plus `n` calendar days (YYYY-MM-DD). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar date: 1 = Monday ... 7 = Sunday. */
export function isoWeekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

/** The first day of the week that contains `date`, weeks starting on ISO weekday `startsOn`. */
export function weekStartOf(date: string, startsOn: number): string {
  return addDays(date, -((isoWeekday(date) - startsOn + 7) % 7));
}

/** The seven dates of the week starting on `weekStart`. */
export function weekDates(weekStart: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
}

/**
 * The eight instants (ms) that bound the week's seven local days: each local midnight. A day
 * with a daylight-saving change is 23 or 25 real hours long, and counts as such.
 */
export function dayBounds(weekStart: string, timeZone: string): number[] {
  return Array.from({ length: 8 }, (_, i) => zonedToUtc(`${addDays(weekStart, i)}T00:00`, timeZone).getTime());
}

/** The local calendar date of an instant. */
export function localDate(at: number | Date | string, timeZone: string): string {
  return utcToZoned(new Date(at), timeZone).slice(0, 10);
}

/** A span cut into its parts per day of the week (parts outside the week are dropped). */
export function splitByDay(
  span: PaidSpan,
  bounds: readonly number[],
): Array<{ day: number; start: number; end: number }> {
  const parts: Array<{ day: number; start: number; end: number }> = [];
  for (let day = 0; day < bounds.length - 1; day++) {
    const start = Math.max(span.start, bounds[day]);
    const end = Math.min(span.end, bounds[day + 1]);
    if (end > start) parts.push({ day, start, end });
  }
  return parts;
}

/** The part of [from, to) of a running total that lies over `limit`. */
const over = (before: number, added: number, limit: number) =>
  Math.max(0, before + added - limit) - Math.max(0, before - limit);

/**
 * Regular and overtime hours of a week. Paid time is taken in time order: a day's time over the
 * daily threshold is overtime; the rest counts toward the week, and the week's time after it
 * crosses the weekly threshold is overtime. An hour already overtime for its day does not
 * count toward the weekly threshold, so no hour is overtime twice.
 */
export function weekHours(
  spans: readonly PaidSpan[],
  rules: OvertimeRules,
  weekStart: string,
  timeZone: string,
  /** dayBounds(weekStart, timeZone), when the caller has them already (a team's week). */
  bounds: readonly number[] = dayBounds(weekStart, timeZone),
): WeekHours {
  const parts = spans.flatMap((s) => splitByDay(s, bounds)).sort((a, b) => a.start - b.start || a.end - b.end);
  const paid = new Array<number>(7).fill(0);
  const overtime = new Array<number>(7).fill(0);
  const weeklyLimit = rules.weeklyMinutes * 60_000;
  const dailyLimit = rules.dailyMinutes == null ? Infinity : rules.dailyMinutes * 60_000;
  let weekRegular = 0;
  for (const p of parts) {
    const length = p.end - p.start;
    const daily = over(paid[p.day], length, dailyLimit);
    const rest = length - daily;
    const weekly = over(weekRegular, rest, weeklyLimit);
    weekRegular += rest;
    paid[p.day] += length;
    overtime[p.day] += daily + weekly;
  }
  const days = weekDates(weekStart).map((date, i) => {
    const paidMinutes = Math.round(paid[i] / 60_000);
    const overtimeMinutes = Math.min(paidMinutes, Math.round(overtime[i] / 60_000));
    return { date, paidMinutes, regularMinutes: paidMinutes - overtimeMinutes, overtimeMinutes };
  });
  const sum = (k: "paidMinutes" | "regularMinutes" | "overtimeMinutes") => days.reduce((n, d) => n + d[k], 0);
  return {
    days,
    paidMinutes: sum("paidMinutes"),
    regularMinutes: sum("regularMinutes"),
    overtimeMinutes: sum("overtimeMinutes"),
  };
}

/** Minutes as decimal hours with two places ("7.50"), as a payroll import reads them. */
export function decimalHours(minutes: number): string {
  return (minutes / 60).toFixed(2);
}

/** Minutes as "7 h 30 min" (what a person reads). */
export function hoursAndMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** Index pairs of spans that overlap (each pair once): one person cannot be in two places. */
export function overlapping(spans: ReadonlyArray<{ start: number; end: number }>): Set<number> {
  const order = spans.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start);
  const flagged = new Set<number>();
  let reach = -Infinity;
  let reachIndex = -1;
  for (const s of order) {
    if (s.start < reach) {
      flagged.add(s.i);
      flagged.add(reachIndex);
    }
    if (s.end > reach) {
      reach = s.end;
      reachIndex = s.i;
    }
  }
  return flagged;
}
