// The quotes and invoices import with the price columns of contract section 22
// (item_tax_rate_name, item_discount_type, item_discount_value, discount_type, discount_value;
// docs/decisions/410-import-prices.md), the customers import's tax_exempt, and files without
// them importing exactly as before.
import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { sampleCsv } from "../../app/services/import/samples";
import { toCsv } from "../../app/services/import/csv-write";
import { clientFor, type Client } from "../helpers/client";
import { createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { commit, countOf, idIn, importFile, pageText, parseSimpleCsv, undo, upload } from "../helpers/import";

const PRICE_COLUMNS = [
  "item_tax_rate_name",
  "item_discount_type",
  "item_discount_value",
  "discount_type",
  "discount_value",
];

async function signedIn() {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.admin);
  await importFile(c, "customers", "name,email,external_id\r\nJamie Rivera,jamie@example.com,C-1\r\n");
  return { t, c };
}

async function addRate(c: Client, name: string, rate: string) {
  assert.equal((await c.post("/settings/taxes", { name, rate })).status, 303, `rate ${name}`);
}
const rateId = async (tenantId: string, name: string) =>
  (await one<{ id: string }>(`SELECT id FROM tax_rates WHERE tenant_id = $1 AND name = $2`, [tenantId, name]))!.id;

/** State 6.25% and City 2%, and the group Austin of both. */
async function austinRates(t: { id: string }, c: Client) {
  await addRate(c, "State", "6.25");
  await addRate(c, "City", "2");
  const group = new FormData();
  group.set("name", "Austin");
  group.append("rateIds", await rateId(t.id, "State"));
  group.append("rateIds", await rateId(t.id, "City"));
  assert.equal((await c.post("/settings/taxes?intent=group", group)).status, 303);
  return rateId(t.id, "Austin");
}

/** bigint columns (cents) as numbers. */
const numbers = (r: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k.endsWith("_cents") && v !== null ? Number(v) : v]));

test("a quotes file with a named group, a 10% line discount and $25.00 off previews, commits and shows the same figures per rate as the builder's quote", async () => {
  const { t, c } = await signedIn();
  const austin = await austinRates(t, c);
  // The figures of tests/integration/prices.test.ts's quote, made by the form there: subtotal
  // $289.99, discount $45.00, State 6.25% $15.31, City 2% $4.90, total $265.20.
  const csv =
    "number,customer_email,title,item_description,item_quantity,item_unit_price,item_tax_rate_name,item_discount_type,item_discount_value,discount_type,discount_value\r\n" +
    "Q-9,jamie@example.com,Water heater,Water heater,2,100.00,austin,percent,10,amount,25.00\r\n" +
    "Q-9,jamie@example.com,Water heater,Permit,1,89.99,Austin,,,amount,25\r\n";
  const res = await upload(c, "quotes", csv);
  const id = idIn(res, "preview");
  const page = pageText(await (await c.get(res.headers.get("location")!)).text());
  assert.match(page, /Rows 2 Valid 2 With errors 0 Warnings 0/);
  const run = idIn(await commit(c, id), "run");
  assert.equal(run, id);
  const quote = await one<Record<string, unknown>>(
    `SELECT id, subtotal_cents, discount_cents, tax_cents, total_cents, discount_type, discount_amount_cents
       FROM quotes WHERE tenant_id = $1 AND number = 'Q-9'`,
    [t.id],
  );
  const { id: quoteId, ...figures } = quote!;
  assert.deepEqual(numbers(figures), {
    subtotal_cents: 28_999,
    discount_cents: 4500,
    tax_cents: 2021,
    total_cents: 26_520,
    discount_type: "amount",
    discount_amount_cents: 2500,
  });
  const items = await rows<Record<string, unknown>>(
    `SELECT description, tax_rate_id, trim_scale(tax_rate)::text AS tax_rate, discount_type,
            trim_scale(discount_percent)::text AS discount_percent, discount_cents, line_total_cents, tax_cents
       FROM quote_items WHERE tenant_id = $1 AND quote_id = $2 ORDER BY position`,
    [t.id, quoteId],
  );
  assert.deepEqual(items.map(numbers), [
    {
      description: "Water heater",
      tax_rate_id: austin,
      tax_rate: "8.25",
      discount_type: "percent",
      discount_percent: "10",
      discount_cents: 2000,
      line_total_cents: 20_000,
      tax_cents: 1348,
    },
    {
      description: "Permit",
      tax_rate_id: austin,
      tax_rate: "8.25",
      discount_type: null,
      discount_percent: null,
      discount_cents: 0,
      line_total_cents: 8999,
      tax_cents: 673,
    },
  ]);
  // The quote's page names each rate with its tax, as the form's quote does.
  const shown = textOf(await (await c.get(`/quotes/${quoteId}`)).text());
  for (const figure of [/Subtotal\s*\$289\.99/, /State 6\.25%\s*\$15\.31/, /City 2%\s*\$4\.90/, /\$265\.20/])
    assert.match(shown, figure);
  assert.equal(await countOf(t.id, "tax_rates"), 3, "no rate made: Austin was found by its name");
});

