// The customer's field list: every column a customer has, once (docs/decisions/290-field-lists.md).
// Derived from it: the customer form's and import's schema (./schema.ts), the import page's
// column table, the sample's header, the stored preview records and the commit's INSERT
// (app/services/import), the list's and the record page's SELECTs and the edit form's values
// (./customers.server.ts, ./commands.server.ts). A new customer column: its migration, the model
// (db/models/customer.ts), an entry here and its place on the form
// (app/components/customer-form.tsx). This module holds the list only (the derived values live
// in their consumers): pure data, safe in the browser.
import { email, maxLen, optional, phone, required, withDefault, yesNoOrTicked } from "~/services/import/cells";
import { field, type RowOf } from "~/services/import/field-list";
import type { PropertyDraft } from "~/services/import/mapping/apply.server";

const text200 = "Text, up to 200 characters";

export const CUSTOMER_FIELDS = [
  field({
    key: "name",
    column: "name",
    csv: "name",
    check: required(maxLen(200)),
    label: "Name",
    required: true,
    format: text200,
    example: "Zoë Kowalski",
    list: true,
  }),
  field({
    key: "company",
    column: "company",
    csv: "company",
    check: optional(maxLen(200)),
    label: "Company",
    format: text200,
    example: "Brennan, Hart & Co.",
    list: true,
  }),
  field({
    key: "email",
    column: "email",
    csv: "email",
    check: optional(email),
    label: "Email",
    format: "Email address, unique among your customers",
    example: "zoe.kowalski@example.com",
    list: true,
  }),
  field({
    key: "phone",
    column: "phone",
    csv: "phone",
    check: optional(phone),
    label: "Phone",
    format: "Phone number: digits, spaces, + ( ) - . and an optional extension (x12)",
    example: "+1 512 555 0142",
    list: true,
  }),
  field({
    key: "addressLine1",
    column: "address_line1",
    csv: "address_line1",
    check: optional(maxLen(200)),
    label: "Street address",
    noun: "address",
    format: text200,
    example: "1208 Barton Springs Rd",
  }),
  field({
    key: "addressLine2",
    column: "address_line2",
    csv: "address_line2",
    check: optional(maxLen(200)),
    label: "Apartment, suite, unit",
    noun: "address",
    format: text200,
    example: "Unit 4",
  }),
  field({
    key: "city",
    column: "city",
    csv: "city",
    check: optional(maxLen(100)),
    label: "City",
    format: "Text, up to 100 characters",
    example: "Austin",
    list: true,
  }),
  field({
    key: "region",
    column: "region",
    csv: "region",
    check: optional(maxLen(100)),
    label: "State or region",
    noun: "region",
    format: "State, province or region, up to 100 characters",
    example: "TX",
  }),
  field({
    key: "postalCode",
    column: "postal_code",
    csv: "postal_code",
    check: optional(maxLen(20)),
    label: "Postal code",
    format: "Text, up to 20 characters",
    example: "78704",
  }),
  field({
    key: "country",
    column: "country",
    csv: "country",
    check: optional(maxLen(100)),
    label: "Country",
    format: "Country name or code, up to 100 characters",
    example: "US",
  }),
  field({
    key: "notes",
    column: "notes",
    csv: "notes",
    check: optional(maxLen(5000), true),
    label: "Notes",
    format: "Text, up to 5,000 characters, line breaks allowed",
    example: "Gate code 4412",
  }),
  field({
    key: "externalId",
    column: "external_id",
    csv: "external_id",
    check: optional(maxLen(100)),
    label: "External id",
    format: "Your own ID for the customer, up to 100 characters, unique",
    example: "CUST-1001",
    // The account export names every customer: one without an external id by its Fieldwork id.
    export: "coalesce(r.external_id, r.id::text)",
  }),
  field({
    key: "taxExempt",
    column: "tax_exempt",
    csv: "tax_exempt",
    check: withDefault(yesNoOrTicked, false),
    label: "Tax exempt",
    type: "boolean",
    format: "yes or no (default no): the customer's new quotes and invoices carry no tax",
    example: "no",
  }),
  field({
    key: "taxExemptReason",
    column: "tax_exempt_reason",
    csv: "tax_exempt_reason",
    check: optional(maxLen(200)),
    label: "Tax exemption reason",
    format: "Text, up to 200 characters, shown on their documents: “Tax exempt: <reason>”",
    example: "",
  }),
] as const;

export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** A checked customer row (form or import), by code names. */
export type CustomerRow = RowOf<typeof CUSTOMER_FIELDS> & {
  /** Service properties, from a file mapped from another product's export. */
  properties?: PropertyDraft[];
};
