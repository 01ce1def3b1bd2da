// A record's field list is the one place its columns are written (docs/decisions/290-field-lists.md).
// The test adds a made-up customer column to the list in memory, before any consumer is loaded,
// then loads the real consumers and finds the column in each: the form's and the import's schema,
// the import page's column table, the sample's header, the parse (no "unknown column"), the
// preview's stored records, the commit's INSERT and the list's SELECT and columns. The form is
// the one consumer laid out by hand: the test finds the made-up column missing there, and every
// real column placed. No database, no build, no server: each test file runs in its own process,
// and nothing here imports a consumer before the list has its extra column.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { CUSTOMER_FIELDS } from "../../app/services/customers/fields";
import { JOB_FIELDS } from "../../app/services/jobs/fields";
import { QUOTE_FIELDS } from "../../app/services/quotes/fields";
import { INVOICE_FIELDS } from "../../app/services/invoices/fields";
import { TEAM_FIELDS } from "../../app/services/team/fields";
import { field, type AnyField } from "../../app/services/import/field-list";
import { maxLen, optional } from "../../app/services/import/cells";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REAL = CUSTOMER_FIELDS.map((f) => f.csv);

// The scratch column: what a new customer column adds to the field list, and nothing else.
const MADE_UP = field({
  key: "gateCode",
  column: "gate_code",
  csv: "gate_code",
  check: optional(maxLen(20)),
  label: "Gate code",
  format: "Text, up to 20 characters",
  example: "4412#",
  list: true,
});
(CUSTOMER_FIELDS as unknown as AnyField[]).push(MADE_UP);

// The same for a job, a quote and an invoice (a document-level column: one value per document)
// and a team member.
const madeUp = (key: string, column: string, example: string) =>
  field({
    key,
    column,
    csv: column,
    check: optional(maxLen(40)),
    label: key,
    format: "Text, up to 40 characters",
    example,
  });
const OTHER_LISTS = {
  jobs: [JOB_FIELDS, madeUp("permitNumber", "permit_number", "P-77")],
  quotes: [QUOTE_FIELDS, madeUp("poNumber", "po_number", "PO-1")],
  invoices: [INVOICE_FIELDS, madeUp("poNumber", "po_number", "PO-2")],
  team: [TEAM_FIELDS, madeUp("badge", "badge", "B-9")],
} as const;
const REAL_OTHER = Object.fromEntries(
  Object.entries(OTHER_LISTS).map(([type, [list]]) => [type, list.map((f) => f.csv)]),
) as Record<keyof typeof OTHER_LISTS, string[]>;
for (const [list, extra] of Object.values(OTHER_LISTS)) (list as unknown as AnyField[]).push(extra);

// Loaded only now, so each derives from the list with the made-up column.
const { customerSchema } = await import("../../app/services/customers/schema");
const { CUSTOMER_LIST_COLUMNS } = await import("../../app/services/customers/schema");
const { customerListQuery } = await import("../../app/services/customers/customers.server");
const { IMPORT_COLUMNS, IMPORT_LIMITS } = await import("../../app/services/import/columns");
const { ROW_SCHEMAS, analyseCsv } = await import("../../app/services/import/validate.server");
const { sampleCsv } = await import("../../app/services/import/samples");
const { COMMIT_SQL, RECORD_COLUMNS, recordSlices } = await import("../../app/services/import/records.server");
const { missingRequired, mappingTargets } = await import("../../app/services/import/mapping/targets");
const { ColumnsTable } = await import("../../app/components/import/columns-table");
const { exportFiles } = await import("../../app/services/export/files");

/** The form's field names placed on the customer form (`f("name")`). */
function formPlaces(): Set<string> {
  const source = fs.readFileSync(path.join(ROOT, "app/components/customer-form.tsx"), "utf8");
  return new Set([...source.matchAll(/\bf\("([a-z0-9_]+)"\)/g)].map((m) => m[1]));
}

