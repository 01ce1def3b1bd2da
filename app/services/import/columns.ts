// CSV import column definitions. Plain data, safe to import from a
// page component: the import page renders these as the "columns" table.

import { IMPORT_TYPES, type ImportType } from "../../../db/enums";
import { can, type Role } from "~/utils/permissions";
import { CUSTOMER_FIELDS } from "~/services/customers/fields";
import { importColumnsOf } from "./field-list";

export { IMPORT_TYPES, type ImportType };

export function isImportType(value: unknown): value is ImportType {
  return typeof value === "string" && (IMPORT_TYPES as readonly string[]).includes(value);
}

/** The order that works on an empty account: later types refer to records of earlier ones. */
export const IMPORT_ORDER: readonly ImportType[] = [
  "customers",
  "team",
  ...IMPORT_TYPES.filter((t) => t !== "customers" && t !== "team"),
];

/**
 * A team import grants roles, so only who may manage the team (owner, admin) sees or imports
 * that type; an office user imports the other four.
 */
export const mayImportType = (role: Role, type: ImportType) => type !== "team" || can(role, "manage_team");

/** The types a role sees, in IMPORT_ORDER. */
export const importTypesFor = (role: Role) => IMPORT_ORDER.filter((t) => mayImportType(role, t));

/** The upload limit, one for every import type and header style (docs/decisions/249). */
export const IMPORT_LIMITS = { maxBytes: 32 * 1024 * 1024, maxRows: 50_000 } as const;

export interface ImportColumn {
  name: string;
  /** Required on its own. The customer reference columns are `required: false` with `oneOf`. */
  required: boolean;
  /** Set on columns of which at least one must be present (in the header and in each row). */
  oneOf?: readonly string[];
  /** Format for humans, shown on the import page. */
  format: string;
  example: string;
}

const CUSTOMER_REF = ["customer_email", "customer_external_id"] as const;

const customerRef: ImportColumn[] = [
  {
    name: "customer_email",
    required: false,
    oneOf: CUSTOMER_REF,
    format: "Email of an existing customer. Required unless customer_external_id is given.",
    example: "zoe.kowalski@example.com",
  },
  {
    name: "customer_external_id",
    required: false,
    oneOf: CUSTOMER_REF,
    format: "external_id of an existing customer. Required unless customer_email is given.",
    example: "CUST-1001",
  },
];

const money = "Amount of 0 or more with up to 2 decimals, no currency symbol or thousands separator";
const date = "Date, YYYY-MM-DD";
const dateTime = "Date and time, ISO 8601 with a UTC offset (Z or +hh:mm)";
const currency = "3-letter ISO 4217 code. Default USD. The same on every row of a document.";
const item: ImportColumn[] = [
  {
    name: "item_description",
    required: true,
    format: "Line item text, up to 1,000 characters",
    example: "Installation labour",
  },
  {
    name: "item_quantity",
    required: false,
    format: "Number above 0 with up to 3 decimals. Default 1.",
    example: "2.5",
  },
  { name: "item_unit_price", required: true, format: money, example: "95.00" },
  {
    name: "tax_rate",
    required: false,
    format: "Tax percent for this line, 0 to 100 with up to 3 decimals. Default 0.",
    example: "8.25",
  },
];

export const IMPORT_COLUMNS: Record<ImportType, readonly ImportColumn[]> = {
  customers: importColumnsOf(CUSTOMER_FIELDS),
  jobs: [
    { name: "title", required: true, format: "Text, up to 200 characters", example: "Replace water heater" },
    ...customerRef,
    {
      name: "description",
      required: false,
      format: "Text, up to 5,000 characters, line breaks allowed",
      example: "50 gal gas unit in garage",
    },
    {
      name: "status",
      required: false,
      format:
        "unscheduled, scheduled, completed or cancelled. Default: scheduled when scheduled_start is given, else unscheduled.",
      example: "scheduled",
    },
    {
      name: "scheduled_start",
      required: false,
      format: `${dateTime}. Required when status is scheduled.`,
      example: "2026-07-06T08:00:00-05:00",
    },
    {
      name: "scheduled_end",
      required: false,
      format: `${dateTime}, not before scheduled_start`,
      example: "2026-07-06T11:00:00-05:00",
    },
    {
      name: "assignee_email",
      required: false,
      format: "Email of an existing team member",
      example: "tomas@duartehome.example",
    },
    {
      name: "address",
      required: false,
      format: "Job site address, up to 500 characters",
      example: "1208 Barton Springs Rd, Austin, TX 78704",
    },
    {
      name: "external_id",
      required: false,
      format: "Your own ID for the job, up to 100 characters, unique",
      example: "JOB-5001",
    },
  ],
  quotes: [
    {
      name: "number",
      required: true,
      format: "Quote number, up to 50 characters. Rows with the same number form one quote.",
      example: "Q-1001",
    },
    ...customerRef,
    { name: "title", required: false, format: "Text, up to 200 characters", example: "Water heater replacement" },
    { name: "status", required: false, format: "draft, sent, approved or declined. Default draft.", example: "sent" },
    { name: "issue_date", required: false, format: date, example: "2026-06-20" },
    { name: "valid_until", required: false, format: `${date}, not before issue_date`, example: "2026-07-20" },
    { name: "currency", required: false, format: currency, example: "USD" },
    ...item,
    {
      name: "notes",
      required: false,
      format: "Text, up to 5,000 characters, line breaks allowed",
      example: "Price includes permit",
    },
  ],
  invoices: [
    {
      name: "number",
      required: true,
      format: "Invoice number, up to 50 characters. Rows with the same number form one invoice.",
      example: "INV-2001",
    },
    ...customerRef,
    {
      name: "status",
      required: false,
      format: "draft, sent, partial, paid or void. Default draft.",
      example: "partial",
    },
    { name: "issue_date", required: false, format: date, example: "2026-06-22" },
    { name: "due_date", required: false, format: `${date}, not before issue_date`, example: "2026-07-22" },
    { name: "currency", required: false, format: currency, example: "USD" },
    ...item.map((c) => (c.name === "item_quantity" ? { ...c, example: "1" } : c)),
    {
      name: "amount_paid",
      required: false,
      format: `${money}. paid: the total (or empty); partial: above 0 and below the total; draft or sent: empty or 0; void: up to the total.`,
      example: "50.00",
    },
  ],
  team: [
    { name: "name", required: true, format: "Text, up to 200 characters", example: "Tomás Ibáñez" },
    {
      name: "email",
      required: true,
      format: "Email address, unique in your team",
      example: "tomas@duartehome.example",
    },
    { name: "role", required: true, format: "admin, office or technician", example: "technician" },
    {
      name: "phone",
      required: false,
      format: "Phone number: digits, spaces, + ( ) - . and an optional extension (x12)",
      example: "+1 512 555 0111",
    },
    { name: "hourly_rate", required: false, format: money, example: "68.50" },
  ],
};

export function columnNames(type: ImportType): string[] {
  return IMPORT_COLUMNS[type].map((c) => c.name);
}

/** Groups of which the header must hold at least one column: `[["title"], ["customer_email", "customer_external_id"]]`. */
export function requiredColumnGroups(type: ImportType): string[][] {
  const groups: string[][] = [];
  for (const c of IMPORT_COLUMNS[type]) {
    if (c.required) groups.push([c.name]);
    else if (c.oneOf && c.oneOf[0] === c.name) groups.push([...c.oneOf]);
  }
  return groups;
}
