// Applying a mapping to a parsed file (docs/decisions/150-152). Pure.
//
// Each record of the file becomes a record of section 5's columns, so the rows are validated
// by the same schemas as a file written with our own headers:
// - several columns for e-mail or phone, or several values in one cell (`a@x.com, b@y.com`;
//   `555-0100; 555-0101`): the first is the field, the others are kept in notes;
// - first + last name -> name, when no column holds the whole (display) name;
// - property_* columns -> the customer's service properties (`@N`: the Nth of the row);
// - a preset's `mergeBy`: rows sharing the value are one record, with all their properties.
// Errors and the preview name the file's own headers.
import type { ImportType } from "../columns";
import type { MappingSummary } from "../run-types";
import type { CsvRecord, ParsedCsvOk, RowError } from "../parse.server";
import { validateRows, type ValidationResultFor } from "../validate.server";
import { dateOrderOf, readDateTime, type DateOrder } from "./dates";
import { ALIASES, type Preset } from "./known-headers";
import { normaliseHeader, withoutEntityPrefix } from "./match";
import { splitTarget } from "./targets";
import type { ImportRates } from "../rates";

/** What the reading of a mapped file needs to know of the tenant. */
export interface MappingContext {
  /** The tenant's time zone: dates without an offset are its wall-clock times. */
  timeZone: string;
  /** The tenant's named tax rates, by name (a quotes or invoices file names them). */
  rates?: ImportRates;
}

/** Fields whose cells are other products' dates, turned into section 5 date-times. */
const DATE_TIME_FIELDS: Partial<Record<ImportType, readonly string[]>> = {
  jobs: ["scheduled_start", "scheduled_end"] as string[],
};

export interface PropertyDraft {
  label: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

const PROPERTY_FIELDS: Record<string, [keyof PropertyDraft, number]> = {
  property_label: ["label", 100],
  property_line1: ["addressLine1", 200],
  property_line2: ["addressLine2", 200],
  property_city: ["city", 100],
  property_region: ["region", 100],
  property_postal_code: ["postalCode", 20],
  property_country: ["country", 100],
};

const SPLIT = /[;,\n]+/;

/** The headers that name the notes field itself (its name and aliases), normalised. */
const NOTES_HEADERS = new Set([
  "notes",
  ...ALIASES.filter((a) => a.field === "notes").flatMap((a) => a.aliases.map(normaliseHeader)),
]);

function isNotesHeader(header: string): boolean {
  return NOTES_HEADERS.has(normaliseHeader(withoutEntityPrefix(header) ?? header));
}

function splitValues(cell: string): string[] {
  return cell
    .split(SPLIT)
    .map((v) => v.trim())
    .filter(Boolean);
}

interface Built {
  values: Record<string, string>;
  properties: PropertyDraft[];
  /** Property field -> the header it came from, per property (for error messages). */
  propertyHeaders: Record<string, string>[];
}

export interface MappedFile<T extends ImportType> {
  headers: string[];
  warnings: string[];
  result: ValidationResultFor<T>;
  /** Row numbers folded into a record (one client with several property rows), by the record's row. */
  mergedRows: Map<number, number[]>;
  /** Section 5 column -> the file's header, for errors found later (database checks). */
  columnHeaders: Record<string, string>;
  summary: MappingSummary;
}

/**
 * Turns the parsed file into section 5 records with `fields` (one per parsed header, null to
 * ignore) and validates them. Properties are checked here and attached to the customer rows.
 */
export function applyMapping<T extends ImportType>(
  type: T,
  parsed: ParsedCsvOk,
  fields: readonly (string | null)[],
  preset: Preset | null,
  context: MappingContext = { timeZone: "UTC" },
): MappedFile<T> {
  const keys = parsed.headers;
  const fileHeaders = parsed.fileHeaders;
  const dateNotes: string[] = [];
  // Per date column: day-first or month-first, read from the whole column (decision 220).
  const dateOrders = new Map<number, DateOrder>();
  const dateFields: readonly string[] = DATE_TIME_FIELDS[type] ?? [];
  fields.forEach((f, i) => {
    if (!f || !dateFields.includes(splitTarget(f)[0])) return;
    const fallback = preset?.dateOrder ?? "mdy";
    const found = dateOrderOf(
      (function* () {
        for (const r of parsed.records) if (!r.error) yield r.values[keys[i]] ?? "";
      })(),
      fallback,
    );
    dateOrders.set(i, found.order);
    if (found.ambiguous) {
      dateNotes.push(
        `Dates in "${fileHeaders[i]}" such as 03/04/2026 were read as ${found.order === "mdy" ? "month/day/year" : "day/month/year"}.`,
      );
    }
  });
  const headersOf = (field: string) =>
    keys.flatMap((_, i) => (fields[i] && splitTarget(fields[i]!)[0] === field ? [fileHeaders[i]] : []));
  const used = new Set(fields.flatMap((f) => (f ? [splitTarget(f)[0]] : [])));

  // The header each section 5 column is shown and named under.
  const columnHeaders: Record<string, string> = {};
  for (const f of used)
    if (!f.startsWith("property_") && f !== "first_name" && f !== "last_name")
      columnHeaders[f] = headersOf(f).join(" / ");
  if (type === "customers" && !used.has("name") && (used.has("first_name") || used.has("last_name"))) {
    columnHeaders.name = [...headersOf("first_name"), ...headersOf("last_name")].join(" + ");
  }
  if ((used.has("email") || used.has("phone")) && !columnHeaders.notes) columnHeaders.notes = "notes";
  const shown = Object.keys(columnHeaders);
  const display = (values: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const c of shown) out[columnHeaders[c]] = values[c] ?? "";
    return out;
  };

