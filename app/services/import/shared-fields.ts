// Field-list entries several records share (docs/decisions/290-field-lists.md): the customer a
// job, quote or invoice belongs to (its email or its external id), and a quote's or invoice's
// line item columns. Pure data, safe in the browser.
import {
  discountValue,
  email,
  maxLen,
  money,
  oneOf,
  optional,
  present,
  quantity,
  required,
  taxRate,
  withDefault,
} from "./cells";
import { centsSql, field } from "./field-list";

const CUSTOMER_REF = ["customer_email", "customer_external_id"] as const;

/** The customer of a job, quote or invoice: one of the two is required (in the header and in each row). */
export const customerRefFields = [
  field({
    key: "customerEmail",
    column: "customer_email",
    csv: "customer_email",
    check: present(email),
    label: "Customer email",
    oneOf: CUSTOMER_REF,
    format: "Email of an existing customer. Required unless customer_external_id is given.",
    example: "zoe.kowalski@example.com",
    export: "c.email",
  }),
  field({
    key: "customerExternalId",
    column: "customer_external_id",
    csv: "customer_external_id",
    check: present(maxLen(100)),
    label: "Customer external id",
    oneOf: CUSTOMER_REF,
    format: "external_id of an existing customer. Required unless customer_email is given.",
    example: "CUST-1001",
    export: "coalesce(c.external_id, c.id::text)",
  }),
] as const;

export const MONEY_FORMAT = "Amount of 0 or more with up to 2 decimals, no currency symbol or thousands separator";
export const DATE_FORMAT = "Date, YYYY-MM-DD";
export const DISCOUNT_TYPES = ["percent", "amount"] as const;
const DISCOUNT_FORMAT =
  "With percent: 0 to 100 with up to 3 decimals. With amount: 0 or more with up to 2 decimals. Before tax.";
/** A stored discount as the import reads it back: the percent, or the amount in money text (SQL). */
const discountValueSql = (alias: string) =>
  `CASE ${alias}.discount_type WHEN 'percent' THEN trim_scale(${alias}.discount_percent)::text WHEN 'amount' THEN ${centsSql(`${alias}.discount_amount_cents`)} END`;
export const CURRENCY_FORMAT = "3-letter ISO 4217 code. Default USD. The same on every row of a document.";

/** A quote's or invoice's line item: one per row (rows sharing a number form one document). */
export const lineItemFields = (quantityExample: string) =>
  [
    field({
      key: "itemDescription",
      column: "item_description",
      csv: "item_description",
      check: required(maxLen(1000)),
      label: "Line item",
      required: true,
      item: true,
      format: "Line item text, up to 1,000 characters",
      example: "Installation labour",
      export: "i.description",
    }),
    field({
      key: "itemQuantityMilli",
      column: "item_quantity",
      csv: "item_quantity",
      check: withDefault(quantity, 1000),
      label: "Quantity",
      item: true,
      format: "Number above 0 with up to 3 decimals. Default 1.",
      example: quantityExample,
      export: "i.quantity::text",
    }),
    field({
      key: "itemUnitPriceCents",
      column: "item_unit_price",
      csv: "item_unit_price",
      check: required(money),
      label: "Unit price",
      required: true,
      item: true,
      format: MONEY_FORMAT,
      example: "95.00",
      export: centsSql("i.unit_price_cents"),
    }),
    field({
      key: "taxRatePpm",
      column: "tax_rate",
      csv: "tax_rate",
      check: withDefault(taxRate, 0),
      label: "Tax rate",
      item: true,
      format: "Tax percent for this line, 0 to 100 with up to 3 decimals. Default 0.",
      example: "8.25",
      export: "i.tax_rate::text",
    }),
    field({
      key: "itemTaxRateName",
      column: "tax_rate_name",
      csv: "item_tax_rate_name",
      check: optional(maxLen(100)),
      label: "Tax rate name",
      item: true,
      format:
        "The named tax rate or group of this line, up to 100 characters. A name the business does not have yet is created with this row's tax_rate.",
      example: "Texas 6.25%",
      export: "(SELECT x.name FROM tax_rates x WHERE x.tenant_id = i.tenant_id AND x.id = i.tax_rate_id)",
    }),
    field({
      key: "itemDiscountType",
      column: "discount_type",
      csv: "item_discount_type",
      check: optional(oneOf(DISCOUNT_TYPES)),
      label: "Line discount type",
      item: true,
      format: "percent or amount. Empty: no discount on this line.",
      example: "percent",
      export: "i.discount_type",
    }),
    field({
      key: "itemDiscountValue",
      column: "discount_value",
      csv: "item_discount_value",
      check: optional(discountValue),
      label: "Line discount",
      item: true,
      format: DISCOUNT_FORMAT,
      example: "10",
      export: discountValueSql("i"),
    }),
  ] as const;

/** A quote's or invoice's own discount, before tax, spread over its lines in proportion. */
export const documentDiscountFields = [
  field({
    key: "discountType",
    column: "discount_type",
    csv: "discount_type",
    check: optional(oneOf(DISCOUNT_TYPES)),
    label: "Discount type",
    format: "percent or amount, the same on every row of a document. Empty: no discount.",
    example: "amount",
  }),
  field({
    key: "discountValue",
    column: "discount_value",
    csv: "discount_value",
    check: optional(discountValue),
    label: "Discount",
    type: "bigint",
    format: `${DISCOUNT_FORMAT} The same on every row of a document.`,
    example: "25.00",
    export: discountValueSql("r"),
  }),
] as const;
