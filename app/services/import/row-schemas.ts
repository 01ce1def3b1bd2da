// The row schemas of the CSV import: one zod schema per type, turning a
// record (header -> raw cell) into a normalised row (the rules: validate.server.ts's header
// and docs/decisions/077). The cell checks live in cells.ts.
import type { z } from "zod";
import { INVOICE_STATUSES } from "../../../db/enums";
import { customerSchema, CUSTOMER_SPEC } from "~/services/customers/schema";
import type { ImportType } from "./columns";
import {
  currency,
  email,
  isoDate,
  isoDateTime,
  maxLen,
  money,
  oneOf,
  optional,
  phone,
  present,
  quantity,
  required,
  rowSchema,
  taxRate,
  withDefault,
  type Issue,
  type RowCheck,
} from "./cells";
import {
  IMPORT_JOB_STATUSES,
  IMPORT_QUOTE_STATUSES,
  TEAM_ROLES,
  type CustomerRef,
  type InvoiceLineRow,
  type JobRow,
  type LineFields,
  type QuoteLineRow,
  type RowValues,
  type TeamMemberRow,
} from "./row-types";

function requireCustomer(r: { customer_email?: string | null; customer_external_id?: string | null }, issue: Issue) {
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
const lineFields = (r: {
  item_description: string;
  item_quantity: number;
  item_unit_price: number;
  tax_rate: number;
}): LineFields => ({
  itemDescription: r.item_description,
  itemQuantityMilli: r.item_quantity,
  itemUnitPriceCents: r.item_unit_price,
  taxRatePpm: r.tax_rate,
});

export const SPECS = {
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

/** The customer row: one schema for the import and the customer form (app/services/customers/fields.ts). */
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
    if (r.status === "unscheduled" && typeof r.scheduled_start === "string")
      issue("status", "Is unscheduled, but scheduled_start is given");
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

export const teamMemberSchema = rowSchema(SPECS.team, (r): TeamMemberRow => ({
  name: r.name,
  email: r.email,
  role: r.role,
  phone: r.phone,
  hourlyRateCents: r.hourly_rate,
}));

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