describe("a new customer column is written once, in the field list", () => {
  it("the form's and the import's schema (one schema) check it and give it by its code name", () => {
    assert.equal(ROW_SCHEMAS.customers, customerSchema, "the import checks customer rows with the form's schema");
    const ok = customerSchema.safeParse({ name: "Zoë", gate_code: "  4412# " });
    assert.ok(ok.success);
    assert.equal((ok.data as Record<string, unknown>).gateCode, "4412#");
    const long = customerSchema.safeParse({ name: "Zoë", gate_code: "x".repeat(21) });
    assert.ok(!long.success && long.error.issues.some((i) => i.path[0] === "gate_code"));
  });

  it("the import page's column table, the mapping targets and the sample's header name it", () => {
    assert.ok(IMPORT_COLUMNS.customers.some((c) => c.name === "gate_code" && c.example === "4412#"));
    const html = renderToString(createElement(ColumnsTable, { type: "customers", collapsed: false }));
    assert.match(html, /<code>gate_code<\/code>/);
    assert.match(html, /Text, up to 20 characters/);
    assert.ok(mappingTargets("customers").some((t) => t.name === "gate_code"));
    assert.deepEqual(missingRequired("customers", ["name"]), []);
    const header = sampleCsv("customers")
      .split("\r\n")[0]
      .replace(/^\uFEFF/, "");
    assert.deepEqual(header.split(","), [...REAL, "gate_code"]);
  });

  it("a file with the column parses without a warning, previews its value and commits it", async () => {
    const csv = "name,email,gate_code\nZoë Kowalski,zoe@example.com,4412#\n";
    const analysed = await analyseCsv("customers", csv, IMPORT_LIMITS);
    assert.ok(analysed.ok);
    assert.deepEqual(analysed.warnings, []);
    assert.deepEqual(analysed.errors, []);
    assert.equal((analysed.rows[0].values as Record<string, unknown>).gateCode, "4412#");
    // The preview stores each record as an array in RECORD_COLUMNS order; the commit reads it by position.
    const at = RECORD_COLUMNS.customers.findIndex(([name]) => name === "gate_code");
    assert.ok(at >= 0, "the stored preview record has the column");
    const [slice] = [...recordSlices(analysed, 100)];
    assert.equal(slice[0][at], "4412#");
    const main = `${COMMIT_SQL.customers.with} ${COMMIT_SQL.customers.main}`.replace(/\s+/g, " ");
    assert.match(main, /INSERT INTO customers \([^)]*\bgate_code\b[^)]*\)/);
    assert.match(main, /SELECT \$1, r\.id, [^$]*\br\.gate_code\b/);
    assert.match(main, new RegExp(`\\(x->>${at}\\)::text AS gate_code`));
  });

  it("the list selects it and shows it under its label", () => {
    assert.deepEqual(CUSTOMER_LIST_COLUMNS.at(-1), { column: "gate_code", label: "Gate code" });
    const query = customerListQuery("00000000-0000-4000-8000-000000000000", { q: "", filter: "all" } as never);
    assert.match(query.select, /\bc\.gate_code\b/);
    const route = fs.readFileSync(path.join(ROOT, "app/routes/customers._index.tsx"), "utf8");
    // The loader hands the field list's columns to the page (the list's schema stays on the server).
    assert.match(route, /columns: CUSTOMER_LIST_COLUMNS\b/, "the list page's loader sends the field list's columns");
    assert.match(route, /columnsOf\(columnList\)/, "the list page builds its columns from what the loader sent");
  });

  it("the form is the one place laid out by hand: every real column is placed, the made-up one is not yet", () => {
    const placed = formPlaces();
    assert.deepEqual(
      REAL.filter((c) => !placed.has(c)),
      [],
      "every column of the field list has its place on the customer form",
    );
    assert.ok(!placed.has("gate_code"));
  });
});

