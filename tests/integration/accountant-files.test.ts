import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { unzipSync } from "fflate";
import Papa from "papaparse";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createTenantWithUsers, type TestTenant } from "../helpers/fixtures";
import { pageText } from "../helpers/import";

// Files for the accountant from /settings/accounting (docs/decisions/365): a QuickBooks Online
// invoice CSV, Xero sales-invoice CSVs (at most 500 invoices a file) and a QuickBooks Desktop
// IIF of invoices and payments. Each is read back with a CSV parser and must balance against
// the range's invoices and payments as the database holds them.

const FROM = "2026-01-01";
const TO = "2026-03-31";

const cents = (s: string) => {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(s);
  assert.ok(m, `an amount with two decimals: ${s}`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]));
};

async function setDates(tenantId: string, id: string, issue: string, due: string | null = issue) {
  await rows(`UPDATE invoices SET issue_date = $3, due_date = $4 WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
    issue,
    due,
  ]);
}

async function pay(tenantId: string, invoiceId: string, amount: number, receivedOn: string, reference = "chk") {
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at, received_on)
     VALUES ($1, $2, $3, 'USD', 'check', $4, $5::date + time '12:00', $5::date)`,
    [tenantId, invoiceId, amount, reference, receivedOn],
  );
}

/** The range's invoices and payments as the database holds them: issued (not draft, not void), by date. */
async function expected(tenantId: string, from = FROM, to = TO) {
  const invoices = await rows<{ number: string; total: string }>(
    `SELECT number, total_cents::text AS total FROM invoices
      WHERE tenant_id = $1 AND issue_date BETWEEN $2 AND $3 AND status NOT IN ('draft', 'void')`,
    [tenantId, from, to],
  );
  const payments = await rows<{ amount: string }>(
    `SELECT p.amount_cents::text AS amount FROM payments p JOIN invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
      WHERE p.tenant_id = $1 AND p.received_on BETWEEN $2 AND $3 AND i.status NOT IN ('draft', 'void')`,
    [tenantId, from, to],
  );
  return {
    totals: new Map(invoices.map((i) => [i.number, Number(i.total)])),
    payments: payments.map((p) => Number(p.amount)).sort((a, b) => a - b),
  };
}

async function download(c: Client, format: string, from = FROM, to = TO) {
  const res = await c.get(`/settings/accounting/files?format=${format}&from=${from}&to=${to}`);
  const body = new Uint8Array(await res.arrayBuffer());
  return { res, body, text: new TextDecoder().decode(body) };
}

function parseCsv(text: string) {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  assert.deepEqual(parsed.errors, [], "the file parses as CSV");
  return parsed;
}

/** A tenant with issued, draft and void invoices in and around the range, payments, and awkward names. */
async function seedTenant(t: TestTenant) {
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
  const ann = await createCustomer(t.id, { name: "Ann Customer", email: "ann@books.test", city: "Austin" });
  const evil = await createCustomer(t.id, { name: '=HYPERLINK("http://evil.example","Click")' });
  const minus = await createCustomer(t.id, { name: "-Minus: Co" });
  const at = await createCustomer(t.id, { name: "@At Home" });
  const ids: Record<string, string> = {};
  const make = async (
    number: string,
    customerId: string,
    status: string,
    issue: string,
    items?: Parameters<typeof createInvoice>[1]["items"],
  ) => {
    const inv = await createInvoice(t.id, { customerId, number, status, items });
    await setDates(t.id, inv.id, issue, status === "paid" ? null : `${issue.slice(0, 8)}28`);
    ids[number] = inv.id;
  };
  await make("A-0001", ann.id, "sent", "2026-01-15");
  await make("A-0002", evil.id, "partial", "2026-02-10", [
    { description: "Labour (hours)", quantity: "1.333", unitPriceCents: 999, taxRate: "8.25" },
    { description: "+Parts kit", quantity: "2", unitPriceCents: 1_999, taxRate: "6.25" },
    { description: "-Discounted call-out", unitPriceCents: 4_500 },
  ]);
  await make("A-0003", minus.id, "paid", "2026-03-31", [
    { description: "@Drain clearing", unitPriceCents: 12_345, taxRate: "8.25" },
  ]);
  await make("A-0004", at.id, "sent", "2026-01-01");
  await make("A-DRAFT", ann.id, "draft", "2026-02-01");
  await make("A-VOID", ann.id, "void", "2026-02-02");
  await make("A-OLD", ann.id, "sent", "2025-12-31");
  await make("A-NEXT", ann.id, "sent", "2026-04-01");
  // An invoice without lines (as another product's import can leave one): its total stands.
  const bare = await one<{ id: string }>(
    `INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, sent_at)
     VALUES ($1, $2, 'A-0005', 'sent', '2026-02-20', '2026-03-20', 'USD', 10000, 0, 10000, now()) RETURNING id`,
    [t.id, ann.id],
  );
  ids["A-0005"] = bare!.id;
  await pay(t.id, ids["A-0001"], 5_000, "2026-01-20", "CHK-101");
  await pay(t.id, ids["A-OLD"], 7_500, "2026-02-01", "-ref");
  await pay(t.id, ids["A-0003"], 13_363, "2026-03-31");
  await pay(t.id, ids["A-0001"], 1_000, "2026-04-02");
  await pay(t.id, ids["A-VOID"], 999, "2026-02-03");
  return ids;
}

