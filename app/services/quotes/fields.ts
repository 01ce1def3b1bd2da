// The quote's field list for the CSV import and the account export (docs/decisions/290-field-lists.md):
// every column of a quotes file, once; one row per line item, the document's columns repeated.
// Derived from it: the import's row checks and row (app/services/import/row-schemas.ts), the
// import page's column table and the sample's header (app/services/import/columns.ts), the
// columns a document's rows must agree on (app/services/import/documents.ts), the preview's
// stored records (app/services/import/records.server.ts) and the export's quotes file. Pure data.
import { QUOTE_STATUSES } from "../../../db/enums";
import { currency, isoDate, maxLen, oneOf, optional, required, withDefault, yesNo } from "~/services/import/cells";
import { field } from "~/services/import/field-list";
import {
  CURRENCY_FORMAT,
  customerRefFields,
  DATE_FORMAT,
  documentDiscountFields,
  lineItemFields,
} from "~/services/import/shared-fields";

/** Every stored quote status, and `converted` (an approved quote made into a job; imported as
 * approved, since the job is not part of a quotes file). */
export const IMPORT_QUOTE_STATUSES = [...QUOTE_STATUSES, "converted"] as const;

export const QUOTE_FIELDS = [
  field({
    key: "number",
    column: "number",
    csv: "number",
    check: required(maxLen(50)),
    label: "Number",
    required: true,
    format: "Quote number, up to 50 characters. Rows with the same number form one quote.",
    example: "Q-1001",
  }),
  ...customerRefFields,
  field({
    key: "title",
    column: "title",
    csv: "title",
    check: optional(maxLen(200)),
    label: "Title",
    format: "Text, up to 200 characters",
    example: "Water heater replacement",
  }),
  field({
    key: "status",
    column: "status",
    csv: "status",
    check: withDefault(oneOf(IMPORT_QUOTE_STATUSES), "draft"),
    label: "Status",
    format: "draft, sent, approved, declined, expired or converted (imported as approved). Default draft.",
    example: "sent",
  }),
  field({
    key: "issueDate",
    column: "issue_date",
    csv: "issue_date",
    check: optional(isoDate),
    label: "Issue date",
    type: "date",
    format: DATE_FORMAT,
    example: "2026-06-20",
  }),
  field({
    key: "validUntil",
    column: "valid_until",
    csv: "valid_until",
    check: optional(isoDate),
    label: "Valid until",
    type: "date",
    format: `${DATE_FORMAT}, not before issue_date`,
    example: "2026-07-20",
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
  ...lineItemFields("2.5"),
  // Options ("Good", "Better", "Best") and optional items, and what the customer chose: a quote's
  // total counts the chosen lines, else the always-included ones and the first option's.
  field({
    key: "itemOption",
    column: "option_name",
    csv: "item_option",
    check: optional(maxLen(100)),
    label: "Option",
    item: true,
    format:
      "The option this line belongs to, up to 100 characters (lines with the same option form one choice, like Good, Better, Best). Empty: always included.",
    example: "Better",
    export: "i.option_name",
  }),
  field({
    key: "itemOptional",
    column: "optional",
    csv: "item_optional",
    check: withDefault(yesNo, false),
    label: "Optional item",
    item: true,
    type: "boolean",
    format: "yes when the customer may add or leave out this line. Default no.",
    example: "no",
    export: "CASE WHEN i.optional THEN 'yes' ELSE 'no' END",
  }),
  field({
    key: "itemChosen",
    column: "selected",
    csv: "item_chosen",
    check: optional(yesNo),
    label: "Chosen",
    item: true,
    type: "boolean",
    format:
      "The customer's choice: yes or no on every line of a quote they answered, empty on all of them otherwise. The total counts the chosen lines.",
    example: "yes",
    export: "CASE i.selected WHEN true THEN 'yes' WHEN false THEN 'no' END",
  }),
  field({
    key: "chosenOption",
    column: "chosen_option",
    csv: "chosen_option",
    check: optional(maxLen(100)),
    label: "Chosen option",
    format: "The option the customer chose, one of the quote's item_option values. Empty if none.",
    example: "Better",
  }),
  field({
    key: "notes",
    column: "notes",
    csv: "notes",
    check: optional(maxLen(5000), true),
    label: "Notes",
    format: "Text, up to 5,000 characters, line breaks allowed",
    example: "Price includes permit",
  }),
  ...documentDiscountFields,
] as const;
