// The keys of import rows the database layer resolves (references to customers and team
// members) or checks (values that must not exist yet), and a key's value in a row, also in a
// row that failed on other columns. Pure.
import type { ImportType } from "./columns";
import type { RowError } from "./parse.server";
import { SPECS } from "./row-schemas";
import type { Spec } from "./cells";
import type { ValidatedRow } from "./row-types";

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

/** Values that must not exist in the tenant yet (no silent duplicates). Emails are
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
export function collectReferences(
  type: ImportType,
  rows: readonly ValidatedRow<object>[],
): Record<ReferenceTarget, string[]> {
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

export function reject(row: AnyRow, errors: RowError[], column: string | null, message: string) {
  row.ok = false;
  errors.push({ row: row.rowNumber, column, message });
}
