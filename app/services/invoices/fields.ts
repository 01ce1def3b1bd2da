// The invoice's field list for the CSV import and the account export (docs/decisions/290-field-lists.md):
// every column of an invoices file, once; one row per line item, the document's columns
// repeated. Derived from it: the import's row checks and row (app/services/import/row-schemas.ts),
// the import page's column table and the sample's header (app/services/import/columns.ts), the
// columns a document's rows must agree on (app/services/import/documents.ts), the preview's
// stored records (app/services/import/records.server.ts) and the export's invoices file. Pure data.
import { INVOICE_STATUSES } from "../../../db/enums";
import { currency, isoDate, maxLen, money, oneOf, optional, required, withDefault } from "~/services/import/cells";
import { centsSql, field } from "~/services/import/field-list";
import {
  CURRENCY_FORMAT,
  customerRefFields,
  DATE_FORMAT,
  documentDiscountFields,
  lineItemFields,
  MONEY_FORMAT,
} from "~/services/import/shared-fields";

export const INVOICE_FIELDS = [
  field({
    key: "number",
    column: "number",
    csv: "number",
    check: required(maxLen(50)),
    label: "Number",
    required: true,
    format: "Invoice number, up to 50 characters. Rows with the same number form one invoice.",
    example: "INV-2001",
  }),
  ...customerRefFields,
  field({
    key: "status",
    column: "status",
    csv: "status",
    check: withDefault(oneOf(INVOICE_STATUSES), "draft"),
    label: "Status",
    format: "draft, sent, partial, paid or void. Default draft.",
    example: "partial",
  }),
  field({
    key: "issueDate",
    column: "issue_date",
    csv: "issue_date",
    check: optional(isoDate),
    label: "Issue date",
    type: "date",
    format: DATE_FORMAT,
    example: "2026-06-22",
  }),
  field({
    key: "dueDate",
    column: "due_date",
    csv: "due_date",
    check: optional(isoDate),
    label: "Due date",
    type: "date",
    format: `${DATE_FORMAT}, not before issue_date`,
    example: "2026-07-22",
  }),
  field({
    key: "currency",
    column: "currency",
    csv: "currency",
    check: withDefault(currency, "USD"),
    label: "Currency",
    format: CURRENCY_FORMAT,
    example: "USD",
  }),
  ...lineItemFields("1"),
  field({
    key: "amountPaidCents",
    column: "amount_paid_cents",
    csv: "amount_paid",
    check: optional(money),
    label: "Amount paid",
    type: "bigint",
    format: `${MONEY_FORMAT}. paid: the total (or empty); partial: above 0 and below the total; draft or sent: empty or 0; void: up to the total.`,
    example: "50.00",
    export: centsSql("r.amount_paid_cents"),
  }),
  ...documentDiscountFields,
] as const;
