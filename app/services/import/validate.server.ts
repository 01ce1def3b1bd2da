// Row validation for the CSV import (CONTRACT section 5). Pure: no database. Each type has one
// zod schema that turns a record (header -> raw cell) into a normalised row; validateRows adds
// the checks that span rows (duplicates in the file, quote and invoice documents).
//
// Normalised values, chosen so the database layer stores them as they are:
// - text: trimmed, inner whitespace runs collapsed to one space (multi-line fields keep line
//   breaks as LF), Unicode NFC, empty -> null. A leading `'` that our exports put before
//   = + - @ tab CR (CSV-injection escape) is removed, so an export imports back unchanged.
// - emails: lower-cased. Dates: "YYYY-MM-DD" (real calendar dates, years 1900..2200).
//   Date-times: ISO 8601 with an offset, stored as a UTC ISO string "2026-07-06T13:00:00.000Z"
//   (fractions of a second beyond milliseconds are cut).
// - money: integer cents, parsed from the digits (never through a float), 0..99,999,999.99.
// - quantity: integer thousandths ("milli": 2.5 -> 2500), above 0, at most 100,000.
// - tax_rate: a percent with up to 3 decimals stored as integer parts per million of the
//   amount (8.25% -> 82,500 ppm; 100% -> 1,000,000). It is a LINE-level column (labour and
//   materials are often taxed differently), so rows of one document may differ on it.
// - enums (status, role) and currency: case-insensitive on input, stored lower / upper case.
// - length limits count UTF-16 units (an emoji counts 2), so never under PostgreSQL's count.
import { z } from "zod";
import { INVOICE_STATUSES, type InvoiceStatus, type JobStatus, type QuoteStatus, type Role } from "../../../db/enums";
import { IMPORT_LIMITS, type ImportType } from "./columns";
import { unescapeFormula } from "./csv-write";
import type { PropertyDraft } from "./mapping/apply.server";
import { parseCsv, type CsvInput, type CsvRecord, type FileError, type ParseLimits, type RowError } from "./parse.server";

export type { RowError } from "./parse.server";

// The states a file may give (subsets of db/enums.ts: an import never starts a job on the road,
// nor stores a derived `expired`, nor makes a second owner).
export const IMPORT_JOB_STATUSES = ["unscheduled", "scheduled", "completed", "cancelled"] as const satisfies readonly JobStatus[];
export const IMPORT_QUOTE_STATUSES = ["draft", "sent", "approved", "declined"] as const satisfies readonly QuoteStatus[];
export const TEAM_ROLES = ["admin", "office", "technician"] as const satisfies readonly Role[];
type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];
type ImportQuoteStatus = (typeof IMPORT_QUOTE_STATUSES)[number];
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface CustomerRow {
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  notes: string | null;
  externalId: string | null;
  /** Service properties, from a file mapped from another product's export (section 14). */
  properties?: PropertyDraft[];
}

/** At least one of customerEmail / customerExternalId is set. When both are, both must name
 * the same customer (the database layer checks that while resolving). */
interface CustomerRef {
  customerEmail: string | null;
  customerExternalId: string | null;
}

export interface JobRow extends CustomerRef {
  title: string;
  description: string | null;
  status: ImportJobStatus;
  /** UTC ISO strings. */
  scheduledStart: string | null;
  scheduledEnd: string | null;
  assigneeEmail: string | null;
  address: string | null;
  externalId: string | null;
}

interface LineFields {
  itemDescription: string;
  itemQuantityMilli: number;
  itemUnitPriceCents: number;
  taxRatePpm: number;
}

/** One CSV row of a quote: document fields (equal on every row of the number) + one line. */
export interface QuoteLineRow extends CustomerRef, LineFields {
  number: string;
  title: string | null;
  status: ImportQuoteStatus;
  issueDate: string | null;
  validUntil: string | null;
  currency: string;
  notes: string | null;
}

export interface InvoiceLineRow extends CustomerRef, LineFields {
  number: string;
  status: InvoiceStatus;
  issueDate: string | null;
  dueDate: string | null;
  currency: string;
  /** As written; the document resolves it (see InvoiceDocument.amountPaidCents). */
  amountPaidCents: number | null;
}

