import * as rruleModule from "rrule";
import type { Options, Weekday } from "rrule";
import { zonedToUtc } from "~/services/jobs/local-time";
import { WEEKDAYS, type RepeatInput } from "./repeat";

// A recurring job's rule (docs/decisions/315-recurring-visits.md): an RFC 5545 RRULE made and
// expanded by the `rrule` library over "floating" wall-clock times (a JS Date whose UTC fields
// are the wall clock), each occurrence then placed in the tenant's zone by zonedToUtc: a time a
// daylight-saving jump skips moves forward by the gap, a repeated one is the first; a day a
// month lacks (the 31st, a 5th Tuesday) is skipped by the rule itself, as RFC 5545 says.

// rrule ships CommonJS (its "module" build is for bundlers): Node's ESM loader gives the
// exports as the default export only.
const lib = ((rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule) as typeof rruleModule;
const { RRule } = lib;

/** A series never makes more visits than this at once (a series with an end is made in full). */
export const MAX_SERIES_VISITS = 1000;

const BYDAY: Record<(typeof WEEKDAYS)[number], Weekday> = {
  monday: RRule.MO,
  tuesday: RRule.TU,
  wednesday: RRule.WE,
  thursday: RRule.TH,
  friday: RRule.FR,
  saturday: RRule.SA,
  sunday: RRule.SU,
};
const BY_JS_DAY = [RRule.SU, RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA];

/** `YYYY-MM-DDTHH:MM` (or `YYYY-MM-DD HH:MM[:SS]`) as a floating Date. */
export function floating(local: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(local);
  if (!m) throw new Error(`not a wall-clock time: ${local}`);
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi));
}

/** A floating Date as `YYYY-MM-DDTHH:MM`. */
export const wallClock = (d: Date) => d.toISOString().slice(0, 16);

/** The RRULE (no DTSTART) for the job form's repeat fields, the first visit at `firstLocal`. */
export function ruleFor(repeat: RepeatInput, firstLocal: string): string {
  const kind = repeat.repeat;
  if (!kind || kind === "none") throw new Error("no repeat");
  const first = floating(firstLocal);
  const freq = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY, yearly: RRule.YEARLY }[kind];
  const options: Partial<Options> = { freq, interval: repeat.interval ?? 1 };
  const day = first.getUTCDate();
  if (repeat.repeat === "weekly")
    options.byweekday = repeat.weekdays?.length
      ? WEEKDAYS.filter((w) => repeat.weekdays!.includes(w)).map((w) => BYDAY[w])
      : [BY_JS_DAY[first.getUTCDay()]];
  if (repeat.repeat === "yearly") options.bymonth = first.getUTCMonth() + 1;
  if (repeat.repeat === "monthly" || repeat.repeat === "yearly") {
    // "The 2nd Tuesday" from the first visit's date; the 5th of a weekday is skipped where a month has none.
    if (repeat.monthlyBy === "weekday_of_month")
      options.byweekday = [BY_JS_DAY[first.getUTCDay()].nth(Math.ceil(day / 7))];
    else options.bymonthday = day;
  }
  if (repeat.endsAfter) options.count = repeat.endsAfter;
  else if (repeat.endsOn) options.until = floating(`${repeat.endsOn}T23:59`);
  return RRule.optionsToString(options).replace(/^RRULE:/, "");
}

export type SeriesRule = { rule: string; firstLocal: string };

function rruleOf(s: SeriesRule) {
  return new RRule({ ...RRule.parseString(s.rule), dtstart: floating(s.firstLocal) });
}

/** Whether the rule has an end (COUNT or UNTIL). */
export function ruleEnds(rule: string): boolean {
  const o = RRule.parseString(rule);
  return Boolean(o.count || o.until);
}

/**
 * The rule's wall-clock occurrences after `after` (exclusive) up to `until` (inclusive), both
 * wall-clock; at most `limit` (one more than `limit` tells the caller there are too many).
 */
export function occurrences(s: SeriesRule, opts: { after?: string; until?: string; limit?: number } = {}): string[] {
  const rule = rruleOf(s);
  const after = opts.after ? floating(opts.after) : null;
  const until = opts.until ? floating(opts.until) : null;
  const limit = opts.limit ?? MAX_SERIES_VISITS + 1;
  const out: string[] = [];
  rule.all((d) => {
    if (until && d > until) return false;
    if (!after || d > after) out.push(wallClock(d));
    return out.length < limit;
  });
  return out;
}

/** A wall-clock time plus minutes, as wall clock. */
export const addMinutes = (local: string, minutes: number) =>
  wallClock(new Date(floating(local).getTime() + minutes * 60_000));

/**
 * An occurrence as instants in `zone`: the start by the daylight-saving rules above, the end
 * `durationMinutes` of wall clock later (a multi-day visit ends at its wall-clock hour), never
 * before the start.
 */
export function placeOccurrence(local: string, durationMinutes: number, zone: string): { start: Date; end: Date } {
  const start = zonedToUtc(local, zone);
  let end = zonedToUtc(addMinutes(local, durationMinutes), zone);
  if (end <= start) end = new Date(start.getTime() + durationMinutes * 60_000);
  return { start, end };
}

/** The rule with its end replaced: `until` (wall clock, inclusive) or `count`; neither = open-ended. */
export function withEnd(rule: string, end: { until?: string; count?: number }): string {
  const o = RRule.parseString(rule);
  delete o.until;
  delete o.count;
  if (end.count) o.count = end.count;
  else if (end.until) o.until = floating(end.until);
  return RRule.optionsToString(o).replace(/^RRULE:/, "");
}

/** The COUNT of a rule, if any. */
export const ruleCount = (rule: string): number | null => RRule.parseString(rule).count ?? null;

/** "every 2 weeks on Monday, Wednesday for 10 times": the library's English text of the rule. */
export function describeRule(s: SeriesRule): string {
  try {
    return rruleOf(s).toText();
  } catch {
    return s.rule;
  }
}