test("an invoices file naming a rate the business lacks makes it (said in the preview); undo removes the invoice and that rate", async () => {
  const { t, c } = await signedIn();
  await addRate(c, "State", "6.25");
  const csv =
    "number,customer_email,status,item_description,item_unit_price,tax_rate,item_tax_rate_name,discount_type,discount_value\r\n" +
    "INV-9,jamie@example.com,sent,Service call,200.00,1.5,County,percent,10\r\n" +
    "INV-9,jamie@example.com,sent,Filter,50.00,6.25,State,percent,10\r\n";
  const res = await upload(c, "invoices", csv);
  const id = idIn(res, "preview");
  const page = pageText(await (await c.get(res.headers.get("location")!)).text());
  assert.match(page, /Rows 2 Valid 2 With errors 0 Warnings 1/);
  assert.match(page, /Creates the tax rate "County 1\.5%": the business has no rate of that name/);
  assert.equal(await countOf(t.id, "tax_rates"), 1, "the preview makes nothing");
  idIn(await commit(c, id), "run");
  // 10% off $250.00 is $20.00 + $5.00; County 1.5% of $180.00 = $2.70, State 6.25% of $45.00 = $2.8125 -> $2.81.
  const invoice = await one<Record<string, unknown>>(
    `SELECT id, subtotal_cents, discount_cents, tax_cents, total_cents, discount_type,
            trim_scale(discount_percent)::text AS discount_percent
       FROM invoices WHERE tenant_id = $1 AND number = 'INV-9'`,
    [t.id],
  );
  const { id: invoiceId, ...figures } = invoice!;
  assert.deepEqual(numbers(figures), {
    subtotal_cents: 25_000,
    discount_cents: 2500,
    tax_cents: 551,
    total_cents: 23_051,
    discount_type: "percent",
    discount_percent: "10",
  });
  const county = await one<{ id: string; rate: string; import_run_id: string }>(
    `SELECT id, trim_scale(rate)::text AS rate, import_run_id FROM tax_rates WHERE tenant_id = $1 AND name = 'County'`,
    [t.id],
  );
  assert.deepEqual([county!.rate, county!.import_run_id], ["1.5", id]);
  const lines = await rows<{ tax_rate_id: string; tax_cents: string }>(
    `SELECT tax_rate_id, tax_cents FROM invoice_items WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY position`,
    [t.id, invoiceId],
  );
  assert.deepEqual(
    lines.map((l) => [l.tax_rate_id, Number(l.tax_cents)]),
    [
      [county!.id, 270],
      [await rateId(t.id, "State"), 281],
    ],
  );
  const shown = textOf(await (await c.get(`/invoices/${invoiceId}`)).text());
  assert.match(shown, /County 1\.5%\s*\$2\.70/);
  assert.match(shown, /State 6\.25%\s*\$2\.81/);
  assert.match(shown, /\$230\.51/);

  assert.equal((await undo(c, id)).status, 303);
  assert.equal(await countOf(t.id, "invoices"), 0);
  assert.deepEqual(
    (await rows<{ name: string }>(`SELECT name FROM tax_rates WHERE tenant_id = $1`, [t.id])).map((r) => r.name),
    ["State"],
    "the rate the import made is gone; the business's own stays",
  );
});

