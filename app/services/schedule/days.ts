// Calendar arithmetic on wall-clock strings ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM"): the board lays
// jobs out in the tenant's time zone, so its days and slots are the zone's, never the browser's.

export const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const utcOf = (date: string) => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));

export function isLocalDate(value: string): boolean {
  if (!LOCAL_DATE.test(value)) return false;
  return new Date(utcOf(value)).toISOString().slice(0, 10) === value;
}

/** A date plus whole days. */
export const addDays = (date: string, days: number) =>
  new Date(utcOf(date) + days * 86_400_000).toISOString().slice(0, 10);

/** The Monday of the date's week (weeks run Monday to Sunday, docs/decisions/131). */
export function weekStart(date: string): string {
  const dow = new Date(utcOf(date)).getUTCDay(); // 0 = Sunday
  return addDays(date, -((dow + 6) % 7));
}

/** Minutes since midnight of a "YYYY-MM-DDTHH:MM". */
export const minuteOfDay = (local: string) => Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));

/** "YYYY-MM-DDTHH:MM" of a date and minutes since its midnight (may run into the next days). */
export function atMinute(date: string, minutes: number): string {
  const day = addDays(date, Math.floor(minutes / 1440));
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${day}T${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** Snaps minutes to the board's 15-minute grid. */
export const SNAP_MINUTES = 15;
export const snap = (minutes: number) => Math.round(minutes / SNAP_MINUTES) * SNAP_MINUTES;

const WEEKDAY = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "UTC" });
const DAY_LONG = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const DAY_SHORT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "Tue", "Tuesday, June 16, 2026", "Jun 16" for a calendar date. */
export const weekdayName = (date: string) => WEEKDAY.format(utcOf(date));
export const longDate = (date: string) => DAY_LONG.format(utcOf(date));
export const shortDate = (date: string) => DAY_SHORT.format(utcOf(date));

/** "9:00 AM" for a wall-clock time. */
export function clock(local: string): string {
  const h = Number(local.slice(11, 13));
  const m = local.slice(14, 16);
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? "AM" : "PM"}`;
}

/** "9:00–11:00 AM", or "10:30 AM–12:00 PM" across noon: a card's time, as short as it reads. */
export function clockRange(start: string, end: string): string {
  const a = clock(start);
  const b = clock(end);
  return a.slice(-2) === b.slice(-2) && start.slice(0, 10) === end.slice(0, 10)
    ? `${a.slice(0, -3)}–${b}`
    : `${a}–${b}`;
}

/** Minutes between two wall-clock times (as if the day had no clock change: what a person counts). */
export function minutesBetween(a: string, b: string): number {
  const ms = (s: string) =>
    Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16));
  return Math.round((ms(b) - ms(a)) / 60_000);
}
