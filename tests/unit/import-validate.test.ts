// CSV import row validation (CONTRACT section 5): normalised values, row errors with row
// number and column, duplicates inside a file, quote and invoice documents and their totals.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { ImportType } from "../../app/services/import/columns";
import { IMPORT_COLUMNS, IMPORT_LIMITS } from "../../app/services/import/columns";
import type { CsvRecord } from "../../app/services/import/parse.server";
import {
  analyseCsv,
  collectReferences,
  collectUniqueValues,
  ROW_SCHEMAS,
  validateRows,
  type AnalysedCsv,
  type RowValues,
  type ValidatedRow,
} from "../../app/services/import/validate.server";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url));

function ok<T extends ImportType>(r: AnalysedCsv<T>) {
  if (!r.ok) assert.fail(`file error ${r.code}: ${r.message}`);
  return r;
}

/** Validates one record of the given type, the row numbered 2. */
function one<T extends ImportType>(type: T, values: Record<string, string>) {
  const r = validateRows(type, [{ row: 2, values }]);
  return { row: r.rows[0] as ValidatedRow<RowValues[T]>, errors: r.errors.map((e) => `${e.column}: ${e.message}`) };
}

describe("a file mixing good and bad rows", () => {
  it("reports every error with its row number and column", async () => {
    const r = ok(await analyseCsv("customers", fixture("customers-mixed.csv")));
    assert.deepEqual(r.warnings, ['Unknown column "favourite colour" is ignored.']);
    assert.deepEqual(r.errors, [
      { row: 3, column: "name", message: "Required" },
      { row: 4, column: "email", message: "Not a valid email address" },
      {
        row: 5,
        column: "phone",
        message: "Not a valid phone number (digits, spaces, + ( ) - . and an optional extension like x12)",
      },
      { row: 6, column: "email", message: "Same email as row 2" },
      { row: 7, column: "external_id", message: "Same external_id as row 2" },
      { row: 8, column: null, message: "This row has 5 cells but the header has 8 columns." },
      { row: 10, column: null, message: "This row has 9 cells but the header has 8 columns." },
    ]);
    assert.deepEqual(
      r.rows.filter((x) => x.ok).map((x) => x.rowNumber),
      [2, 9, 12],
    );
    const hal = r.rows.find((x) => x.rowNumber === 9)?.values;
    assert.equal(hal?.name, "Hal Jordan"); // single-line field: the line break collapses
    assert.equal(hal?.notes, "Two\nlines");
    const jo = r.rows.find((x) => x.rowNumber === 12)?.values;
    assert.deepEqual([jo?.email, jo?.notes, jo?.company], ["jo@example.com", 'She said "hi"', null]);
    assert.equal(r.rows[0].values?.city, "São Paulo");
  });
});

