import { dateTimeFormat } from "~/utils/format";

// Wall-clock times in a tenant's time zone (`YYYY-MM-DDTHH:MM`, what <input type="datetime-local">
// sends) to and from UTC instants. Shared by the job form and the schedule.

export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Whether `value` is a real wall-clock time (no 31 April, no 24:30). */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60;
}

/** One formatter per zone (built once: the options object is the same every time). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = dateTimeFormat({
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset at an instant asked of Intl, in milliseconds (east positive). */
export function intlOffsetAt(ms: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return wall - Math.floor(ms / 1000) * 1000;
}

const DAY_MS = 86_400_000;
/**
 * A zone's offsets by UTC day, learnt from Intl once a day is first asked for: the offset at
 * the day's start and end and, on a day the zone changes its clocks, the second it changes.
 * (No zone changes its offset twice within one day.) A few hundred formatToParts calls per
 * zone and year replace four per conversion: the board and the recurrence worker convert
 * thousands of times a request.
 */
type ZoneDay = { before: number; after: number; at: number };
const zoneDays = new Map<string, Map<number, ZoneDay>>();
const MAX_DAYS_PER_ZONE = 20_000;

function zoneDay(day: number, timeZone: string): ZoneDay {
  let days = zoneDays.get(timeZone);
  if (!days) zoneDays.set(timeZone, (days = new Map()));
  let d = days.get(day);
  if (d) return d;
  const from = day * DAY_MS;
  const before = intlOffsetAt(from, timeZone);
  const after = intlOffsetAt(from + DAY_MS, timeZone);
  let at = from + DAY_MS;
  if (before !== after) {
    // The first second of the day with the new offset.
    let lo = from;
    let hi = from + DAY_MS;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (intlOffsetAt(mid, timeZone) === before) lo = mid;
      else hi = mid;
    }
    at = hi;
  }
  d = { before, after, at };
  if (days.size >= MAX_DAYS_PER_ZONE) days.clear();
  days.set(day, d);
  return d;
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function offsetAt(ms: number, timeZone: string): number {
  const d = zoneDay(Math.floor(ms / DAY_MS), timeZone);
  return ms < d.at ? d.before : d.after;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * The instant a wall-clock time in `timeZone` names. A time skipped by a daylight-saving jump
 * lands after the jump (02:30 on a spring-forward night is 03:30); a repeated one takes the
 * first occurrence.
 */
export function zonedToUtc(local: string, timeZone: string): Date {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) throw new Error(`not a local date-time: ${local}`);
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  const exact = [first, second].filter((c) => utcToZoned(new Date(c), timeZone) === local);
  return new Date(exact.length ? Math.min(...exact) : Math.max(first, second));
}

/** An instant as the wall-clock time of `timeZone`, `YYYY-MM-DDTHH:MM`. */
export function utcToZoned(value: Date | string | number, timeZone: string): string {
  const ms = new Date(value).getTime();
  if (!Number.isFinite(ms)) throw new RangeError("Invalid time value");
  const w = new Date(Math.floor(ms / 1000) * 1000 + offsetAt(ms, timeZone));
  const y = w.getUTCFullYear();
  if (y < 1000 || y > 9999) return intlZoned(ms, timeZone);
  return `${y}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}T${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

/** utcToZoned by Intl alone (the reference the cached offsets are tested against). */
export function intlZoned(value: Date | string | number, timeZone: string): string {
  const parts = formatterOf(timeZone).formatToParts(new Date(value));
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  return `${p("year")}-${p("month")}-${p("day")}T${p("hour")}:${p("minute")}`;
}

/** Today's calendar date in `timeZone`, `YYYY-MM-DD`. */
export function zonedToday(timeZone: string, now = new Date()): string {
  return utcToZoned(now, timeZone).slice(0, 10);
}