describe("files for the accountant", () => {
  test("QuickBooks Online CSV: the range's issued invoices, numbers as they are, totals equal the database's, formulas escaped, same bytes twice, no other tenant", async () => {
    const t = await createTenantWithUsers("Books Plumbing");
    await seedTenant(t);
    const other = await createTenantWithUsers("Other Books");
    const theirs = await createCustomer(other.id, { name: "Not Yours" });
    const b = await createInvoice(other.id, { customerId: theirs.id, number: "B-0001" });
    await setDates(other.id, b.id, "2026-02-15");

    const owner = await clientFor(t.users.owner);
    const first = await download(owner, "qbo");
    assert.equal(first.res.status, 200);
    assert.match(first.res.headers.get("content-type") ?? "", /^text\/csv/);
    assert.equal(
      first.res.headers.get("content-disposition"),
      `attachment; filename="quickbooks-online-invoices-${FROM}-to-${TO}.csv"`,
    );
    const parsed = parseCsv(first.text);
    assert.deepEqual(parsed.meta.fields, [
      "InvoiceNo",
      "Customer",
      "InvoiceDate",
      "DueDate",
      "Item(Product/Service)",
      "ItemDescription",
      "ItemQuantity",
      "ItemRate",
      "ItemAmount",
      "ItemTaxCode",
      "ItemTaxAmount",
      "Currency",
    ]);
    const want = await expected(t.id);
    const got = new Map<string, number>();
    for (const r of parsed.data)
      got.set(r.InvoiceNo, (got.get(r.InvoiceNo) ?? 0) + cents(r.ItemAmount) + cents(r.ItemTaxAmount));
    assert.deepEqual(got, want.totals, "each invoice's lines and tax add up to its total");
    assert.deepEqual(
      [...got.keys()],
      ["A-0004", "A-0001", "A-0002", "A-0005", "A-0003"],
      "by issue date, numbers untouched",
    );
    for (const gone of ["A-DRAFT", "A-VOID", "A-OLD", "A-NEXT", "B-0001"]) assert.ok(!first.text.includes(gone), gone);
    assert.ok(!first.text.includes("Not Yours"));

    const rowsOf = (n: string) => parsed.data.filter((r) => r.InvoiceNo === n);
    assert.equal(rowsOf("A-0002")[0].Customer, `'=HYPERLINK("http://evil.example","Click")`, "a formula is escaped");
    assert.deepEqual(
      rowsOf("A-0002").map((r) => r.ItemDescription),
      ["Labour (hours) (1.333 × 9.99)", "'+Parts kit", "'-Discounted call-out"],
    );
    assert.equal(rowsOf("A-0003")[0].Customer, "'-Minus: Co");
    assert.equal(rowsOf("A-0004")[0].Customer, "'@At Home");
    // A quantity that does not multiply out to the cent is booked as one unit at the line's amount.
    assert.deepEqual(
      rowsOf("A-0002").map((r) => [r.ItemQuantity, r.ItemRate, r.ItemAmount, r.ItemTaxCode, r.ItemTaxAmount]),
      [
        ["1", "13.32", "13.32", "TAX", "1.10"],
        ["2", "19.99", "39.98", "TAX", "2.50"],
        ["1", "45.00", "45.00", "NON", "0.00"],
      ],
    );
    assert.deepEqual(
      [rowsOf("A-0001")[0].InvoiceDate, rowsOf("A-0001")[0].DueDate],
      ["01/15/2026", "01/28/2026"],
      "a US business's dates, month first",
    );
    assert.equal(rowsOf("A-0003")[0].DueDate, "03/31/2026", "no due date: the issue date");
    assert.deepEqual(
      rowsOf("A-0005").map((r) => [r.ItemDescription, r.ItemAmount]),
      [["Invoice A-0005", "100.00"]],
      "an invoice without lines keeps its total",
    );

    const again = await download(owner, "qbo");
    assert.deepEqual(again.body, first.body, "the same range gives the same bytes");
  });

  test("QuickBooks Desktop IIF: tab-separated with its headers, every transaction balances, invoices and payments equal the database's", async () => {
    const t = await createTenantWithUsers("Books IIF");
    await seedTenant(t);
    const owner = await clientFor(t.users.owner);
    const first = await download(owner, "iif");
    assert.equal(first.res.status, 200);
    assert.equal(
      first.res.headers.get("content-disposition"),
      `attachment; filename="quickbooks-desktop-invoices-payments-${FROM}-to-${TO}.iif"`,
    );
    assert.ok(first.text.endsWith("ENDTRNS\r\n"));
    const parsed = Papa.parse<string[]>(first.text, { delimiter: "\t", skipEmptyLines: true });
    assert.deepEqual(parsed.errors, []);
    const [trnsHead, splHead, endHead, ...body] = parsed.data;
    assert.deepEqual(trnsHead.slice(0, 9), [
      "!TRNS",
      "TRNSID",
      "TRNSTYPE",
      "DATE",
      "ACCNT",
      "NAME",
      "CLASS",
      "AMOUNT",
      "DOCNUM",
    ]);
    assert.deepEqual(splHead.slice(0, 9), [
      "!SPL",
      "SPLID",
      "TRNSTYPE",
      "DATE",
      "ACCNT",
      "NAME",
      "CLASS",
      "AMOUNT",
      "DOCNUM",
    ]);
    assert.deepEqual(endHead, ["!ENDTRNS"]);
    const col = (head: string[], name: string) => head.indexOf(name);

    type Txn = { trns: Record<string, string>; spl: Array<Record<string, string>> };
    const txns: Txn[] = [];
    let open: Txn | undefined;
    for (const row of body) {
      if (row[0] === "TRNS") {
        assert.equal(open, undefined, "a transaction ends before the next begins");
        open = { trns: Object.fromEntries(trnsHead.map((h, i) => [h, row[i] ?? ""])), spl: [] };
      } else if (row[0] === "SPL") {
        assert.ok(open, "a split belongs to a transaction");
        open.spl.push(Object.fromEntries(splHead.map((h, i) => [h, row[i] ?? ""])));
      } else {
        assert.deepEqual(row, ["ENDTRNS"]);
        assert.ok(open && open.spl.length > 0);
        txns.push(open);
        open = undefined;
      }
    }
    assert.equal(open, undefined);
    for (const x of txns) {
      const sum = cents(x.trns.AMOUNT) + x.spl.reduce((s, p) => s + cents(p.AMOUNT), 0);
      assert.equal(sum, 0, `${x.trns.TRNSTYPE} ${x.trns.DOCNUM} balances`);
      assert.match(x.trns.DATE, /^\d{2}\/\d{2}\/\d{4}$/);
    }
    const want = await expected(t.id);
    const invoices = txns.filter((x) => x.trns.TRNSTYPE === "INVOICE");
    assert.deepEqual(new Map(invoices.map((x) => [x.trns.DOCNUM, cents(x.trns.AMOUNT)])), want.totals);
    assert.ok(invoices.every((x) => x.trns.ACCNT === "Accounts Receivable"));
    const payments = txns.filter((x) => x.trns.TRNSTYPE === "PAYMENT");
    assert.deepEqual(
      payments.map((x) => cents(x.trns.AMOUNT)).sort((a, b) => a - b),
      want.payments,
    );
    assert.deepEqual(
      want.payments,
      [5_000, 7_500, 13_363],
      "the payment on the voided invoice and those out of range are left out",
    );
    assert.ok(payments.every((x) => x.trns.ACCNT === "Undeposited Funds" && x.spl[0].ACCNT === "Accounts Receivable"));
    assert.ok(
      payments.some((x) => x.trns.DOCNUM === "'-ref"),
      "a payment reference is escaped too",
    );

    const a2 = invoices.find((x) => x.trns.DOCNUM === "A-0002")!;
    assert.equal(a2.trns.NAME, `'=HYPERLINK("http-//evil.example","Click")`, "escaped, and no colon");
    assert.deepEqual(
      a2.spl.map((s) => [s.ACCNT, s.AMOUNT, s.INVITEM]),
      [
        ["Sales", "-13.32", "Services"],
        ["Sales", "-39.98", "Services"],
        ["Sales", "-45.00", "Services"],
        ["Sales Tax Payable", "-1.10", "Sales Tax"],
        ["Sales Tax Payable", "-2.50", "Sales Tax"],
      ],
    );
    assert.equal(
      invoices.find((x) => x.trns.DOCNUM === "A-0003")!.trns.NAME,
      "'-Minus- Co",
      "no colon: it would make a job",
    );
    for (const gone of ["A-DRAFT", "A-VOID", "A-NEXT"]) assert.ok(!first.text.includes(gone), gone);
    assert.equal(col(trnsHead, "DATE"), 3);

    const again = await download(owner, "iif");
    assert.deepEqual(again.body, first.body, "the same range gives the same bytes");
  });

  test("Xero: the template's columns, Xero's date format, totals equal the database's; beyond 500 invoices numbered files in a ZIP", async () => {
    const t = await createTenantWithUsers("Books Xero");
    await seedTenant(t);
    const owner = await clientFor(t.users.owner);
    const one1 = await download(owner, "xero");
    assert.equal(one1.res.status, 200);
    assert.equal(
      one1.res.headers.get("content-disposition"),
      `attachment; filename="xero-sales-invoices-${FROM}-to-${TO}.csv"`,
    );
    const parsed = parseCsv(one1.text);
    assert.deepEqual(parsed.meta.fields?.slice(0, 3), ["*ContactName", "EmailAddress", "POAddressLine1"]);
    for (const name of [
      "*InvoiceNumber",
      "*InvoiceDate",
      "*DueDate",
      "*Description",
      "*Quantity",
      "*UnitAmount",
      "*AccountCode",
      "*TaxType",
    ])
      assert.ok(parsed.meta.fields?.includes(name), name);
    const want = await expected(t.id);
    const lines = new Map<string, number>();
    for (const r of parsed.data) {
      const amount = Math.round(Number(r["*Quantity"]) * cents(r["*UnitAmount"]));
      lines.set(r["*InvoiceNumber"], (lines.get(r["*InvoiceNumber"]) ?? 0) + amount + cents(r.TaxAmount));
      assert.equal(cents(r.Total), want.totals.get(r["*InvoiceNumber"]), "the Total column is the invoice's total");
      assert.equal(r["*AccountCode"], "200");
    }
    assert.deepEqual(lines, want.totals, "quantity × unit amount and tax add up to each total");
    const ann = parsed.data.find((r) => r["*InvoiceNumber"] === "A-0001")!;
    assert.deepEqual(
      [ann["*ContactName"], ann.EmailAddress, ann.POCity, ann["*InvoiceDate"]],
      ["Ann Customer", "ann@books.test", "Austin", "01/15/2026"],
    );
    assert.deepEqual(
      parsed.data.filter((r) => r["*InvoiceNumber"] === "A-0002").map((r) => r["*TaxType"]),
      ["Tax on Sales", "Tax on Sales", "Tax Exempt"],
    );
    assert.equal(
      parsed.data.find((r) => r["*InvoiceNumber"] === "A-0002")!["*ContactName"],
      `'=HYPERLINK("http://evil.example","Click")`,
    );

    // 501 invoices in a European business: two numbered files in a ZIP, day first.
    const big = await createTenantWithUsers("Books Xero Big");
    await rows(`UPDATE tenants SET time_zone = 'Europe/London' WHERE id = $1`, [big.id]);
    const bigCustomer = await createCustomer(big.id, { name: "Many Invoices Ltd" });
    await rows(
      `WITH inv AS (
         INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, sent_at)
         SELECT $1, $2, 'X-' || lpad(n::text, 4, '0'), 'sent', date '2026-01-01' + (n % 90), date '2026-04-30', 'GBP', 1000 + n, 200 + n / 5, 1200 + n + n / 5, now()
           FROM generate_series(1, 501) n
         RETURNING id, subtotal_cents, tax_cents)
       INSERT INTO invoice_items (tenant_id, invoice_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
       SELECT $1, id, 1, 'Service visit', 1, subtotal_cents, 20, subtotal_cents, tax_cents FROM inv`,
      [big.id, bigCustomer.id],
    );
    const bigOwner = await clientFor(big.users.owner);
    const zip = await download(bigOwner, "xero");
    assert.equal(zip.res.status, 200);
    assert.equal(zip.res.headers.get("content-type"), "application/zip");
    assert.equal(
      zip.res.headers.get("content-disposition"),
      `attachment; filename="xero-sales-invoices-${FROM}-to-${TO}.zip"`,
    );
    const files = unzipSync(zip.body);
    const names = Object.keys(files);
    assert.deepEqual(names, [
      `xero-sales-invoices-${FROM}-to-${TO}-part-1-of-2.csv`,
      `xero-sales-invoices-${FROM}-to-${TO}-part-2-of-2.csv`,
    ]);
    const bigWant = await expected(big.id);
    const seen = new Map<string, number>();
    const counts: number[] = [];
    for (const name of names) {
      const p = parseCsv(new TextDecoder().decode(files[name]));
      const numbers = new Set(p.data.map((r) => r["*InvoiceNumber"]));
      counts.push(numbers.size);
      for (const r of p.data) {
        seen.set(
          r["*InvoiceNumber"],
          (seen.get(r["*InvoiceNumber"]) ?? 0) + cents(r["*UnitAmount"]) * Number(r["*Quantity"]) + cents(r.TaxAmount),
        );
        assert.match(r["*InvoiceDate"], /^\d{2}\/\d{2}\/2026$/);
      }
    }
    assert.deepEqual(counts, [500, 1], "at most 500 invoices a file");
    assert.deepEqual(seen, bigWant.totals);
    const x1 = parseCsv(new TextDecoder().decode(files[names[0]])).data.find((r) => r["*InvoiceNumber"] === "X-0032")!;
    assert.equal(x1["*InvoiceDate"], "02/02/2026", "day first: 2 February");
    assert.equal(x1["*DueDate"], "30/04/2026");

    const zipAgain = await download(bigOwner, "xero");
    assert.deepEqual(zipAgain.body, zip.body, "the same range gives the same ZIP, byte for byte");
    assert.deepEqual((await download(owner, "xero")).body, one1.body);
  });

  test("owner and admin only: office and technician get 403, signed out goes to sign-in; bad dates or format are refused", async () => {
    const t = await createTenantWithUsers("Books Roles");
    const q = `/settings/accounting/files?format=qbo&from=${FROM}&to=${TO}`;
    for (const role of ["owner", "admin"] as const) {
      const res = await (await clientFor(t.users[role])).get(q);
      assert.equal(res.status, 200, role);
      assert.match(await res.text(), /^InvoiceNo,Customer,/);
    }
    for (const role of ["office", "technician"] as const) {
      const c = await clientFor(t.users[role]);
      const res = await c.get(q);
      assert.equal(res.status, 403, role);
      assert.doesNotMatch(await res.text(), /InvoiceNo/);
      assert.equal((await c.get("/settings/accounting")).status, 403, `${role}: the page`);
      const save = await c.post("/settings/accounting?form=accountant-files", {
        intent: "accountant-files",
        income_account: "X",
        item: "X",
        xero_account_code: "1",
        date_order: "dd/mm/yyyy",
      });
      assert.equal(save.status, 403, `${role}: saving`);
    }
    const out = await new Client().get(q);
    assert.equal(out.status, 302);
    assert.match(out.headers.get("location") ?? "", /^\/login\?redirectTo=/);

    const owner = await clientFor(t.users.owner);
    for (const [query, message] of [
      [`format=qbo&from=${TO}&to=${FROM}`, /on or after the first day/],
      [`format=qbo&from=2025-01-01&to=2026-03-31`, /at most 366 days/],
      [`format=qbo&from=2026-02-30&to=${TO}`, /first day as a date/],
      [`format=pdf&from=${FROM}&to=${TO}`, /Choose a file: qbo, xero, iif/],
    ] as const) {
      const res = await owner.get(`/settings/accounting/files?${query}`);
      assert.equal(res.status, 422, query);
      assert.match(pageText(await res.text()), message);
    }
  });

  test("the accounts and tax codes are the business's settings: saved on the page (owner, admin), used by every file; bad input saves nothing", async () => {
    const t = await createTenantWithUsers("Books Settings");
    await seedTenant(t);
    const admin = await clientFor(t.users.admin);
    const page = pageText(await (await admin.get("/settings/accounting")).text());
    assert.match(page, /Files for your accountant/);
    assert.match(page, /QuickBooks Online \(CSV\)/);
    assert.match(page, /8\.25%.*QuickBooks Online tax code/);
    assert.match(page, /6\.25%/);
    assert.match(page, /No tax \(0%\)/);

    const form = {
      intent: "accountant-files",
      income_account: "Income:Plumbing",
      item: "Plumbing work",
      xero_account_code: "4000",
      date_order: "dd/mm/yyyy",
      "tax_codes[0].rate": "0",
      "tax_codes[0].qbo": "Exempt",
      "tax_codes[0].xero": "No VAT",
      "tax_codes[1].rate": "6.25",
      "tax_codes[1].qbo": "TX 6.25",
      "tax_codes[1].xero": "Texas (6.25%)",
      "tax_codes[1].iif": "Texas",
      "tax_codes[2].rate": "8.250",
      "tax_codes[2].qbo": "Austin",
      "tax_codes[2].xero": "Austin (8.25%)",
      "tax_codes[2].iif": "Austin tax",
    };
    const bad = await admin.post("/settings/accounting?form=accountant-files", {
      ...form,
      income_account: "",
      item: "Tab\there",
    });
    assert.equal(bad.status, 422);
    const badText = pageText(await bad.text());
    assert.match(badText, /Nothing was saved/);
    assert.match(badText, /Enter the income account/);
    assert.match(badText, /no tabs/);
    assert.equal(
      await one(`SELECT 1 FROM tenant_settings WHERE tenant_id = $1 AND key = 'accountant_files'`, [t.id]),
      undefined,
    );

    const saved = await admin.post("/settings/accounting?form=accountant-files", form);
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get("location"), "/settings/accounting#accountant-files");
    const stored = await one<{ value: unknown }>(
      `SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'accountant_files'`,
      [t.id],
    );
    assert.deepEqual(stored?.value, {
      incomeAccount: "Income:Plumbing",
      item: "Plumbing work",
      xeroAccountCode: "4000",
      dateOrder: "dd/mm/yyyy",
      taxCodes: [
        { rate: "0", qbo: "Exempt", xero: "No VAT", iif: "" },
        { rate: "6.25", qbo: "TX 6.25", xero: "Texas (6.25%)", iif: "Texas" },
        { rate: "8.25", qbo: "Austin", xero: "Austin (8.25%)", iif: "Austin tax" },
      ],
    });
    // The sync preferences' form still saves on its own.
    const prefs = await admin.post("/settings/accounting", { preferred_provider: "xero", push_invoices: "on_paid" });
    assert.equal(prefs.status, 303);

    const qbo = parseCsv((await download(admin, "qbo")).text).data.filter((r) => r.InvoiceNo === "A-0002");
    assert.deepEqual(
      qbo.map((r) => [r["Item(Product/Service)"], r.ItemTaxCode, r.InvoiceDate]),
      [
        ["Plumbing work", "Austin", "10/02/2026"],
        ["Plumbing work", "TX 6.25", "10/02/2026"],
        ["Plumbing work", "Exempt", "10/02/2026"],
      ],
    );
    const xero = parseCsv((await download(admin, "xero")).text).data.filter((r) => r["*InvoiceNumber"] === "A-0002");
    assert.deepEqual(
      xero.map((r) => [r["*AccountCode"], r["*TaxType"]]),
      [
        ["4000", "Austin (8.25%)"],
        ["4000", "Texas (6.25%)"],
        ["4000", "No VAT"],
      ],
    );
    const iif = (await download(admin, "iif")).text;
    assert.match(iif, /\nSPL\t\tINVOICE\t02\/10\/2026\tIncome:Plumbing\t/);
    assert.match(iif, /\tSales Tax Payable\t[^\n]*\tAustin tax\t/);
    assert.match(iif, /\tSales Tax Payable\t[^\n]*\tTexas\t/);

    const after = pageText(await (await admin.get("/settings/accounting")).text());
    assert.match(after, /Last saved/);
  });
});