test("bad discounts and rate names are row errors by row, column and message; nothing can be committed", async () => {
  const { t, c } = await signedIn();
  await addRate(c, "State", "6.25");
  const header =
    "number,customer_email,item_description,item_unit_price,tax_rate,item_tax_rate_name,item_discount_type,item_discount_value,discount_type,discount_value";
  const csv =
    [
      header,
      "Q-1,jamie@example.com,A,10.00,,,half,5,,",
      "Q-2,jamie@example.com,B,10.00,,,percent,150,,",
      "Q-3,jamie@example.com,C,10.00,,,amount,1.234,,",
      "Q-4,jamie@example.com,D,10.00,,,amount,abc,,",
      "Q-5,jamie@example.com,E,10.00,,,,,percent,",
      "Q-6,jamie@example.com,F,10.00,,,amount,20.00,,",
      "Q-7,jamie@example.com,G,10.00,7,State,,,,",
      "Q-8,jamie@example.com,H,10.00,,Nowhere,,,,",
      "Q-9,jamie@example.com,I,10.00,,,,,amount,5",
      "Q-9,jamie@example.com,J,10.00,,,,,amount,6",
      "Q-10,jamie@example.com,K,10.00,,,,5,,",
      "Q-11,jamie@example.com,L,10.00,,,,,amount,30.00",
      "Q-12,jamie@example.com,M,10.00,2,New rate,,,,",
      "Q-12,jamie@example.com,N,10.00,3,New rate,,,,",
    ].join("\r\n") + "\r\n";
  const res = await upload(c, "quotes", csv);
  const id = idIn(res, "preview");
  const html = await (await c.get(res.headers.get("location")!)).text();
  const page = pageText(html);
  const expected = [
    ["2", "item_discount_type", "Must be one of: percent, amount"],
    ["3", "item_discount_value", "A percent discount is from 0 to 100"],
    ["4", "item_discount_value", "An amount discount has up to 2 decimals, like 25.50"],
    ["5", "item_discount_value", "Must be a number like 10 (percent) or 25.50 (amount)"],
    ["6", "discount_value", "Required when discount_type is given (like 10 for percent, 25.00 for amount)"],
    ["7", "item_discount_value", "Is more than the line's amount (10.00)"],
    ["8", "tax_rate", 'The tax rate "State" is 6.25%: give 6.25 or leave tax_rate empty'],
    ["9", "item_tax_rate_name", 'No tax rate is named "Nowhere": give its percent in tax_rate to create it'],
    ["11", "discount_value", 'Differs from row 10 of quote Q-9, which has "5"'],
    ["12", "item_discount_type", "Required when item_discount_value is given: percent or amount"],
    ["13", "discount_value", "Is more than the quote's lines after their discounts (10.00)"],
    ["15", "tax_rate", 'Row 14 creates the tax rate "New rate" at 2%'],
  ];
  const download = parseSimpleCsv(await (await c.get(`/import-data/errors?preview=${id}`)).text());
  assert.deepEqual(download, [["row", "column", "message"], ...expected]);
  for (const [row, column, message] of expected)
    assert.ok(page.includes(` ${row} ${column} ${message}`), `row ${row} ${column}: ${message}`);
  assert.doesNotMatch(html, /name="intent" value="commit"/);
  assert.equal((await commit(c, id)).status, 422);
  assert.equal(await countOf(t.id, "quotes"), 0);
  assert.equal(await countOf(t.id, "tax_rates"), 1);
});

/** A sample file as it was before the price columns: the same rows without them. */
function withoutPriceColumns(csv: string): string {
  const [header, ...data] = parseSimpleCsv(csv);
  const keep = header!.map((h, i) => (PRICE_COLUMNS.includes(h) ? -1 : i)).filter((i) => i >= 0);
  return toCsv(
    keep.map((i) => header![i]!),
    data.map((r) => keep.map((i) => r[i] ?? "")),
  );
}

