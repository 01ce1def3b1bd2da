// A business record's field list: one entry per column, naming it in the code (the model's
// attribute and the checked row's property), in the database, in a CSV file and on a form, with
// the one check both the form and the import apply. The form and import schemas, the import
// page's column table, the stored preview records, the commit's column list and the lists'
// SELECTs are derived from it (docs/decisions/290-field-lists.md), so a new column is written
// once. Pure and safe in the browser.
import type { ImportColumn } from "./columns";
import { rowSchema, type Field, type Issue, type Spec } from "./cells";

export interface RecordField<K extends string = string, C extends string = string, T = unknown> {
  /** The code name: the model's attribute and the checked row's property. */
  key: K;
  /** The database column. */
  column: string;
  /** The CSV header (import, sample, a later export) and the form field's name. */
  csv: C;
  /** The cell check: raw text (undefined when the column is absent) -> value or Invalid. */
  check: Field<T>;
  /** The human name: the form's label, the list's header. */
  label: string;
  /** The word the record's history uses when the field changes (default: the label in lower case). */
  noun?: string;
  /** Required on its own (the import page says so; the check refuses an empty cell). */
  required?: boolean;
  /** The import page's format text and example cell. */
  format: string;
  example: string;
  /** The PostgreSQL type of the stored preview record's value (the commit casts to it). Default text. */
  type?: string;
  /** Shown as a column of the back-office list, in the list's order. */
  list?: boolean;
  /** Columns of which at least one must be given, in the header and in each row (the
   * customer a job or document belongs to: its email or its external id). */
  oneOf?: readonly string[];
  /** A line item's column (quotes and invoices: one row per line), not the document's. */
  item?: boolean;
  /** The SQL that reads the cell's text in the account export's query of the record (alias `r`
   * the record, `c` its customer, `u` its technician, `i` a line item). Default: `r.<column>`,
   * written by its type as the import reads it back (see exportSql). */
  export?: string;
}

// A field list's entries, each with its own literal key and csv name (see `field`).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyField = RecordField<string, string, any>;
export type FieldList = readonly AnyField[];

/** One entry, keeping its names and flags as literal types (so rows and reads are typed by them). */
export const field = <const F extends AnyField>(f: F): F => f;

type ValueOf<F> = F extends { check: Field<infer T> } ? T : never;
/** A checked row: code name -> checked value. */
export type RowOf<L extends FieldList> = { [F in L[number] as F["key"]]: ValueOf<F> };
/** The checks by CSV name (the import's spec of raw cells). */
export type SpecOf<L extends FieldList> = { [F in L[number] as F["csv"]]: F["check"] };

export function specOf<L extends FieldList>(fields: L): SpecOf<L> {
  return Object.fromEntries(fields.map((f) => [f.csv, f.check])) as SpecOf<L>;
}

/** CSV values -> the row by code names (a loop: it runs once per imported row). */
export function rowOf<L extends FieldList>(fields: L, values: Record<string, unknown>): RowOf<L> {
  const row: Record<string, unknown> = {};
  for (const f of fields) row[f.key] = values[f.csv];
  return row as RowOf<L>;
}

/** The record's row schema (import rows and the record's form): the fields' checks, then the
 * cross-column rules, then the row by code names (`finish` fills the defaults that depend on
 * another column, on the new row). */
export function rowSchemaOf<L extends FieldList, R = RowOf<L>>(
  fields: L,
  cross?: (v: Record<string, unknown>, issue: Issue) => void,
  finish?: (row: R) => R,
) {
  const toRow = finish
    ? (v: Record<string, unknown>) => finish(rowOf(fields, v) as R)
    : (v: Record<string, unknown>) => rowOf(fields, v) as R;
  return rowSchema(specOf(fields) as Spec, toRow, cross);
}

/** The import page's columns (name, required, format, example). */
export function importColumnsOf(fields: FieldList): ImportColumn[] {
  return fields.map((f) => ({
    name: f.csv,
    required: !!f.required,
    ...(f.oneOf ? { oneOf: f.oneOf } : {}),
    format: f.format,
    example: f.example,
  }));
}

/** A stored preview record's columns: SQL name, PostgreSQL type, and how to read it from a row. */
export type StoredColumn<R> = readonly [name: string, type: string, get: (r: R) => unknown];

export function storedColumnsOf<R>(fields: FieldList): StoredColumn<R>[] {
  return fields.map((f) => [f.column, f.type ?? "text", (r: R) => (r as Record<string, unknown>)[f.key]] as const);
}

/** The word a record's history uses when the field changes. */
export const nounOf = (f: AnyField): string => f.noun ?? f.label.toLowerCase();

/** The columns a list shows: its SQL name (the key of a list item) and header. */
export function listColumnsOf(fields: FieldList): { column: string; label: string }[] {
  return fields.filter((f) => f.list).map((f) => ({ column: f.column, label: f.label }));
}

/** Integer cents as the import's money text: 1250 -> "12.50" (SQL). */
export const centsSql = (sql: string) => `to_char((${sql}) / 100.0, 'FM99999999990.00')`;

/** How the export writes a value of a stored type so the import reads it back: date-times as
 * UTC ISO 8601, dates as YYYY-MM-DD, numbers in plain decimal notation (SQL). */
export function exportSql(sql: string, type: string): string {
  if (type === "timestamptz") return `to_char((${sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (type === "date") return `to_char(${sql}, 'YYYY-MM-DD')`;
  if (type === "text") return sql;
  return `(${sql})::text`;
}

/** The account export's columns, in the import's order: the CSV header, the database column it
 * comes from, that value's type and the SQL giving its cell's text (so an export imports back). */
export function exportColumnsOf(fields: FieldList): { csv: string; column: string; type: string; sql: string }[] {
  return fields.map((f) => {
    const type = f.type ?? "text";
    return { csv: f.csv, column: f.column, type, sql: f.export ?? exportSql(`r.${f.column}`, type) };
  });
}

/** The document-level fields of a quote or invoice list (one value per document). */
export const documentFieldsOf = <L extends FieldList>(fields: L): L[number][] => fields.filter((f) => !f.item);
