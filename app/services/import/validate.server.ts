// Row validation for the CSV import. Pure: no database. Each type has one
// zod schema that turns a record (header -> raw cell) into a normalised row; validateRows adds
// the checks that span rows (duplicates in the file, quote and invoice documents).
//
// Normalised values, chosen so the database layer stores them as they are:
// - text: trimmed, inner whitespace runs collapsed to one space (multi-line fields keep line
//   breaks as LF), Unicode NFC, empty -> null. A leading `'` that our exports put before
//   = + - @ tab CR (CSV-injection escape) is removed, so an export imports back unchanged.
// - emails: lower-cased. Dates: "YYYY-MM-DD" (real calendar dates, years 1900..2200).
//   Date-times: ISO 8601 with an offset, stored as a UTC ISO string "2026-07-06T13:00:00.000Z"
//   (fractions of a second beyond milliseconds are cut).
// - money: integer cents, parsed from the digits (never through a float), 0..99,999,999.99.
// - quantity: integer thousandths ("milli": 2.5 -> 2500), above 0, at most 100,000.
// - tax_rate: a percent with up to 3 decimals stored as integer parts per million of the
//   amount (8.25% -> 82,500 ppm; 100% -> 1,000,000). It is a LINE-level column (labour and
//   materials are often taxed differently), so rows of one document may differ on it.
// - enums (status, role) and currency: case-insensitive on input, stored lower / upper case.
// - length limits count UTF-16 units (an emoji counts 2), so never under PostgreSQL's count.
//
// By concern: row-types.ts (the shapes), row-schemas.ts (one schema per type), keys.ts
// (references and unique keys for the database layer), documents.ts (quotes and invoices as
// documents); this module validates a file's rows with them (validateRows, analyseCsv) and is
// where the rest of the app takes them from.
import { IMPORT_LIMITS, type ImportType } from "./columns";
import type { RowCheck } from "./cells";
import { buildDocuments, type NewRate } from "./documents";
import { keyValue, reject, UNIQUE_KEYS, type AnyRow } from "./keys";
import {
  parseCsv,
  type CsvInput,
  type CsvRecord,
  type FileError,
  type ParseLimits,
  type RowError,
} from "./parse.server";
import { ROW_CHECKS } from "./row-schemas";
import type { ImportRates } from "./rates";
import { ppmToPercentText } from "~/services/money/prices";
import type { InvoiceDocument, QuoteDocument, ValidationResultFor } from "./row-types";

export type { RowError } from "./parse.server";
export * from "./row-types";
export { customerSchema, invoiceSchema, jobSchema, quoteSchema, ROW_SCHEMAS, teamMemberSchema } from "./row-schemas";
export {
  collectReferences,
  collectUniqueValues,
  keyValue,
  REFERENCE_KEYS,
  UNIQUE_KEYS,
  type AnyRow,
  type ReferenceKey,
  type ReferenceTarget,
  type UniqueKey,
} from "./keys";
export { formatCents } from "./documents";

/** The import types whose rows are records of their own (quotes and invoices group rows into documents). */
type RowImportType = Exclude<ImportType, "quotes" | "invoices">;

function findDuplicates(type: RowImportType, rows: AnyRow[], errors: RowError[]) {
  for (const { column, field } of UNIQUE_KEYS[type]) {
    const first = new Map<string, number>();
    for (const row of rows) {
      const v = keyValue(type, row, column, field);
      if (v === null) continue;
      const seen = first.get(v);
      if (seen === undefined) first.set(v, row.rowNumber);
      else reject(row, errors, column, `Same ${column} as row ${seen}`);
    }
  }
}

/** `rates`: the tenant's named tax rates (quotes and invoices name them in item_tax_rate_name);
 * `created` receives the ones the file names that the business lacks (the commit makes them). */
export function validateRows<T extends ImportType>(
  type: T,
  records: readonly CsvRecord[],
  rates: ImportRates = {},
  created: Map<string, NewRate> = new Map(),
): ValidationResultFor<T> {
  const check = ROW_CHECKS[type] as unknown as RowCheck<Record<string, unknown>>;
  const rows: AnyRow[] = [];
  const errors: RowError[] = [];
  for (const record of records) {
    const row: AnyRow = { rowNumber: record.row, ok: false, values: null, raw: record.values };
    rows.push(row);
    if (record.error) {
      errors.push({ row: record.row, column: null, message: record.error });
      continue;
    }
    const r = check(record.values);
    if (r.ok) {
      row.ok = true;
      row.values = r.value;
    } else {
      for (const [column, message] of r.issues) errors.push({ row: record.row, column, message });
    }
  }
  let documents: (QuoteDocument | InvoiceDocument)[] | undefined;
  if (type === "quotes" || type === "invoices") documents = buildDocuments(type, rows, errors, rates, created);
  else findDuplicates(type as RowImportType, rows, errors);
  errors.sort((a, b) => a.row - b.row); // stable: within a row, in the order found
  const result = documents ? { type, rows, errors, documents } : { type, rows, errors };
  return result as unknown as ValidationResultFor<T>;
}

export type AnalysedCsv<T extends ImportType> =
  FileError | ({ ok: true; headers: string[]; warnings: string[] } & ValidationResultFor<T>);

/** parseCsv + validateRows: what the preview stores (or the file error it shows). */
export async function analyseCsv<T extends ImportType>(
  type: T,
  input: CsvInput,
  limits: ParseLimits = IMPORT_LIMITS,
  rates: ImportRates = {},
): Promise<AnalysedCsv<T>> {
  const parsed = await parseCsv(input, { ...limits, type });
  if (!parsed.ok) return parsed;
  const created = new Map<string, NewRate>();
  const result = validateRows(type, parsed.records, rates, created);
  // The tax rates the commit will create are said before it, beside the other warnings.
  const creates = [...created.values()].map(
    (r) => `Creates the tax rate "${r.name} ${ppmToPercentText(r.ppm)}%": the business has no rate of that name`,
  );
  return { ok: true, headers: parsed.headers, warnings: [...parsed.warnings, ...creates], ...result };
}