test("files without the price columns import as before: the samples' totals as the import made them before, no named rate, no discount", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.admin);
  // A rate of a percent the files use: the old files' lines stay typed percents all the same.
  await addRate(c, "Sales tax", "8.25");
  await importFile(c, "customers", sampleCsv("customers"));
  for (const type of ["quotes", "invoices"]) {
    const csv = withoutPriceColumns(sampleCsv(type as "quotes" | "invoices"));
    for (const column of PRICE_COLUMNS) assert.ok(!csv.split("\r\n")[0]!.split(",").includes(column));
    await importFile(c, type, csv);
  }
  // What the import made of these samples before discounts and named rates (read from its
  // previous version's documents: number, subtotal, tax, total).
  const before = {
    quotes: [
      ["Q-1001", 166_040, 10_192, 176_232],
      ["Q-1002", 225_700, 18_620, 244_320],
      ["Q-1003", 300_000, 15_593, 315_593],
      ["Q-1004", 26_500, 2186, 28_686],
    ],
    invoices: [
      ["INV-2001", 33_900, 206, 34_106],
      ["INV-2002", 41_000, 1403, 42_403],
      ["INV-2003", 47_000, 0, 47_000],
      ["INV-2004", 78_000, 5651, 83_651],
      ["INV-2005", 25_500, 0, 25_500],
    ],
  };
  for (const table of ["quotes", "invoices"] as const) {
    const docs = await rows<{ number: string; s: string; x: string; tot: string; d: string; dt: string | null }>(
      `SELECT number, subtotal_cents AS s, tax_cents AS x, total_cents AS tot, discount_cents AS d, discount_type AS dt
         FROM ${table} WHERE tenant_id = $1 ORDER BY number`,
      [t.id],
    );
    assert.deepEqual(
      docs.map((d) => [d.number, Number(d.s), Number(d.x), Number(d.tot)]),
      before[table],
    );
    assert.ok(
      docs.every((d) => Number(d.d) === 0 && d.dt === null),
      `${table}: no discount`,
    );
    const items = table === "quotes" ? "quote_items" : "invoice_items";
    const named = await rows(
      `SELECT description, tax_rate_id, discount_type, discount_cents FROM ${items}
        WHERE tenant_id = $1 AND (tax_rate_id IS NOT NULL OR discount_type IS NOT NULL OR discount_cents <> 0)`,
      [t.id],
    );
    assert.deepEqual(named, [], `${table}: no named rate or discount on a line`);
  }
  assert.equal(await countOf(t.id, "tax_rates"), 1, "no rate made");
});

test("customers import tax_exempt and its reason; without the column they pay tax; an exempt one's new quote has no tax", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.admin);
  await importFile(
    c,
    "customers",
    "name,email,tax_exempt,tax_exempt_reason\r\n" +
      "First Church,church@example.com,yes,Church (certificate 12-345)\r\n" +
      "Shop,shop@example.com,no,\r\n",
  );
  await importFile(c, "customers", "name,email\r\nPlain Customer,plain@example.com\r\n");
  const found = await rows<{ email: string; tax_exempt: boolean; tax_exempt_reason: string | null }>(
    `SELECT email, tax_exempt, tax_exempt_reason FROM customers WHERE tenant_id = $1 ORDER BY email`,
    [t.id],
  );
  assert.deepEqual(
    found.map((r) => [r.email, r.tax_exempt, r.tax_exempt_reason]),
    [
      ["church@example.com", true, "Church (certificate 12-345)"],
      ["plain@example.com", false, null],
      ["shop@example.com", false, null],
    ],
  );
  const bad = await upload(c, "customers", "name,email,tax_exempt\r\nX,x@example.com,maybe\r\n");
  const page = pageText(await (await c.get(bad.headers.get("location")!)).text());
  assert.ok(page.includes(" 2 tax_exempt Must be yes or no"));

  await addRate(c, "State", "6.25");
  const quoteFor = async (email: string) => {
    const customer = await one<{ id: string }>(`SELECT id FROM customers WHERE tenant_id = $1 AND email = $2`, [
      t.id,
      email,
    ]);
    const res = await c.post("/quotes/new", {
      customerId: customer!.id,
      currency: "USD",
      "items[0].description": "Boiler service",
      "items[0].unitPrice": "300.00",
      "items[0].taxRateId": await rateId(t.id, "State"),
    });
    assert.equal(res.status, 303);
    const id = /\/quotes\/([0-9a-f-]{36})$/.exec(res.headers.get("location")!)![1];
    return one<{ tax_cents: string; tax_exempt_reason: string | null }>(
      `SELECT tax_cents, tax_exempt_reason FROM quotes WHERE tenant_id = $1 AND id = $2`,
      [t.id, id],
    );
  };
  const exempt = await quoteFor("church@example.com");
  assert.deepEqual([Number(exempt!.tax_cents), exempt!.tax_exempt_reason], [0, "Church (certificate 12-345)"]);
  const taxed = await quoteFor("plain@example.com");
  assert.deepEqual([Number(taxed!.tax_cents), taxed!.tax_exempt_reason], [1875, null]);
});
