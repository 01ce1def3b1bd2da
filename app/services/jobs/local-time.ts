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

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(ms: number, timeZone: string): number {
  const parts = dateTimeFormat({
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return wall - Math.floor(ms / 1000) * 1000;
}

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
export function utcToZoned(value: Date | string, timeZone: string): string {
  const parts = dateTimeFormat({
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(new Date(value));
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  return `${p("year")}-${p("month")}-${p("day")}T${p("hour")}:${p("minute")}`;
}

/** Today's calendar date in `timeZone`, `YYYY-MM-DD`. */
export function zonedToday(timeZone: string, now = new Date()): string {
  return utcToZoned(now, timeZone).slice(0, 10);
}