export interface TeamMemberRow {
  name: string;
  email: string;
  role: TeamRole;
  phone: string | null;
  hourlyRateCents: number | null;
}

export interface RowValues {
  customers: CustomerRow;
  jobs: JobRow;
  quotes: QuoteLineRow;
  invoices: InvoiceLineRow;
  team: TeamMemberRow;
}

/** `values` is null when the row failed its own checks; a row that passed them but clashes
 * with another row (duplicate, disagreeing document) keeps its values with ok = false. */
export interface ValidatedRow<V> {
  rowNumber: number;
  ok: boolean;
  values: V | null;
  raw: Record<string, string>;
}

export interface LineItem {
  rowNumber: number;
  /** 1-based, in file order. */
  position: number;
  description: string;
  quantityMilli: number;
  unitPriceCents: number;
  taxRatePpm: number;
  /** round_half_up(quantityMilli * unitPriceCents / 1000) */
  lineSubtotalCents: number;
  /** round_half_up(lineSubtotalCents * taxRatePpm / 1,000,000) */
  lineTaxCents: number;
  lineTotalCents: number;
}

/** Totals are sums of the rounded lines, so they always equal what the lines show. */
interface DocumentBase extends CustomerRef {
  number: string;
  rowNumbers: number[];
  /** False when a row of this number has an error; items then hold only the good rows. */
  ok: boolean;
  currency: string;
  issueDate: string | null;
  items: LineItem[];
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

export interface QuoteDocument extends DocumentBase {
  title: string | null;
  status: ImportQuoteStatus;
  validUntil: string | null;
  notes: string | null;
}

export interface InvoiceDocument extends DocumentBase {
  status: InvoiceStatus;
  dueDate: string | null;
  /** Resolved: empty means the total for paid and 0 otherwise. */
  amountPaidCents: number;
  balanceCents: number;
}

interface ResultBase<T extends ImportType> {
  type: T;
  rows: ValidatedRow<RowValues[T]>[];
  /** Every row error, parse errors (cell count, quotes) included, sorted by row. */
  errors: RowError[];
}

export type ValidationResult =
  | ResultBase<"customers">
  | ResultBase<"jobs">
  | ResultBase<"team">
  | (ResultBase<"quotes"> & { documents: QuoteDocument[] })
  | (ResultBase<"invoices"> & { documents: InvoiceDocument[] });

export type ValidationResultFor<T extends ImportType> = Extract<ValidationResult, { type: T }>;

// --- Cell checks ---------------------------------------------------------------------------

class Invalid {
  constructor(readonly message: string) {}
}
type Check<T> = (s: string) => T | Invalid;

const SPACE_RUNS = /\s+/g;
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
type Field<T> = (raw: string | undefined) => T | Invalid;

const optional =
  <T>(check: Check<T>, multiline = false): Field<T | null> =>
  (raw) => {
    const s = clean(raw, multiline);
    return s === null ? null : check(s);
  };
const withDefault =
  <T>(check: Check<T>, fallback: T): Field<T> =>
  (raw) => {
    const s = clean(raw, false);
    return s === null ? fallback : check(s);
  };
const REQUIRED = new Invalid("Required");
const required =
  <T>(check: Check<T>): Field<T> =>
  (raw) => {
    const s = clean(raw, false);
    return s === null ? REQUIRED : check(s);
  };
/** Like optional, but undefined when the column is absent, so the either-or check can name
 * the column that is actually in the file. */
const present = <T>(check: Check<T>): Field<T | null | undefined> => {
  const opt = optional(check);
  return (raw) => (raw === undefined ? undefined : opt(raw));
};

const maxLen =
  (max: number): Check<string> =>
  (s) =>
    s.length <= max ? s : new Invalid(`At most ${max.toLocaleString("en-US")} characters (this has ${s.length})`);

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const email: Check<string> = (s) => {
  const e = s.toLowerCase();
  return e.length <= 254 && e.indexOf("@") <= 64 && EMAIL.test(e) ? e : new Invalid("Not a valid email address");
};

const PHONE = /^\+?[0-9 ().\-/]+(?:\s*(?:x|ext\.?|extension)\s*[0-9]{1,6})?$/i;
const NON_DIGITS = /\D/g;
const phone: Check<string> = (s) => {
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
const isoDate: Check<string> = (s) => {
  const m = DATE.exec(s);
  if (!m) return new Invalid("Must be a date as YYYY-MM-DD");
  return calendarOk(+m[1], +m[2], +m[3]) ? s : new Invalid("Not a real calendar date");
};

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
// Files repeat date-times a lot (the same slots on many jobs) and toISOString is the costly
// part, so results are remembered (a small cache, emptied when full: a pure function).
const DATE_TIME_CACHE = new Map<string, string | Invalid>();
const isoDateTime: Check<string> = (s) => {
  let v = DATE_TIME_CACHE.get(s);
  if (v === undefined) {
    if (DATE_TIME_CACHE.size >= 4096) DATE_TIME_CACHE.clear();
    DATE_TIME_CACHE.set(s, (v = parseDateTime(s)));
  }
  return v;
};
function parseDateTime(s: string): string | Invalid {
  const m = DATE_TIME.exec(s);
  if (!m) return new Invalid("Must be a date-time with a UTC offset, like 2026-07-06T08:00:00-05:00 or 2026-07-06T13:00:00Z");
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
  if (!m || (m[2] === "" && !m[3]) || (m[3] !== undefined && (m[3].length === 0 || m[3].length > scale))) return "format";
  const int = m[2].replace(LEADING_ZEROS, "");
  if (m[1] === "-" && (int !== "" || NON_ZERO.test(m[3] ?? ""))) return "negative";
  if (int.length > maxIntDigits) return "large";
  return Number(int || "0") * 10 ** scale + Number((m[3] ?? "").padEnd(scale, "0") || "0");
}

const money: Check<number> = (s) => {
  const v = decimal(s, 2, 8);
  if (v === "negative") return new Invalid("Must be 0 or more");
  if (v === "large") return new Invalid("Too large (at most 99999999.99)");
  if (v === "format") return new Invalid("Must be an amount like 1234.50: up to 2 decimals, no currency symbol or thousands separator");
  return v;
};

const quantity: Check<number> = (s) => {
  const v = decimal(s, 3, 6);
  if (v === "format" || v === "negative") return new Invalid("Must be a number above 0 with up to 3 decimals, like 2.5");
  if (v === "large" || v > 100_000_000) return new Invalid("Too large (at most 100000)");
  return v === 0 ? new Invalid("Must be above 0") : v;
};

const taxRate: Check<number> = (s) => {
  const v = decimal(s.endsWith("%") ? s.slice(0, -1).trimEnd() : s, 3, 3);
  if (v === "format" || v === "negative" || v === "large" || v > 100_000) {
    return new Invalid("Must be a percent from 0 to 100 with up to 3 decimals, like 8.25");
  }
  return v * 10; // thousandths of a percent -> parts per million
};

const oneOf =
  <V extends string>(values: readonly V[]): Check<V> =>
  (s) => {
    const v = s.toLowerCase();
    return (values as readonly string[]).includes(v) ? (v as V) : new Invalid(`Must be one of: ${values.join(", ")}`);
  };

const CURRENCIES: ReadonlySet<string> = new Set(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : []);
const CURRENCY = /^[A-Z]{3}$/;
const currency: Check<string> = (s) => {
  const c = s.toUpperCase();
  return CURRENCY.test(c) && (CURRENCIES.size === 0 || CURRENCIES.has(c))
    ? c
    : new Invalid("Must be a 3-letter ISO 4217 currency code, like USD or EUR");
};

// --- Schemas ---------------------------------------------------------------------------------

type Spec = Record<string, Field<unknown>>;
type Values<S extends Spec> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };
type Issue = (column: string, message: string) => void;

/** What a failed column holds while the cross-column checks run. Those checks look only at
 * values of the expected type, so a failed column adds no second, confusing error. */
const FAILED = Symbol("failed");
/** A record: header -> raw cell. Unknown keys are ignored; a cell must be text or absent. */
const record = z.custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), "Expected a record");
const NOT_TEXT = new Invalid("Expected text");
/** U+0000 cannot be stored in PostgreSQL text: refused at the boundary (issue 24). */
const NUL_CELL = new Invalid("Contains a character that cannot be stored (U+0000)");

