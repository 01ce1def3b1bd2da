// CSV import column definitions. Plain data, safe to import from a
// page component: the import page renders these as the "columns" table.

import { IMPORT_TYPES, type ImportType } from "../../../db/enums";
import { can, type Role } from "~/utils/permissions";
import { CUSTOMER_FIELDS } from "~/services/customers/fields";
import { JOB_FIELDS } from "~/services/jobs/fields";
import { QUOTE_FIELDS } from "~/services/quotes/fields";
import { INVOICE_FIELDS } from "~/services/invoices/fields";
import { TEAM_FIELDS } from "~/services/team/fields";
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

/** Each type's columns, from its record's field list (docs/decisions/290-field-lists.md). */
export const IMPORT_COLUMNS: Record<ImportType, readonly ImportColumn[]> = {
  customers: importColumnsOf(CUSTOMER_FIELDS),
  jobs: importColumnsOf(JOB_FIELDS),
  quotes: importColumnsOf(QUOTE_FIELDS),
  invoices: importColumnsOf(INVOICE_FIELDS),
  team: importColumnsOf(TEAM_FIELDS),
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