  // A notes cell from a column that is not itself a notes column ("Tags", "Gate code") keeps
  // its header, so the note says what it is.
  const notesHeader = fileHeaders.map((h) => isNotesHeader(h));

  function build(record: CsvRecord): Built {
    const values: Record<string, string> = {};
    const lists: Record<string, string[]> = { email: [], phone: [], notes: [] };
    let first = "";
    let last = "";
    const props = new Map<number, PropertyDraft>();
    const propHeaders = new Map<number, Record<string, string>>();
    for (let i = 0; i < keys.length; i++) {
      const target = fields[i];
      if (!target) continue;
      const cell = (record.values[keys[i]] ?? "").trim();
      if (!cell) continue;
      const [field, group] = splitTarget(target);
      if (field in PROPERTY_FIELDS) {
        let p = props.get(group);
        if (!p) {
          props.set(
            group,
            (p = {
              label: null,
              addressLine1: null,
              addressLine2: null,
              city: null,
              region: null,
              postalCode: null,
              country: null,
            }),
          );
          propHeaders.set(group, {});
        }
        const key = PROPERTY_FIELDS[field][0];
        if (p[key] === null) {
          p[key] = cell;
          propHeaders.get(group)![key] = fileHeaders[i];
        }
      } else if (field === "email" || field === "phone") lists[field].push(...splitValues(cell));
      else if (field === "notes") lists.notes.push(notesHeader[i] ? cell : `${fileHeaders[i]}: ${cell}`);
      else if (field === "first_name") first ||= cell;
      else if (field === "last_name") last ||= cell;
      else if (field === "external_id" && preset?.externalIdBefore)
        values[field] ||= cell.split(preset.externalIdBefore)[0];
      else if (dateOrders.has(i)) {
        // Another product's date: the section 5 date-time, or the cell as it is (the check names it).
        values[field] ||=
          readDateTime(cell, {
            order: dateOrders.get(i)!,
            timeZone: context.timeZone,
            end: field === "scheduled_end",
          }) ?? cell;
      } else values[field] ||= cell;
    }
    if (type === "customers" && !values.name)
      values.name = [first, last].filter(Boolean).join(" ") || values.company || "";
    const notes = [...lists.notes];
    for (const field of ["email", "phone"] as const) {
      const distinct = [...new Set(lists[field])];
      if (distinct.length) values[field] = distinct[0];
      if (distinct.length > 1)
        notes.push(`Other ${field === "email" ? "e-mails" : "phones"}: ${distinct.slice(1).join(", ")}`);
    }
    if (notes.length) values.notes = notes.join("\n");
    const order = [...props.keys()].sort((a, b) => a - b);
    const properties = order
      .map((g) => props.get(g)!)
      .filter((p) => p.addressLine1 || p.city || p.postalCode || p.label);
    return {
      values,
      properties,
      propertyHeaders: order.filter((g) => properties.includes(props.get(g)!)).map((g) => propHeaders.get(g)!),
    };
  }