describe("a new job, quote, invoice or team column is written once, in its field list", () => {
  const minimal = {
    jobs: { title: "Fix", customer_email: "a@x.co" },
    quotes: { number: "Q-1", customer_email: "a@x.co", item_description: "Work", item_unit_price: "10" },
    invoices: { number: "I-1", customer_email: "a@x.co", item_description: "Work", item_unit_price: "10" },
    team: { name: "Tom", email: "tom@x.co", role: "technician" },
  } as const;

  for (const [type, [, extra]] of Object.entries(OTHER_LISTS) as [
    keyof typeof OTHER_LISTS,
    (typeof OTHER_LISTS)[keyof typeof OTHER_LISTS],
  ][]) {
    it(`${type}: the import's checks, column table, sample and stored records have it`, async () => {
      const r = ROW_SCHEMAS[type].safeParse({ ...minimal[type], [extra.csv]: ` ${extra.example} ` });
      assert.ok(r.success);
      assert.equal((r.data as unknown as Record<string, unknown>)[extra.key], extra.example);
      const long = ROW_SCHEMAS[type].safeParse({ ...minimal[type], [extra.csv]: "x".repeat(41) });
      assert.ok(!long.success && long.error.issues.some((i) => i.path[0] === extra.csv));
      assert.deepEqual(
        IMPORT_COLUMNS[type].map((c) => c.name),
        [...REAL_OTHER[type], extra.csv],
      );
      const header = sampleCsv(type)
        .split("\r\n")[0]
        .replace(/^\uFEFF/, "");
      assert.deepEqual(header.split(","), [...REAL_OTHER[type], extra.csv]);
      assert.ok(mappingTargets(type).some((t) => t.name === extra.csv));
      const csv = `${Object.keys(minimal[type]).join(",")},${extra.csv}\n${Object.values(minimal[type]).join(",")},${extra.example}\n`;
      const analysed = await analyseCsv(type, csv, IMPORT_LIMITS);
      assert.ok(analysed.ok);
      assert.deepEqual(analysed.warnings, []);
      assert.deepEqual(analysed.errors, []);
      const at = (RECORD_COLUMNS[type] as readonly (readonly [string, string, unknown])[]).findIndex(
        ([name]) => name === extra.column,
      );
      assert.ok(at >= 0, "the stored preview record has the column");
      const [slice] = [...recordSlices(analysed, 100)];
      assert.equal(slice[0][at], extra.example);
    });
  }

  it("the rows of one quote or invoice must agree on a new document-level column", async () => {
    for (const type of ["quotes", "invoices"] as const) {
      const [, extra] = OTHER_LISTS[type];
      const m = minimal[type];
      const head = `${Object.keys(m).join(",")},${extra.csv}`;
      const row = (v: string) => `${Object.values(m).join(",")},${v}`;
      const analysed = await analyseCsv(type, `${head}\n${row("A")}\n${row("B")}\n`, IMPORT_LIMITS);
      assert.ok(analysed.ok);
      assert.deepEqual(
        analysed.errors.map((e) => [e.row, e.column]),
        [[3, extra.csv]],
      );
    }
  });
});

describe("the account export writes every column of a record's field list", () => {
  const files = new Map(exportFiles().map((f) => [f.name, f]));
  const cases = [
    ["customers", MADE_UP.csv, MADE_UP.column, REAL],
    ...Object.entries(OTHER_LISTS).map(
      ([type, [, extra]]) => [type, extra.csv, extra.column, REAL_OTHER[type as keyof typeof OTHER_LISTS]] as const,
    ),
  ] as const;
  for (const [type, csv, column, real] of cases) {
    it(`${type}.csv has the made-up column, read from the record, after the real ones`, () => {
      const file = files.get(`${type}.csv`);
      assert.ok(file, `the export has ${type}.csv`);
      assert.equal(file.importType, type);
      assert.deepEqual(file.headers, [...real, csv], "the import's columns, the new one last");
      const select = file.sql.replace(/\s+/g, " ");
      assert.match(select, new RegExp(`\\br\\.${column} AS c${real.length}\\b`), "its cell is the record's column");
    });
  }
});

describe("the field list's shape", () => {
  it("names are unique, CSV names are the import's snake case, and the list holds what the model declares", () => {
    const real = CUSTOMER_FIELDS.slice(0, REAL.length);
    for (const k of ["key", "column", "csv"] as const)
      assert.equal(new Set(real.map((f) => f[k])).size, real.length, `${k} is unique`);
    for (const f of real) assert.match(f.csv, /^[a-z][a-z0-9_]*$/);
    const model = fs.readFileSync(path.join(ROOT, "db/models/customer.ts"), "utf8");
    const declared = [...model.matchAll(/@(?:Text|RequiredText|Bool)\s+declare (\w+)/g)].map((m) => m[1]);
    assert.deepEqual(
      declared.sort(),
      real.map((f) => f.key).sort(),
      "every text and yes/no attribute of the Customer model is in the field list",
    );
  });
});
