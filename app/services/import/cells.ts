// The cell checks and the row-schema builder of the CSV import, in a module the browser can
// load: the records' field lists (app/services/customers/fields.ts) name a check per column, so
// a form validates with the very schema the import uses for the row, on both sides, and the
// line-item editor reuses the money, quantity and tax-rate checks. Pure: no database.
import { z } from "zod";
import { unescapeFormula } from "./csv-write";

// --- Cell checks ---------------------------------------------------------------------------

export class Invalid {
  constructor(readonly message: string) {}
}
export type Check<T> = (s: string) => T | Invalid;

export const SPACE_RUNS = /\s+/g;
const LINE_BREAKS = /\r\n?/g;

/** Printable ASCII without double spaces: nothing to collapse or normalise (the common case). */
function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || (c === 0x20 && s.charCodeAt(i + 1) === 0x20)) return false;
  }
  return true;
}

function clean(value: string | undefined, multiline: boolean): string | null {
  if (value === undefined) return null;
  const s = unescapeFormula(value.trim()).trim();
  if (s === "") return null;
  if (isPlain(s)) return s;
  return (multiline ? s.replace(LINE_BREAKS, "\n") : s.replace(SPACE_RUNS, " ")).normalize("NFC");
}

/** A column's check: raw cell (undefined when the column is absent) -> value or Invalid. */
export type Field<T> = (raw: string | undefined) => T | Invalid;

export const optional =
  <T>(check: Check<T>, multiline = false): Field<T | null> =>
  (raw) => {
    const s = clean(raw, multiline);
    return s === null ? null : check(s);
  };
export const withDefault =
  <T>(check: Check<T>, fallback: T): Field<T> =>
  (raw) => {
    const s = clean(raw, false);
    return s === null ? fallback : check(s);
  };
const REQUIRED = new Invalid("Required");
export const required =
  <T>(check: Check<T>): Field<T> =>
  (raw) => {
    const s = clean(raw, false);
    return s === null ? REQUIRED : check(s);
  };
/** Like optional, but undefined when the column is absent, so the either-or check can name
 * the column that is actually in the file. */
export const present = <T>(check: Check<T>): Field<T | null | undefined> => {
  const opt = optional(check);
  return (raw) => (raw === undefined ? undefined : opt(raw));
};

export const maxLen =
  (max: number): Check<string> =>
  (s) =>
    s.length <= max ? s : new Invalid(`At most ${max.toLocaleString("en-US")} characters (this has ${s.length})`);

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
export const email: Check<string> = (s) => {
  const e = s.toLowerCase();
  return e.length <= 254 && e.indexOf("@") <= 64 && EMAIL.test(e) ? e : new Invalid("Not a valid email address");
};

const PHONE = /^\+?[0-9 ().\-/]+(?:\s*(?:x|ext\.?|extension)\s*[0-9]{1,6})?$/i;
const NON_DIGITS = /\D/g;
export const phone: Check<string> = (s) => {
  const digits = s.replace(NON_DIGITS, "").length;
  return s.length <= 50 && PHONE.test(s) && digits >= 5 && digits <= 26
    ? s
    : new Invalid("Not a valid phone number (digits, spaces, + ( ) - . and an optional extension like x12)");
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function calendarOk(y: number, m: number, d: number): boolean {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}
export const isoDate: Check<string> = (s) => {
  const m = DATE.exec(s);
  if (!m) return new Invalid("Must be a date as YYYY-MM-DD");
  return calendarOk(+m[1], +m[2], +m[3]) ? s : new Invalid("Not a real calendar date");
};

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
// Files repeat date-times a lot (the same slots on many jobs) and toISOString is the costly
// part, so results are remembered (a small cache, emptied when full: a pure function).
const DATE_TIME_CACHE = new Map<string, string | Invalid>();
export const isoDateTime: Check<string> = (s) => {
  let v = DATE_TIME_CACHE.get(s);
  if (v === undefined) {
    if (DATE_TIME_CACHE.size >= 4096) DATE_TIME_CACHE.clear();
    DATE_TIME_CACHE.set(s, (v = parseDateTime(s)));
  }
  return v;
};
function parseDateTime(s: string): string | Invalid {
  const m = DATE_TIME.exec(s);
  if (!m)
    return new Invalid("Must be a date-time with a UTC offset, like 2026-07-06T08:00:00-05:00 or 2026-07-06T13:00:00Z");
  const [y, mo, d, h, mi, sec] = [+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0)];
  const offH = +(m[10] ?? 0);
  const offM = +(m[11] ?? 0);
  if (!calendarOk(y, mo, d) || h > 23 || mi > 59 || sec > 59 || offH > 23 || offM > 59) {
    return new Invalid("Not a real date and time");
  }
  const ms = +(m[7] ?? "0").slice(0, 3).padEnd(3, "0");
  const offset = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (offH * 60 + offM);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offset * 60_000).toISOString();
}

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;
const LEADING_ZEROS = /^0+/;
const NON_ZERO = /[1-9]/;

