// Dates as other products write them (docs/decisions/220). Pure.
//
// A jobs export from Jobber, Housecall Pro or a QuickBooks-era spreadsheet carries its dates in
// the account's own format: "Nov 24, 2026", "24/11/2026 09:00", "11/24/2026 9:00 AM",
// "2026-11-24T09:00:00-05:00", "2026-11-24 09:00:00 -0500". A mapped jobs file turns them into
// section 5's date-times (ISO 8601, UTC) before the section 5 schema checks the row:
// - with an offset (Z, +01:00, -0500, UTC): that instant;
// - without one: the wall-clock time in the tenant's time zone;
// - a date without a time (Jobber's "anytime" visit): the whole day in the tenant's zone, from
//   00:00 for a start, to 23:59 for an end.
// Numeric dates are read day-first or month-first per column: a value above 12 in the first
// place settles day-first, in the second month-first; otherwise the preset's order (US products:
// month-first). A cell that is none of these is left as it is, so the section 5 check names it.
import { zonedToUtc } from "../../jobs/local-time";

export type DateOrder = "mdy" | "dmy";

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

// The time part shared by every layout: 9:00, 09:00:30, 9:00 AM, 9 pm, 09:00:00.000, then an
// optional offset (Z, UTC, GMT, +01:00, -0500).
const TIME = String.raw`(?:[T\s]+(\d{1,2})(?::(\d{2}))?(?::(\d{2})(?:[.,]\d{1,9})?)?\s*([ap]\.?m\.?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?`;
const ISO = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})${TIME}$`, "i");
const NUMERIC = new RegExp(String.raw`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})${TIME}$`, "i");
const WEEKDAY = String.raw`(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+)?`;
const MONTH_FIRST = new RegExp(
  String.raw`^${WEEKDAY}([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME.replace("[T\\s]+", "(?:\\s+|,\\s*|\\s+at\\s+)")}$`,
  "i",
);
const DAY_FIRST = new RegExp(
  String.raw`^${WEEKDAY}(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})${TIME.replace("[T\\s]+", "(?:\\s+|,\\s*|\\s+at\\s+)")}$`,
  "i",
);

interface Parts {
  y: number;
  mo: number;
  d: number;
  /** null: a date without a time. */
  h: number | null;
  mi: number;
  s: number;
  /** Minutes east of UTC, or null: the tenant's zone. */
  offset: number | null;
}

function month(name: string): number | null {
  const key = name.toLowerCase().slice(0, name.toLowerCase().startsWith("sept") ? 4 : 3);
  const n = MONTHS[key];
  if (!n) return null;
  // The whole word must be the month's name or its abbreviation ("Nov", "November", "Sept").
  const full = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ][n - 1];
  return full.startsWith(name.toLowerCase()) ? n : null;
}

function timeParts(m: RegExpExecArray, from: number): Pick<Parts, "h" | "mi" | "s" | "offset"> | null {
  const [hh, mm, ss, ampm, off] = m.slice(from, from + 5);
  let h: number | null = hh === undefined ? null : Number(hh);
  const mi = mm === undefined ? 0 : Number(mm);
  const s = ss === undefined ? 0 : Number(ss);
  if (h !== null && ampm) {
    if (h < 1 || h > 12) return null;
    const pm = ampm.toLowerCase().startsWith("p");
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h !== null && mm === undefined && !ampm) return null; // "2026-11-24 9" is not a time
  if ((h !== null && h > 23) || mi > 59 || s > 59) return null;
  let offset: number | null = null;
  if (off) {
    if (/^(z|utc|gmt)$/i.test(off)) offset = 0;
    else {
      const sign = off[0] === "-" ? -1 : 1;
      const digits = off.slice(1).replace(":", "");
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || "0");
      if (oh > 23 || om > 59) return null;
      offset = sign * (oh * 60 + om);
    }
  }
  if (offset !== null && h === null) return null; // an offset needs a time
  return { h, mi, s, offset };
}

/** The numeric date's first two numbers, when the cell is one ("24/11/2026 09:00" -> [24, 11]). */
export function numericDayMonth(cell: string): [number, number] | null {
  const m = NUMERIC.exec(cell.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The order of a column's numeric dates: day-first when a first number is above 12,
 * month-first when a second one is; `fallback` when no value settles it.
 */
export function dateOrderOf(
  cells: Iterable<string>,
  fallback: DateOrder,
): { order: DateOrder; settled: boolean; ambiguous: boolean } {
  let dmy = false;
  let mdy = false;
  let ambiguous = false;
  for (const cell of cells) {
    const p = numericDayMonth(cell);
    if (!p) continue;
    if (p[0] > 12) dmy = true;
    else if (p[1] > 12) mdy = true;
    else if (p[0] !== p[1]) ambiguous = true;
    if (dmy && mdy) break;
  }
  if (dmy !== mdy) return { order: dmy ? "dmy" : "mdy", settled: true, ambiguous: false };
  return { order: fallback, settled: false, ambiguous: ambiguous || (dmy && mdy) };
}

function partsOf(cell: string, order: DateOrder): Parts | null {
  const s = cell.trim();
  let m = ISO.exec(s);
  let y: number, mo: number | null, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = NUMERIC.exec(s))) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    [y, mo, d] = order === "dmy" ? [Number(m[3]), b, a] : [Number(m[3]), a, b];
  } else if ((m = MONTH_FIRST.exec(s))) [y, mo, d] = [Number(m[3]), month(m[1]), Number(m[2])];
  else if ((m = DAY_FIRST.exec(s))) [y, mo, d] = [Number(m[3]), month(m[2]), Number(m[1])];
  else return null;
  if (mo === null) return null;
  const t = timeParts(m, 4);
  if (!t) return null;
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || y > 2200 || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return { y, mo, d, ...t };
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The cell as a UTC ISO date-time (what section 5's `isoDateTime` stores), or null when it is
 * not a date this module reads. `end`: a date without a time is the end of that day.
 */
export function readDateTime(cell: string, opts: { order: DateOrder; timeZone: string; end?: boolean }): string | null {
  const p = partsOf(cell, opts.order);
  if (!p) return null;
  if (p.offset !== null) {
    return new Date(Date.UTC(p.y, p.mo - 1, p.d, p.h ?? 0, p.mi, p.s) - p.offset * 60_000).toISOString();
  }
  const [h, mi] = p.h === null ? (opts.end ? [23, 59] : [0, 0]) : [p.h, p.mi];
  const local = `${p.y}-${pad(p.mo)}-${pad(p.d)}T${pad(h)}:${pad(mi)}`;
  try {
    return new Date(zonedToUtc(local, opts.timeZone).getTime() + (p.h === null ? 0 : p.s * 1000)).toISOString();
  } catch {
    return null; // an unknown time zone: leave the cell to the section 5 check
  }
}