/** A row's own checks without zod's machinery: the value, or the issues (column, message). */
type RowCheck<R> = (raw: Record<string, unknown>) => { ok: true; value: R } | { ok: false; issues: [string, string][] };

/**
 * One zod schema per type: a record of raw cells (text, or absent when the file lacks the
 * column) with one transform that checks every column, then the cross-column rules, then
 * builds the typed row. The column checks are plain functions rather than a zod schema per
 * cell: at 50,000 rows, per-cell zod parsing and effects cost seconds in allocations. The
 * same check is exposed as `.check` (ROW_CHECKS) for validateRows' loop, which skips zod's
 * per-row contexts and wrappers; the schema is a thin wrapper of it, so both say the same.
 */
function rowSchema<S extends Spec, R>(spec: S, toRow: (v: Values<S>) => R, cross?: (v: Values<S>, issue: Issue) => void) {
  const columns = Object.keys(spec);
  const check: RowCheck<R> = (raw) => {
    let issues: [string, string][] | null = null;
    const issue: Issue = (column, message) => {
      (issues ??= []).push([column, message]);
    };
    const values: Record<string, unknown> = {};
    for (const column of columns) {
      const cell = raw[column];
      const v = cell === undefined ? spec[column](cell) : typeof cell !== "string" ? NOT_TEXT : cell.includes("\u0000") ? NUL_CELL : spec[column](cell);
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

function requireCustomer(r: { customer_email?: string | null; customer_external_id?: string | null }, issue: Issue) {
  if (r.customer_email || r.customer_external_id) return;
  issue(r.customer_email !== undefined ? "customer_email" : "customer_external_id", "customer_email or customer_external_id is required");
}

function notBefore(issue: Issue, later: unknown, earlier: unknown, column: string, earlierColumn: string) {
  if (typeof later === "string" && typeof earlier === "string" && later < earlier) issue(column, `Must not be before ${earlierColumn}`);
}

const customerRefShape = { customer_email: present(email), customer_external_id: present(maxLen(100)) };
const customerRef = (r: { customer_email?: string | null; customer_external_id?: string | null }): CustomerRef => ({
  customerEmail: r.customer_email ?? null,
  customerExternalId: r.customer_external_id ?? null,
});

const lineShape = {
  item_description: required(maxLen(1000)),
  item_quantity: withDefault(quantity, 1000),
  item_unit_price: required(money),
  tax_rate: withDefault(taxRate, 0),
};
const lineFields = (r: { item_description: string; item_quantity: number; item_unit_price: number; tax_rate: number }): LineFields => ({
  itemDescription: r.item_description,
  itemQuantityMilli: r.item_quantity,
  itemUnitPriceCents: r.item_unit_price,
  taxRatePpm: r.tax_rate,
});

const SPECS = {
  customers: {
    name: required(maxLen(200)),
    company: optional(maxLen(200)),
    email: optional(email),
    phone: optional(phone),
    address_line1: optional(maxLen(200)),
    address_line2: optional(maxLen(200)),
    city: optional(maxLen(100)),
    region: optional(maxLen(100)),
    postal_code: optional(maxLen(20)),
    country: optional(maxLen(100)),
    notes: optional(maxLen(5000), true),
    external_id: optional(maxLen(100)),
  },
  jobs: {
    title: required(maxLen(200)),
    ...customerRefShape,
    description: optional(maxLen(5000), true),
    status: optional(oneOf(IMPORT_JOB_STATUSES)),
    scheduled_start: optional(isoDateTime),
    scheduled_end: optional(isoDateTime),
    assignee_email: optional(email),
    address: optional(maxLen(500)),
    external_id: optional(maxLen(100)),
  },
  quotes: {
    number: required(maxLen(50)),
    ...customerRefShape,
    title: optional(maxLen(200)),
    status: withDefault(oneOf(IMPORT_QUOTE_STATUSES), "draft"),
    issue_date: optional(isoDate),
    valid_until: optional(isoDate),
    currency: withDefault(currency, "USD"),
    ...lineShape,
    notes: optional(maxLen(5000), true),
  },
  invoices: {
    number: required(maxLen(50)),
    ...customerRefShape,
    status: withDefault(oneOf(INVOICE_STATUSES), "draft"),
    issue_date: optional(isoDate),
    due_date: optional(isoDate),
    currency: withDefault(currency, "USD"),
    ...lineShape,
    amount_paid: optional(money),
  },
  team: {
    name: required(maxLen(200)),
    email: required(email),
    role: required(oneOf(TEAM_ROLES)),
    phone: optional(phone),
    hourly_rate: optional(money),
  },
};

export const customerSchema = rowSchema(
  SPECS.customers,
  (r): CustomerRow => ({
    name: r.name,
    company: r.company,
    email: r.email,
    phone: r.phone,
    addressLine1: r.address_line1,
    addressLine2: r.address_line2,
    city: r.city,
    region: r.region,
    postalCode: r.postal_code,
    country: r.country,
    notes: r.notes,
    externalId: r.external_id,
  }),
);

export const jobSchema = rowSchema(
  SPECS.jobs,
  (r): JobRow => ({
    title: r.title,
    ...customerRef(r),
    description: r.description,
    status: r.status ?? (r.scheduled_start ? "scheduled" : "unscheduled"),
    scheduledStart: r.scheduled_start,
    scheduledEnd: r.scheduled_end,
    assigneeEmail: r.assignee_email,
    address: r.address,
    externalId: r.external_id,
  }),
  (r, issue) => {
    requireCustomer(r, issue);
    if (r.scheduled_end && !r.scheduled_start) issue("scheduled_end", "Needs a scheduled_start");
    notBefore(issue, r.scheduled_end, r.scheduled_start, "scheduled_end", "scheduled_start");
    if (r.status === "scheduled" && !r.scheduled_start) issue("scheduled_start", "Required when status is scheduled");
    // A job cannot be both unscheduled and on the calendar; say so rather than drop a time.
    if (r.status === "unscheduled" && typeof r.scheduled_start === "string") issue("status", "Is unscheduled, but scheduled_start is given");
  },
);

export const quoteSchema = rowSchema(
  SPECS.quotes,
  (r): QuoteLineRow => ({
    number: r.number,
    ...customerRef(r),
    title: r.title,
    status: r.status,
    issueDate: r.issue_date,
    validUntil: r.valid_until,
    currency: r.currency,
    notes: r.notes,
    ...lineFields(r),
  }),
  (r, issue) => {
    requireCustomer(r, issue);
    notBefore(issue, r.valid_until, r.issue_date, "valid_until", "issue_date");
  },
);

// amount_paid against status. Row level (needs no total): draft and sent take empty or 0
// (money received makes an invoice partial or paid); partial needs an amount above 0.
// Document level (needs the total, see buildDocuments): never above the total; paid equals
// the total (empty = the total); partial below the total; void any amount up to the total
// (payments may have been taken before voiding; empty = 0).
export const invoiceSchema = rowSchema(
  SPECS.invoices,
  (r): InvoiceLineRow => ({
    number: r.number,
    ...customerRef(r),
    status: r.status,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    currency: r.currency,
    amountPaidCents: r.amount_paid,
    ...lineFields(r),
  }),
  (r, issue) => {
    requireCustomer(r, issue);
    notBefore(issue, r.due_date, r.issue_date, "due_date", "issue_date");
    if ((r.status === "draft" || r.status === "sent") && typeof r.amount_paid === "number" && r.amount_paid > 0) {
      issue("amount_paid", `Must be empty or 0 while the invoice is ${r.status} (use partial or paid)`);
    }
    if (r.status === "partial" && !r.amount_paid) issue("amount_paid", "Required (above 0) when status is partial");
  },
);

export const teamMemberSchema = rowSchema(
  SPECS.team,
  (r): TeamMemberRow => ({
    name: r.name,
    email: r.email,
    role: r.role,
    phone: r.phone,
    hourlyRateCents: r.hourly_rate,
  }),
);

export const ROW_SCHEMAS: { [K in ImportType]: z.ZodType<RowValues[K], z.ZodTypeDef, unknown> } = {
  customers: customerSchema,
  jobs: jobSchema,
  quotes: quoteSchema,
  invoices: invoiceSchema,
  team: teamMemberSchema,
};

/** The schemas' checks, for the hot loop of validateRows (same rules, no zod per row). */
const ROW_CHECKS: { [K in ImportType]: RowCheck<RowValues[K]> } = {
  customers: customerSchema.check,
  jobs: jobSchema.check,
  quotes: quoteSchema.check,
  invoices: invoiceSchema.check,
  team: teamMemberSchema.check,
};

// --- Keys the database layer resolves or checks ------------------------------------------

export type ReferenceTarget = "customer.email" | "customer.externalId" | "user.email";
export interface ReferenceKey {
  column: string;
  field: string;
  target: ReferenceTarget;
}

const CUSTOMER_REFERENCES: readonly ReferenceKey[] = [
  { column: "customer_email", field: "customerEmail", target: "customer.email" },
  { column: "customer_external_id", field: "customerExternalId", target: "customer.externalId" },
];

/** What each row points at, to resolve with one query per target (emails are lower-case). */
export const REFERENCE_KEYS: Record<ImportType, readonly ReferenceKey[]> = {
  customers: [],
  team: [],
  jobs: [...CUSTOMER_REFERENCES, { column: "assignee_email", field: "assigneeEmail", target: "user.email" }],
  quotes: CUSTOMER_REFERENCES,
  invoices: CUSTOMER_REFERENCES,
};

export interface UniqueKey {
  column: string;
  field: string;
}

/** Values that must not exist in the tenant yet (CONTRACT: no silent duplicates). Emails are
 * compared lower-case; external ids and document numbers exactly. */
export const UNIQUE_KEYS: Record<ImportType, readonly UniqueKey[]> = {
  customers: [
    { column: "external_id", field: "externalId" },
    { column: "email", field: "email" },
  ],
  team: [{ column: "email", field: "email" }],
  jobs: [{ column: "external_id", field: "externalId" }],
  quotes: [{ column: "number", field: "number" }],
  invoices: [{ column: "number", field: "number" }],
};

function distinctValues(rows: readonly ValidatedRow<object>[], field: string): string[] {
  const out = new Set<string>();
  for (const row of rows) {
    const v = row.values ? (row.values as Record<string, unknown>)[field] : null;
    if (typeof v === "string") out.add(v);
  }
  return [...out];
}

/** Distinct referenced values per target, from the rows that have values. */
export function collectReferences(type: ImportType, rows: readonly ValidatedRow<object>[]): Record<ReferenceTarget, string[]> {
  const out: Record<ReferenceTarget, string[]> = { "customer.email": [], "customer.externalId": [], "user.email": [] };
  for (const key of REFERENCE_KEYS[type]) out[key.target] = distinctValues(rows, key.field);
  return out;
}

/** Distinct values per unique column (e.g. `{email: [...], external_id: [...]}`). */
export function collectUniqueValues(type: ImportType, rows: readonly ValidatedRow<object>[]): Record<string, string[]> {
  return Object.fromEntries(UNIQUE_KEYS[type].map((k) => [k.column, distinctValues(rows, k.field)]));
}

// --- Validation across rows --------------------------------------------------------------

export type AnyRow = ValidatedRow<Record<string, unknown>>;

/** A key column's normalised value, also for a row that failed on other columns, so a
 * duplicate is reported at once rather than after the other errors are fixed. */
export function keyValue(type: ImportType, row: AnyRow, column: string, field: string): string | null {
  if (row.values) return (row.values[field] as string | null) ?? null;
  const cell = row.raw[column];
  const v = typeof cell === "string" ? (SPECS[type] as Spec)[column](cell) : null;
  return typeof v === "string" ? v : null;
}

function reject(row: AnyRow, errors: RowError[], column: string | null, message: string) {
  row.ok = false;
  errors.push({ row: row.rowNumber, column, message });
}

/** The import types whose rows are records of their own (quotes and invoices group rows into documents). */
type RowImportType = Exclude<ImportType, "quotes" | "invoices">;

function findDuplicates(type: RowImportType, rows: AnyRow[], errors: RowError[]) {
  for (const { column, field } of UNIQUE_KEYS[type]) {
    const first = new Map<string, number>();
    for (const row of rows) {
      const v = keyValue(type, row, column, field);
      if (v === null) continue;
      const seen = first.get(v);
      if (seen === undefined) first.set(v, row.rowNumber);
      else reject(row, errors, column, `Same ${column} as row ${seen}`);
    }
  }
}

// Document grouping: rows whose `number` is equal (exactly, after trimming) form one document.
// They must agree on these columns, compared after normalisation and defaults ("usd" = "USD",
// empty status = "draft"), but empty and a value differ (amount_paid "" vs "0" too: repeat
// the value on every row). Line columns (item_*, tax_rate) may differ.
const DOC_COLUMNS = {
  quotes: [
    ["customer_email", "customerEmail"],
    ["customer_external_id", "customerExternalId"],
    ["title", "title"],
    ["status", "status"],
    ["issue_date", "issueDate"],
    ["valid_until", "validUntil"],
    ["currency", "currency"],
    ["notes", "notes"],
  ],
  invoices: [
    ["customer_email", "customerEmail"],
    ["customer_external_id", "customerExternalId"],
    ["status", "status"],
    ["issue_date", "issueDate"],
    ["due_date", "dueDate"],
    ["currency", "currency"],
    ["amount_paid", "amountPaidCents"],
  ],
} as const;

export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function show(field: string, v: unknown): string {
  if (v === null || v === undefined) return "empty";
  if (field === "amountPaidCents") return formatCents(v as number);
  const s = String(v).replace(SPACE_RUNS, " ");
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
}

/** Round half up for non-negative n: floor(n / d + 1/2). */
const roundHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

function buildDocuments(type: "quotes" | "invoices", rows: AnyRow[], errors: RowError[]): (QuoteDocument | InvoiceDocument)[] {
  const label = type === "quotes" ? "quote" : "invoice";
  const groups = new Map<string, { rowNumbers: number[]; ok: boolean; lines: AnyRow[] }>();
  for (const row of rows) {
    const number = keyValue(type, row, "number", "number");
    if (number === null) continue;
    let g = groups.get(number);
    if (!g) groups.set(number, (g = { rowNumbers: [], ok: true, lines: [] }));
    g.rowNumbers.push(row.rowNumber);
    if (!row.ok || !row.values) {
      g.ok = false;
      continue;
    }
    const ref = g.lines[0];
    if (ref?.values) {
      // The first good row of a number defines the document; later rows must agree.
      let agrees = true;
      for (const [column, field] of DOC_COLUMNS[type]) {
        if (row.values[field] !== ref.values[field]) {
          reject(row, errors, column, `Differs from row ${ref.rowNumber} of ${label} ${number}, which has ${show(field, ref.values[field])}`);
          agrees = false;
        }
      }
      if (!agrees) {
        g.ok = false;
        continue;
      }
    }
    g.lines.push(row);
  }

  const documents: (QuoteDocument | InvoiceDocument)[] = [];
  for (const [number, g] of groups) {
    const ref = g.lines[0];
    if (!ref?.values) continue;
    let subtotal = 0n;
    let tax = 0n;
    const items: LineItem[] = g.lines.map((row, i) => {
      const v = row.values as unknown as LineFields;
      const lineSubtotal = roundHalfUp(BigInt(v.itemQuantityMilli) * BigInt(v.itemUnitPriceCents), 1000n);
      const lineTax = roundHalfUp(lineSubtotal * BigInt(v.taxRatePpm), 1_000_000n);
      subtotal += lineSubtotal;
      tax += lineTax;
      return {
        rowNumber: row.rowNumber,
        position: i + 1,
        description: v.itemDescription,
        quantityMilli: v.itemQuantityMilli,
        unitPriceCents: v.itemUnitPriceCents,
        taxRatePpm: v.taxRatePpm,
        lineSubtotalCents: Number(lineSubtotal),
        lineTaxCents: Number(lineTax),
        lineTotalCents: Number(lineSubtotal + lineTax),
      };
    });
    let ok = g.ok;
    if (subtotal + tax > BigInt(Number.MAX_SAFE_INTEGER)) {
      reject(ref, errors, "item_unit_price", `The total of ${label} ${number} is too large`);
      ok = false;
    }
    const totalCents = Number(subtotal + tax);
    const base = {
      number,
      rowNumbers: g.rowNumbers,
      ok,
      customerEmail: ref.values.customerEmail as string | null,
      customerExternalId: ref.values.customerExternalId as string | null,
      currency: ref.values.currency as string,
      issueDate: ref.values.issueDate as string | null,
      items,
      subtotalCents: Number(subtotal),
      taxCents: Number(tax),
      totalCents,
    };
    if (type === "quotes") {
      const q = ref.values as unknown as QuoteLineRow;
      documents.push({ ...base, title: q.title, status: q.status, validUntil: q.validUntil, notes: q.notes });
      continue;
    }
    const inv = ref.values as unknown as InvoiceLineRow;
    const total = formatCents(totalCents);
    let paid = inv.amountPaidCents ?? (inv.status === "paid" ? totalCents : 0);
    let problem: string | null = null;
    if (paid > totalCents) problem = `Cannot be more than the invoice total (${total})`;
    else if (inv.status === "paid" && paid !== totalCents) problem = `Must equal the invoice total (${total}) when status is paid`;
    else if (inv.status === "partial" && paid >= totalCents) problem = `Must be below the invoice total (${total}) when status is partial`;
    if (problem) {
      reject(ref, errors, "amount_paid", problem);
      base.ok = false;
      paid = Math.min(paid, totalCents);
    }
    documents.push({ ...base, status: inv.status, dueDate: inv.dueDate, amountPaidCents: paid, balanceCents: totalCents - paid });
  }
  return documents;
}

export function validateRows<T extends ImportType>(type: T, records: readonly CsvRecord[]): ValidationResultFor<T> {
  const check = ROW_CHECKS[type] as unknown as RowCheck<Record<string, unknown>>;
  const rows: AnyRow[] = [];
  const errors: RowError[] = [];
  for (const record of records) {
    const row: AnyRow = { rowNumber: record.row, ok: false, values: null, raw: record.values };
    rows.push(row);
    if (record.error) {
      errors.push({ row: record.row, column: null, message: record.error });
      continue;
    }
    const r = check(record.values);
    if (r.ok) {
      row.ok = true;
      row.values = r.value;
    } else {
      for (const [column, message] of r.issues) errors.push({ row: record.row, column, message });
    }
  }
  let documents: (QuoteDocument | InvoiceDocument)[] | undefined;
  if (type === "quotes" || type === "invoices") documents = buildDocuments(type, rows, errors);
  else findDuplicates(type as RowImportType, rows, errors);
  errors.sort((a, b) => a.row - b.row); // stable: within a row, in the order found
  const result = documents ? { type, rows, errors, documents } : { type, rows, errors };
  return result as unknown as ValidationResultFor<T>;
}

export type AnalysedCsv<T extends ImportType> = FileError | ({ ok: true; headers: string[]; warnings: string[] } & ValidationResultFor<T>);

/** parseCsv + validateRows: what the preview stores (or the file error it shows). */
export async function analyseCsv<T extends ImportType>(type: T, input: CsvInput, limits: ParseLimits = IMPORT_LIMITS): Promise<AnalysedCsv<T>> {
  const parsed = await parseCsv(input, { ...limits, type });
  if (!parsed.ok) return parsed;
  return { ok: true, headers: parsed.headers, warnings: parsed.warnings, ...validateRows(type, parsed.records) };
}