/** Parses "123.4" into an integer of 10^scale units, exactly (no float). */
function decimal(s: string, scale: number, maxIntDigits: number): number | "format" | "negative" | "large" {
  const m = DECIMAL.exec(s);
  if (!m || (m[2] === "" && !m[3]) || (m[3] !== undefined && (m[3].length === 0 || m[3].length > scale)))
    return "format";
  const int = m[2].replace(LEADING_ZEROS, "");
  if (m[1] === "-" && (int !== "" || NON_ZERO.test(m[3] ?? ""))) return "negative";
  if (int.length > maxIntDigits) return "large";
  return Number(int || "0") * 10 ** scale + Number((m[3] ?? "").padEnd(scale, "0") || "0");
}

export const money: Check<number> = (s) => {
  const v = decimal(s, 2, 8);
  if (v === "negative") return new Invalid("Must be 0 or more");
  if (v === "large") return new Invalid("Too large (at most 99999999.99)");
  if (v === "format")
    return new Invalid("Must be an amount like 1234.50: up to 2 decimals, no currency symbol or thousands separator");
  return v;
};

export const quantity: Check<number> = (s) => {
  const v = decimal(s, 3, 6);
  if (v === "format" || v === "negative")
    return new Invalid("Must be a number above 0 with up to 3 decimals, like 2.5");
  if (v === "large" || v > 100_000_000) return new Invalid("Too large (at most 100000)");
  return v === 0 ? new Invalid("Must be above 0") : v;
};

export const taxRate: Check<number> = (s) => {
  const v = decimal(s.endsWith("%") ? s.slice(0, -1).trimEnd() : s, 3, 3);
  if (v === "format" || v === "negative" || v === "large" || v > 100_000) {
    return new Invalid("Must be a percent from 0 to 100 with up to 3 decimals, like 8.25");
  }
  return v * 10; // thousandths of a percent -> parts per million
};

/** A discount's value, a percent or an amount (the type column says which): 0 or more with up to
 * 3 decimals, as integer thousandths ("10" -> 10000, "25.50" -> 25500). */
export const discountValue: Check<number> = (s) => {
  const v = decimal(s.endsWith("%") ? s.slice(0, -1).trimEnd() : s.replace(/^\$/, ""), 3, 8);
  if (v === "negative") return new Invalid("Must be 0 or more");
  if (v === "large") return new Invalid("Too large (at most 99999999.99)");
  if (v === "format") return new Invalid("Must be a number like 10 (percent) or 25.50 (amount)");
  return v;
};

export const oneOf =
  <V extends string>(values: readonly V[]): Check<V> =>
  (s) => {
    const v = s.toLowerCase();
    return (values as readonly string[]).includes(v) ? (v as V) : new Invalid(`Must be one of: ${values.join(", ")}`);
  };