  // Build, folding rows of one record together (a preset's mergeBy).
  const records: CsvRecord[] = [];
  const built = new Map<number, Built>();
  const mergedRows = new Map<number, number[]>();
  const byKey = new Map<string, number>();
  for (const record of parsed.records) {
    if (record.error) {
      records.push({ row: record.row, values: {}, error: record.error });
      continue;
    }
    const b = build(record);
    const key = preset?.mergeBy ? b.values[preset.mergeBy] : undefined;
    const into = key ? byKey.get(key) : undefined;
    if (into !== undefined) {
      const target = built.get(into)!;
      for (let i = 0; i < b.properties.length; i++) {
        const p = b.properties[i];
        const same = target.properties.some(
          (q) => q.addressLine1 === p.addressLine1 && q.postalCode === p.postalCode && q.label === p.label,
        );
        if (!same) {
          target.properties.push(p);
          target.propertyHeaders.push(b.propertyHeaders[i]);
        }
      }
      mergedRows.get(into)!.push(record.row);
      continue;
    }
    if (key) {
      byKey.set(key, record.row);
      mergedRows.set(record.row, []);
    }
    built.set(record.row, b);
    records.push({ row: record.row, values: b.values });
  }

  const result = validateRows(type, records, context.rates);
  const errors: RowError[] = result.errors.map((e) => ({
    ...e,
    column: e.column === null ? null : (columnHeaders[e.column] ?? e.column),
  }));
  let propertyCount = 0;
  for (const row of result.rows as {
    rowNumber: number;
    ok: boolean;
    values: Record<string, unknown> | null;
    raw: Record<string, string>;
  }[]) {
    const b = built.get(row.rowNumber);
    row.raw = display(b?.values ?? {});
    if (type !== "customers" || !b) continue;
    if (b.properties.length) {
      row.raw["service properties"] = b.properties
        .map((p) => [p.label, p.addressLine1, p.city].filter(Boolean).join(", "))
        .join("; ");
    }
    b.properties.forEach((p, i) => {
      for (const [, [key, max]] of Object.entries(PROPERTY_FIELDS)) {
        const v = p[key];
        if (v !== null && v.length > max) {
          errors.push({
            row: row.rowNumber,
            column: b.propertyHeaders[i][key] ?? key,
            message: `Up to ${max} characters`,
          });
          row.ok = false;
        }
      }
    });
    propertyCount += b.properties.length;
    if (row.values) {
      // The customer's own address: its billing address, else its first property's.
      const v = row.values as Record<string, unknown>;
      const first = b.properties[0];
      if (first && !v.addressLine1 && !v.city && !v.postalCode) {
        Object.assign(v, {
          addressLine1: first.addressLine1,
          addressLine2: first.addressLine2,
          city: first.city,
          region: first.region,
          postalCode: first.postalCode,
          country: first.country,
        });
      }
      v.properties = b.properties;
    }
  }
  errors.sort((a, b) => a.row - b.row);
  result.errors = errors;

  const headers = shown.map((c) => columnHeaders[c]);
  if (propertyCount) headers.push("service properties");
  const ignored = fileHeaders.filter((_, i) => !fields[i]);
  const warnings = [...parsed.warnings, ...dateNotes];
  if (ignored.length)
    warnings.push(
      `${ignored.length === 1 ? "A column was" : `${ignored.length} columns were`} not imported: ${ignored.map((h) => `"${h}"`).join(", ")}.`,
    );
  return {
    headers,
    warnings,
    result,
    mergedRows,
    columnHeaders,
    summary: {
      preset: preset?.label ?? null,
      columns: fileHeaders.map((header, i) => ({ header, field: fields[i] ?? null })),
    },
  };
}
