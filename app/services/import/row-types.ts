// The shapes of validated import rows and documents: what the row
// schemas (row-schemas.ts) make of a record, what validateRows answers and what the database
// layer stores. Types and the import's own status lists only.
import type { InvoiceStatus, JobStatus, QuoteStatus } from "../../../db/enums";
import type { CustomerRow } from "~/services/customers/fields";
import type { ImportType } from "./columns";
import type { RowError } from "./parse.server";

// The states and roles a file may give live with their field lists: every job and quote status
// an export writes (a quote's `converted` is imported as approved); no second owner.
export { IMPORT_JOB_STATUSES } from "~/services/jobs/fields";
export { IMPORT_QUOTE_STATUSES } from "~/services/quotes/fields";
import { TEAM_ROLES } from "~/services/team/fields";
export { TEAM_ROLES };
export type ImportJobStatus = JobStatus;
export type ImportQuoteStatus = QuoteStatus;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** A customer row: the customer field list's row (app/services/customers/fields.ts). */
export type { CustomerRow };

/** At least one of customerEmail / customerExternalId is set. When both are, both must name
 * the same customer (the database layer checks that while resolving). */
export interface CustomerRef {
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

export interface LineFields {
  itemDescription: string;
  itemQuantityMilli: number;
  itemUnitPriceCents: number;
  taxRatePpm: number;
  /** The line's named rate or group (matched by name, case ignored; created when new). */
  itemTaxRateName: string | null;
  itemDiscountType: DiscountType | null;
  /** Thousandths: of a percent (10% -> 10000) or of a cent unit (25.50 -> 25500). */
  itemDiscountValue: number | null;
}

export type DiscountType = "percent" | "amount";

/** A document's own discount, as the row gives it (the same on every row of the document). */
export interface DocumentDiscountFields {
  discountType: DiscountType | null;
  discountValue: number | null;
}

/** One CSV row of a quote: document fields (equal on every row of the number) + one line. */
export interface QuoteLineRow extends CustomerRef, LineFields, DocumentDiscountFields {
  number: string;
  /** The line's option group (null: always included), whether it is optional, and the
   * customer's recorded choice (null: none recorded). */
  itemOption: string | null;
  itemOptional: boolean;
  itemChosen: boolean | null;
  chosenOption: string | null;
  title: string | null;
  status: ImportQuoteStatus;
  issueDate: string | null;
  validUntil: string | null;
  currency: string;
  notes: string | null;
}

export interface InvoiceLineRow extends CustomerRef, LineFields, DocumentDiscountFields {
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
  /** The named rate or group, as the file spells it (null: the percent as typed). */
  taxRateName: string | null;
  /** The line's own discount as stored: its type, percent text ("10.000") or cents. */
  discountType: DiscountType | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
  /** round_half_up(quantityMilli * unitPriceCents / 1000): the amount before discounts. */
  lineSubtotalCents: number;
  /** The line's own discount in cents. */
  lineDiscountCents: number;
  /** Tax on the line's net (after its discount and its share of the document's), per rate
   * rounded half up (app/services/money/prices.ts). */
  lineTaxCents: number;
  lineTotalCents: number;
  /** A quote's line: its option group, optional flag and the customer's choice. */
  option?: string | null;
  optional?: boolean;
  selected?: boolean | null;
}

/** Totals (subtotal - discount + tax) are the figures of the lines that count (a quote's: its chosen lines, else the
 * always-included ones and its first option's), so they always equal what the lines show. */
export interface DocumentBase extends CustomerRef {
  number: string;
  rowNumbers: number[];
  /** False when a row of this number has an error; items then hold only the good rows. */
  ok: boolean;
  currency: string;
  issueDate: string | null;
  items: LineItem[];
  /** The lines' amounts before any discount. */
  subtotalCents: number;
  /** The document's own discount as stored, and every discount (lines' and document's) in cents. */
  discountType: DiscountType | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
  discountCents: number;
  taxCents: number;
  totalCents: number;
}

export interface QuoteDocument extends DocumentBase {
  title: string | null;
  chosenOption: string | null;
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

export interface ResultBase<T extends ImportType> {
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