/** yes / no (also true / false, y / n, 1 / 0), any case. */
export const yesNo: Check<boolean> = (s) => {
  const v = s.toLowerCase();
  if (v === "yes" || v === "y" || v === "true" || v === "1") return true;
  if (v === "no" || v === "n" || v === "false" || v === "0") return false;
  return new Invalid("Must be yes or no");
};
/** yes / no, or a form's ticked checkbox ("on"). */
export const yesNoOrTicked: Check<boolean> = (s) => (s.toLowerCase() === "on" ? true : yesNo(s));

const CURRENCIES: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : [],
);
const CURRENCY = /^[A-Z]{3}$/;
export const currency: Check<string> = (s) => {
  const c = s.toUpperCase();
  return CURRENCY.test(c) && (CURRENCIES.size === 0 || CURRENCIES.has(c))
    ? c
    : new Invalid("Must be a 3-letter ISO 4217 currency code, like USD or EUR");
};

// --- Schemas ---------------------------------------------------------------------------------

export type Spec = Record<string, Field<unknown>>;
export type Values<S extends Spec> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };
export type Issue = (column: string, message: string) => void;

/** What a failed column holds while the cross-column checks run. Those checks look only at
 * values of the expected type, so a failed column adds no second, confusing error. */
const FAILED = Symbol("failed");
/** A record: header -> raw cell. Unknown keys are ignored; a cell must be text or absent. */
const record = z.custom<Record<string, unknown>>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  "Expected a record",
);
const NOT_TEXT = new Invalid("Expected text");
/** U+0000 cannot be stored in PostgreSQL text: refused at the boundary. */
const NUL_CELL = new Invalid("Contains a character that cannot be stored (U+0000)");

/** A row's own checks without zod's machinery: the value, or the issues (column, message). */
export type RowCheck<R> = (
  raw: Record<string, unknown>,
) => { ok: true; value: R } | { ok: false; issues: [string, string][] };

/**
 * One zod schema per type: a record of raw cells (text, or absent when the file lacks the
 * column) with one transform that checks every column, then the cross-column rules, then
 * builds the typed row. The column checks are plain functions rather than a zod schema per
 * cell: at 50,000 rows, per-cell zod parsing and effects cost seconds in allocations. The
 * same check is exposed as `.check` (ROW_CHECKS) for validateRows' loop, which skips zod's
 * per-row contexts and wrappers; the schema is a thin wrapper of it, so both say the same.
 */
export function rowSchema<S extends Spec, R>(
  spec: S,
  toRow: (v: Values<S>) => R,
  cross?: (v: Values<S>, issue: Issue) => void,
) {
  const columns = Object.keys(spec);
  const check: RowCheck<R> = (raw) => {
    let issues: [string, string][] | null = null;
    const issue: Issue = (column, message) => {
      (issues ??= []).push([column, message]);
    };
    const values: Record<string, unknown> = {};
    for (const column of columns) {
      const cell = raw[column];
      const v =
        cell === undefined
          ? spec[column](cell)
          : typeof cell !== "string"
            ? NOT_TEXT
            : cell.includes("\u0000")
              ? NUL_CELL
              : spec[column](cell);
      if (v instanceof Invalid) {
        issue(column, v.message);
        values[column] = FAILED;
      } else values[column] = v;
    }
    cross?.(values as Values<S>, issue);
    return issues ? { ok: false, issues } : { ok: true, value: toRow(values as Values<S>) };
  };
  const schema = record.transform((raw, ctx): R => {
    const r = check(raw);
    if (r.ok) return r.value;
    for (const [column, message] of r.issues) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [column], message });
    return z.NEVER;
  });
  return Object.assign(schema, { check });
}

/** A zod string field checked by one of the cell checks above (the forms that share the import's rules). */
export const checked = <T>(check: Check<T>) =>
  z.string().transform((s, ctx) => {
    const v = check(s.trim());
    if (v instanceof Invalid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: v.message });
      return z.NEVER;
    }
    return v;
  });

/** A cell that may be left out: checked when present, null when absent. */
export const optionalChecked = <T>(check: Check<T>) =>
  checked(check)
    .optional()
    .transform((v) => v ?? null);
