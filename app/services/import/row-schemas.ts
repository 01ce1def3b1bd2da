// The row schemas of the CSV import: one zod schema per type, turning a record (header -> raw
// cell) into a normalised row (the rules: validate.server.ts's header and docs/decisions/077).
// Each type's checks come from its record's field list (docs/decisions/290-field-lists.md); here
// are the rules across columns and the defaults that depend on another column.
import type { z } from "zod";
import { OPEN_ON_CALENDAR_STATUSES } from "../../../db/enums";
import { customerSchema, CUSTOMER_SPEC } from "~/services/customers/schema";
import { JOB_FIELDS } from "~/services/jobs/fields";
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { TEAM_FIELDS } from "~/services/team/fields";
import type { ImportType } from "./columns";
import { rowSchemaOf, specOf } from "./field-list";
import type { Issue, RowCheck } from "./cells";
import type { InvoiceLineRow, JobRow, QuoteLineRow, RowValues, TeamMemberRow } from "./row-types";

function requireCustomer(r: { customer_email?: unknown; customer_external_id?: unknown }, issue: Issue) {
  if (r.customer_email || r.customer_external_id) return;
  issue(
    r.customer_email !== undefined ? "customer_email" : "customer_external_id",
    "customer_email or customer_external_id is required",
  );
}

function notBefore(issue: Issue, later: unknown, earlier: unknown, column: string, earlierColumn: string) {
  if (typeof later === "string" && typeof earlier === "string" && later < earlier)
    issue(column, `Must not be before ${earlierColumn}`);
}

/** A discount's two columns: both or neither; a percent up to 100, an amount with up to 2 decimals. */
function checkDiscount(r: Record<string, unknown>, issue: Issue, typeColumn: string, valueColumn: string) {
  const type = r[typeColumn];
  const value = r[valueColumn];
  if (value === null && (type === "percent" || type === "amount"))
    issue(valueColumn, `Required when ${typeColumn} is given (like 10 for percent, 25.00 for amount)`);
  if (type === null && typeof value === "number")
    issue(typeColumn, `Required when ${valueColumn} is given: percent or amount`);
  if (typeof value !== "number") return;
  if (type === "percent" && value > 100_000) issue(valueColumn, "A percent discount is from 0 to 100");
  if (type === "amount" && value % 10 !== 0) issue(valueColumn, "An amount discount has up to 2 decimals, like 25.50");
  if (type === "amount" && value > 9_999_999_990) issue(valueColumn, "Too large (at most 99999999.99)");
}

/** The discount columns of a quotes or invoices row: the line's and the document's. */
function checkDiscounts(r: Record<string, unknown>, issue: Issue) {
  checkDiscount(r, issue, "item_discount_type", "item_discount_value");
  checkDiscount(r, issue, "discount_type", "discount_value");
}

/** Each type's cell checks by CSV name (from the field lists). */
export const SPECS = {
  customers: CUSTOMER_SPEC,
  jobs: specOf(JOB_FIELDS),
  quotes: specOf(QUOTE_FIELDS),
  invoices: specOf(INVOICE_FIELDS),
  team: specOf(TEAM_FIELDS),
};

/** The customer row: one schema for the import and the customer form (app/services/customers/fields.ts). */
export { customerSchema };

/** Job statuses that put the job on the calendar: they need its time. */
const ON_THE_CALENDAR: readonly unknown[] = OPEN_ON_CALENDAR_STATUSES;

export const jobSchema = rowSchemaOf<typeof JOB_FIELDS, JobRow>(
  JOB_FIELDS,
  (r, issue) => {
    requireCustomer(r, issue);
    if (r.scheduled_end && !r.scheduled_start) issue("scheduled_end", "Needs a scheduled_start");
    notBefore(issue, r.scheduled_end, r.scheduled_start, "scheduled_end", "scheduled_start");
    if (ON_THE_CALENDAR.includes(r.status) && !r.scheduled_start)
      issue("scheduled_start", `Required when status is ${r.status}`);
    // A job cannot be both unscheduled and on the calendar; say so rather than drop a time.
    if (r.status === "unscheduled" && typeof r.scheduled_start === "string")
      issue("status", "Is unscheduled, but scheduled_start is given");
  },
  (row) => {
    row.status ??= row.scheduledStart ? "scheduled" : "unscheduled";
    return row;
  },
);

export const quoteSchema = rowSchemaOf<typeof QUOTE_FIELDS, QuoteLineRow>(
  QUOTE_FIELDS,
  (r, issue) => {
    requireCustomer(r, issue);
    notBefore(issue, r.valid_until, r.issue_date, "valid_until", "issue_date");
    checkDiscounts(r, issue);
  },
  (row) => {
    // A converted quote was approved; the job it became is not part of a quotes file.
    if ((row.status as string) === "converted") row.status = "approved";
    return row;
  },
);

// amount_paid against status. Row level (needs no total): draft and sent take empty or 0
// (money received makes an invoice partial or paid); partial needs an amount above 0.
// Document level (needs the total, see buildDocuments): never above the total; paid equals
// the total (empty = the total); partial below the total; void any amount up to the total
// (payments may have been taken before voiding; empty = 0).
export const invoiceSchema = rowSchemaOf<typeof INVOICE_FIELDS, InvoiceLineRow>(INVOICE_FIELDS, (r, issue) => {
  requireCustomer(r, issue);
  notBefore(issue, r.due_date, r.issue_date, "due_date", "issue_date");
  checkDiscounts(r, issue);
  if ((r.status === "draft" || r.status === "sent") && typeof r.amount_paid === "number" && r.amount_paid > 0) {
    issue("amount_paid", `Must be empty or 0 while the invoice is ${r.status} (use partial or paid)`);
  }
  if (r.status === "partial" && !r.amount_paid) issue("amount_paid", "Required (above 0) when status is partial");
});

export const teamMemberSchema = rowSchemaOf<typeof TEAM_FIELDS, TeamMemberRow>(TEAM_FIELDS);

export const ROW_SCHEMAS: { [K in ImportType]: z.ZodType<RowValues[K], z.ZodTypeDef, unknown> } = {
  customers: customerSchema,
  jobs: jobSchema,
  quotes: quoteSchema,
  invoices: invoiceSchema,
  team: teamMemberSchema,
};

/** The schemas' checks, for the hot loop of validateRows (same rules, no zod per row). */
export const ROW_CHECKS: { [K in ImportType]: RowCheck<RowValues[K]> } = {
  customers: customerSchema.check,
  jobs: jobSchema.check,
  quotes: quoteSchema.check,
  invoices: invoiceSchema.check,
  team: teamMemberSchema.check,
};
