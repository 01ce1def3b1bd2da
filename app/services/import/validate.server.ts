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
import {
  currency, customerSchema, CUSTOMER_SPEC, email, isoDate, isoDateTime, maxLen, money, oneOf, optional, phone, present, quantity,
  required, rowSchema, SPACE_RUNS, taxRate, withDefault, type Issue, type RowCheck, type Spec,
} from "./cells";
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
  customers: CUSTOMER_SPEC,
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

/** The customer row: one schema for the import and the customer form (./cells.ts). */
export { customerSchema };

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