describe("normalised values", () => {
  it("customers: trimmed, empty -> null, email lower-cased, formula escape removed", () => {
    const { row, errors } = one("customers", {
      name: "  Zoë   Kowalski ",
      email: " Zoe@Example.COM ",
      phone: "'+1 512 555 0142",
      company: "   ",
      notes: " line 1\r\nline 2 ",
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(row.values, {
      name: "Zoë Kowalski",
      company: null,
      email: "zoe@example.com",
      phone: "+1 512 555 0142",
      addressLine1: null,
      addressLine2: null,
      city: null,
      region: null,
      postalCode: null,
      country: null,
      notes: "line 1\nline 2",
      externalId: null,
      taxExempt: false,
      taxExemptReason: null,
    });
  });

  it("decomposed accents are stored composed (NFC)", () => {
    assert.equal(one("customers", { name: "Zoe\u0308" }).row.values?.name, "Zo\u00eb");
  });

  it("length limits", () => {
    assert.deepEqual(one("customers", { name: "x".repeat(200) }).errors, []);
    assert.deepEqual(one("customers", { name: "x".repeat(201) }).errors, [
      "name: At most 200 characters (this has 201)",
    ]);
    assert.deepEqual(one("customers", { name: "A", notes: "n".repeat(5001) }).errors, [
      "notes: At most 5,000 characters (this has 5001)",
    ]);
  });

  it("team: role and money", () => {
    const { row, errors } = one("team", { name: "Dev", email: "DEV@x.co", role: "Technician", hourly_rate: "58.7" });
    assert.deepEqual(errors, []);
    assert.deepEqual(row.values, {
      name: "Dev",
      email: "dev@x.co",
      role: "technician",
      phone: null,
      hourlyRateCents: 5870,
    });
    assert.deepEqual(one("team", { name: "O", email: "o@x.co", role: "owner" }).errors, [
      "role: Must be one of: admin, office, technician",
    ]);
    assert.deepEqual(one("team", { name: "O", role: "office" }).errors, ["email: Required"]);
  });

  it("money: exact cents, at most 2 decimals, never negative", () => {
    const cents = (v: string) => one("team", { name: "a", email: "a@x.co", role: "office", hourly_rate: v });
    assert.equal(cents("0.1").row.values?.hourlyRateCents, 10);
    assert.equal(cents("19.99").row.values?.hourlyRateCents, 1999);
    assert.equal(cents("0019.9").row.values?.hourlyRateCents, 1990);
    assert.equal(cents("99999999.99").row.values?.hourlyRateCents, 9_999_999_999);
    assert.equal(cents("-0.00").row.values?.hourlyRateCents, 0);
    for (const bad of ["1.234", "1,000", "$5", "1e3", ".", "1.", "abc", "+5"])
      assert.equal(cents(bad).row.ok, false, bad);
    assert.deepEqual(cents("-1").errors, ["hourly_rate: Must be 0 or more"]);
    assert.deepEqual(cents("100000000").errors, ["hourly_rate: Too large (at most 99999999.99)"]);
  });

  it("jobs: date-times with offset -> UTC, status defaults and order of times", () => {
    const base = { title: "Fix", customer_email: "a@x.co" };
    const s = one("jobs", {
      ...base,
      scheduled_start: "2026-07-06T08:00:00-05:00",
      scheduled_end: "2026-07-06 15:30+02",
    });
    assert.deepEqual(s.errors, []);
    assert.equal(s.row.values?.status, "scheduled");
    assert.equal(s.row.values?.scheduledStart, "2026-07-06T13:00:00.000Z");
    assert.equal(s.row.values?.scheduledEnd, "2026-07-06T13:30:00.000Z");
    assert.equal(one("jobs", base).row.values?.status, "unscheduled");
    assert.equal(
      one("jobs", { ...base, scheduled_start: "2026-07-06T08:00:00.123456Z" }).row.values?.scheduledStart,
      "2026-07-06T08:00:00.123Z",
    );
    assert.deepEqual(one("jobs", { ...base, scheduled_start: "2026-07-06T08:00:00" }).errors, [
      "scheduled_start: Must be a date-time with a UTC offset, like 2026-07-06T08:00:00-05:00 or 2026-07-06T13:00:00Z",
    ]);
    assert.deepEqual(one("jobs", { ...base, scheduled_start: "2026-02-30T08:00:00Z" }).errors, [
      "scheduled_start: Not a real date and time",
    ]);
    assert.deepEqual(
      one("jobs", { ...base, scheduled_start: "2026-07-06T10:00:00Z", scheduled_end: "2026-07-06T09:59:59Z" }).errors,
      ["scheduled_end: Must not be before scheduled_start"],
    );
    assert.deepEqual(one("jobs", { ...base, status: "scheduled" }).errors, [
      "scheduled_start: Required when status is scheduled",
    ]);
    assert.deepEqual(one("jobs", { ...base, scheduled_end: "2026-07-06T10:00:00Z" }).errors, [
      "scheduled_end: Needs a scheduled_start",
    ]);
    // Every status an account export writes is imported; one on the calendar needs its time.
    assert.deepEqual(one("jobs", { ...base, status: "en_route" }).errors, [
      "scheduled_start: Required when status is en_route",
    ]);
    for (const status of ["en_route", "in_progress", "on_hold"]) {
      const r = one("jobs", { ...base, status, scheduled_start: "2026-07-06T08:00:00Z" });
      assert.deepEqual(r.errors, []);
      assert.equal(r.row.values?.status, status);
    }
    assert.deepEqual(one("jobs", { ...base, status: "done" }).errors, [
      "status: Must be one of: unscheduled, scheduled, en_route, in_progress, on_hold, completed, cancelled",
    ]);
  });

  it("quotes: every status an export writes; converted is imported as approved", () => {
    const base = { number: "Q-1", customer_email: "a@x.co", item_description: "Work", item_unit_price: "10" };
    for (const status of ["draft", "sent", "approved", "declined", "expired"])
      assert.equal(one("quotes", { ...base, status }).row.values?.status, status);
    assert.equal(one("quotes", { ...base, status: "Converted" }).row.values?.status, "approved");
    assert.deepEqual(one("quotes", { ...base, status: "won" }).errors, [
      "status: Must be one of: draft, sent, approved, declined, expired, converted",
    ]);
  });

  it("jobs: a customer reference is required, naming the column the file has", () => {
    assert.deepEqual(one("jobs", { title: "T", customer_email: "" }).errors, [
      "customer_email: customer_email or customer_external_id is required",
    ]);
    assert.deepEqual(one("jobs", { title: "T", customer_external_id: " " }).errors, [
      "customer_external_id: customer_email or customer_external_id is required",
    ]);
    assert.deepEqual(one("jobs", { title: "T", customer_email: "", customer_external_id: "C-1" }).errors, []);
  });

  it("dates are real calendar dates and ordered", () => {
    const q = (d: Record<string, string>) =>
      one("quotes", { number: "Q", customer_email: "a@x.co", item_description: "x", item_unit_price: "1", ...d })
        .errors;
    assert.deepEqual(q({ issue_date: "2028-02-29" }), []);
    assert.deepEqual(q({ issue_date: "2027-02-29" }), ["issue_date: Not a real calendar date"]);
    assert.deepEqual(q({ issue_date: "2026-7-1" }), ["issue_date: Must be a date as YYYY-MM-DD"]);
    assert.deepEqual(q({ issue_date: "2026-07-02", valid_until: "2026-07-01" }), [
      "valid_until: Must not be before issue_date",
    ]);
  });

  it("quantity, tax rate and currency", () => {
    const q = (d: Record<string, string>) =>
      one("quotes", { number: "Q", customer_email: "a@x.co", item_description: "x", item_unit_price: "1", ...d });
    const v = q({ item_quantity: "2.125", tax_rate: "8.875%", currency: "eur" }).row.values;
    assert.deepEqual([v?.itemQuantityMilli, v?.taxRatePpm, v?.currency], [2125, 88_750, "EUR"]);
    const d = q({}).row.values;
    assert.deepEqual([d?.itemQuantityMilli, d?.taxRatePpm, d?.currency, d?.status], [1000, 0, "USD", "draft"]);
    assert.deepEqual(q({ item_quantity: "0" }).errors, ["item_quantity: Must be above 0"]);
    assert.deepEqual(q({ item_quantity: "1.2345" }).errors, [
      "item_quantity: Must be a number above 0 with up to 3 decimals, like 2.5",
    ]);
    assert.deepEqual(q({ tax_rate: "100.001" }).errors, [
      "tax_rate: Must be a percent from 0 to 100 with up to 3 decimals, like 8.25",
    ]);
    assert.deepEqual(q({ tax_rate: "100" }).errors, []);
    assert.deepEqual(q({ currency: "XYZ" }).errors, [
      "currency: Must be a 3-letter ISO 4217 currency code, like USD or EUR",
    ]);
  });
});

describe("duplicates inside a file", () => {
  const rec = (row: number, values: Record<string, string>): CsvRecord => ({ row, values });
  it("team by email (case-insensitive), jobs by external_id", () => {
    const team = validateRows("team", [
      rec(2, { name: "A", email: "a@x.co", role: "office" }),
      rec(3, { name: "B", email: "A@X.CO", role: "admin" }),
    ]);
    assert.deepEqual(team.errors, [{ row: 3, column: "email", message: "Same email as row 2" }]);
    assert.equal(team.rows[1].ok, false);
    assert.equal(team.rows[1].values?.email, "a@x.co"); // kept: it is the clash that fails
    const jobs = validateRows("jobs", [
      rec(2, { title: "A", customer_email: "c@x.co", external_id: "J-1" }),
      rec(3, { title: "", customer_email: "c@x.co", external_id: "J-1" }),
      rec(4, { title: "C", customer_email: "c@x.co", external_id: "j-1" }),
    ]);
    assert.deepEqual(jobs.errors, [
      { row: 3, column: "title", message: "Required" },
      { row: 3, column: "external_id", message: "Same external_id as row 2" },
    ]);
  });
});

describe("quote and invoice documents", () => {
  const quoteCsv = [
    "number,customer_email,title,status,issue_date,valid_until,currency,item_description,item_quantity,item_unit_price,tax_rate,notes",
    "Q-1,ann@x.co,Boiler,sent,2026-06-01,2026-06-30,usd,Boiler,1,1999.99,8.25,",
    "Q-2,bob@x.co,Tap,draft,,,USD,Tap washer,3,0.35,0,",
    "Q-1,ANN@x.co,Boiler,Sent,2026-06-01,2026-06-30,USD,Labour,2.5,85.50,,",
    "Q-1,ann@x.co,Boiler,sent,2026-06-01,2026-06-30,USD,Valve,0.333,3.00,20,",
  ].join("\n");

  it("groups rows sharing a number into one document with exact totals", async () => {
    const r = ok(await analyseCsv("quotes", quoteCsv));
    assert.deepEqual(r.errors, []);
    assert.equal(r.documents.length, 2);
    const q1 = r.documents[0];
    assert.deepEqual(
      {
        number: q1.number,
        rowNumbers: q1.rowNumbers,
        ok: q1.ok,
        status: q1.status,
        currency: q1.currency,
        customer: q1.customerEmail,
      },
      { number: "Q-1", rowNumbers: [2, 4, 5], ok: true, status: "sent", currency: "USD", customer: "ann@x.co" },
    );
    // 1 x 1999.99 = 1999.99, tax 8.25% = 164.999175 -> 165.00
    // 2.5 x 85.50 = 213.75, no tax
    // 0.333 x 3.00 = 0.999 -> 1.00, tax 20% = 0.20
    assert.deepEqual(
      q1.items.map((i) => [
        i.position,
        i.rowNumber,
        i.quantityMilli,
        i.unitPriceCents,
        i.taxRatePpm,
        i.lineSubtotalCents,
        i.lineTaxCents,
        i.lineTotalCents,
      ]),
      [
        [1, 2, 1000, 199_999, 82_500, 199_999, 16_500, 216_499],
        [2, 4, 2500, 8550, 0, 21_375, 0, 21_375],
        [3, 5, 333, 300, 200_000, 100, 20, 120],
      ],
    );
    assert.deepEqual([q1.subtotalCents, q1.taxCents, q1.totalCents], [221_474, 16_520, 237_994]);
    const q2 = r.documents[1];
    assert.deepEqual([q2.number, q2.items.length, q2.totalCents], ["Q-2", 1, 105]); // 3 x 0.35
  });

  it("rounds half up per line", async () => {
    // 0.5 x 0.01 = 0.005 -> 0.01; 1.00 at 0.5% = 0.005 -> 0.01; 0.5 x 0.03 = 0.015 -> 0.02
    const csv =
      "number,customer_email,item_description,item_quantity,item_unit_price,tax_rate\nQ,a@x.co,a,0.5,0.01,\nQ,a@x.co,b,1,1.00,0.5\nQ,a@x.co,c,0.5,0.03,\n";
    const doc = ok(await analyseCsv("quotes", csv)).documents[0];
    assert.deepEqual(
      doc.items.map((i) => [i.lineSubtotalCents, i.lineTaxCents]),
      [
        [1, 0],
        [100, 1],
        [2, 0],
      ],
    );
    assert.equal(doc.totalCents, 104);
  });

  it("rows that disagree on a document column are errors naming the column", async () => {
    const csv = [
      "number,customer_email,title,status,currency,item_description,item_unit_price,notes",
      "Q-9,ann@x.co,Boiler,sent,USD,a,1,",
      "Q-9,ann@x.co,Boiler swap,sent,EUR,b,2,",
      "Q-9,bob@x.co,Boiler,sent,USD,c,3,",
      "Q-9,ann@x.co,Boiler,sent,USD,d,4,",
    ].join("\n");
    const r = ok(await analyseCsv("quotes", csv));
    assert.deepEqual(r.errors, [
      { row: 3, column: "title", message: 'Differs from row 2 of quote Q-9, which has "Boiler"' },
      { row: 3, column: "currency", message: 'Differs from row 2 of quote Q-9, which has "USD"' },
      { row: 4, column: "customer_email", message: 'Differs from row 2 of quote Q-9, which has "ann@x.co"' },
    ]);
    assert.deepEqual(
      r.rows.map((x) => x.ok),
      [true, false, false, true],
    );
    const doc = r.documents[0];
    assert.equal(doc.ok, false);
    assert.deepEqual(doc.rowNumbers, [2, 3, 4, 5]);
    assert.deepEqual(
      doc.items.map((i) => i.description),
      ["a", "d"],
    );
  });

  it("tax_rate is per line, so it may differ within a document", async () => {
    const csv =
      "number,customer_email,item_description,item_unit_price,tax_rate\nQ,a@x.co,parts,100,8.25\nQ,a@x.co,labour,100,0\n";
    const r = ok(await analyseCsv("quotes", csv));
    assert.deepEqual(r.errors, []);
    assert.equal(r.documents[0].taxCents, 825);
  });

  it("invoices: amount_paid must fit the status and the total", async () => {
    const head = "number,customer_external_id,status,item_description,item_unit_price,tax_rate,amount_paid";
    const csv = [
      head,
      "I-1,C1,paid,a,100,10,110.00", // paid in full
      "I-2,C1,paid,a,100,,", // empty = the total
      "I-3,C1,paid,a,100,,99.99",
      "I-4,C1,partial,a,100,,40",
      "I-4,C1,partial,b,50,,40",
      "I-5,C1,partial,a,100,,100",
      "I-6,C1,partial,a,100,,",
      "I-7,C1,sent,a,100,,0",
      "I-8,C1,draft,a,100,,5",
      "I-9,C1,void,a,100,,30",
      "I-10,C1,void,a,100,,300",
      "I-11,C1,sent,a,100,,",
      "I-11,C1,sent,b,100,,0",
    ].join("\n");
    const r = ok(await analyseCsv("invoices", csv));
    assert.deepEqual(r.errors, [
      { row: 4, column: "amount_paid", message: "Must equal the invoice total (100.00) when status is paid" },
      { row: 7, column: "amount_paid", message: "Must be below the invoice total (100.00) when status is partial" },
      { row: 8, column: "amount_paid", message: "Required (above 0) when status is partial" },
      {
        row: 10,
        column: "amount_paid",
        message: "Must be empty or 0 while the invoice is draft (use partial or paid)",
      },
      { row: 12, column: "amount_paid", message: "Cannot be more than the invoice total (100.00)" },
      { row: 14, column: "amount_paid", message: "Differs from row 13 of invoice I-11, which has empty" },
    ]);
    const byNumber = new Map(r.documents.map((d) => [d.number, d]));
    assert.deepEqual(
      [byNumber.get("I-1")?.totalCents, byNumber.get("I-1")?.amountPaidCents, byNumber.get("I-1")?.balanceCents],
      [11_000, 11_000, 0],
    );
    assert.equal(byNumber.get("I-2")?.amountPaidCents, 10_000);
    assert.deepEqual(
      [byNumber.get("I-4")?.totalCents, byNumber.get("I-4")?.amountPaidCents, byNumber.get("I-4")?.ok],
      [15_000, 4000, true],
    );
    assert.deepEqual([byNumber.get("I-9")?.amountPaidCents, byNumber.get("I-9")?.ok], [3000, true]);
    assert.equal(byNumber.get("I-7")?.amountPaidCents, 0);
  });
});

describe("keys for the database layer", () => {
  it("lists references and unique values once each", async () => {
    const csv = [
      "title,customer_email,customer_external_id,assignee_email,external_id",
      "A,ann@x.co,,tom@x.co,J-1",
      "B,ANN@x.co,C-7,tom@x.co,J-2",
      "C,,C-8,,J-3",
    ].join("\n");
    const r = ok(await analyseCsv("jobs", csv));
    assert.deepEqual(collectReferences("jobs", r.rows), {
      "customer.email": ["ann@x.co"],
      "customer.externalId": ["C-7", "C-8"],
      "user.email": ["tom@x.co"],
    });
    assert.deepEqual(collectUniqueValues("jobs", r.rows), { external_id: ["J-1", "J-2", "J-3"] });
  });

  it("every schema knows exactly the columns of CONTRACT section 5", () => {
    for (const type of Object.keys(IMPORT_COLUMNS) as ImportType[]) {
      const all = Object.fromEntries(IMPORT_COLUMNS[type].map((c) => [c.name, c.example]));
      const r = ROW_SCHEMAS[type].safeParse(all);
      assert.ok(r.success, `${type}: the column examples validate: ${JSON.stringify(!r.success && r.error.issues)}`);
    }
    assert.equal(IMPORT_LIMITS.maxRows, 50_000);
  });
});
