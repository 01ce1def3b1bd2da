// Prices as businesses charge them (docs/decisions/380-prices.md, 381-tax-rates.md): named rates
// and groups on /settings/taxes, line and document discounts, tax per named rate, tax-exempt
// customers; the same figures on the builder, the page, the PDF (read back by pdftotext), the
// portal and the invoice made from the quote.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { one } from "../../db/index";
import { convertQuote } from "../../app/services/quotes/quotes.server";
import { createInvoiceFromJob } from "../../app/services/invoices/invoices.server";
import { clientFor, type Client } from "../helpers/client";
import { textOf } from "../helpers/html";
import { pageText, portalRequest, portalSetup, randomLoopback } from "../helpers/portal";

async function addRate(admin: Client, name: string, rate: string) {
  const res = await admin.post("/settings/taxes", { name, rate });
  assert.equal(res.status, 303, `rate ${name}`);
}
async function rateId(tenantId: string, name: string) {
  return (await one<{ id: string }>(`SELECT id FROM tax_rates WHERE tenant_id = $1 AND name = $2`, [tenantId, name]))!
    .id;
}
const quoteIdFrom = (res: Response) => {
  assert.equal(res.status, 303);
  return /\/quotes\/([0-9a-f-]{36})$/.exec(res.headers.get("location") ?? "")![1]!;
};
function body(fields: Record<string, string>, items: Array<Record<string, string>>) {
  const b: Record<string, string> = { currency: "USD", ...fields };
  items.forEach((it, i) => Object.entries(it).forEach(([k, v]) => (b[`items[${i}].${k}`] = v)));
  return b;
}
const pdfText = (bytes: ArrayBuffer) =>
  execFileSync("pdftotext", ["-layout", "-", "-"], { input: Buffer.from(bytes) }).toString("utf8");

/** The figures worked by hand in tests/unit/money-prices.test.ts. */
const FIGURES = [/Subtotal\s*\$289\.99/, /State 6\.25%\s*\$15\.31/, /City 2%\s*\$4\.90/, /\$265\.20/];

test("State 6.25% + City 2%, a 10% line discount and $25.00 off: builder, page, PDF, portal and the invoice made from it agree to the cent", async () => {
  const s = await portalSetup();
  const admin = await clientFor(s.tenant.users.admin);
  const office = await clientFor(s.tenant.users.office);
  await addRate(admin, "State", "6.25");
  await addRate(admin, "City", "2");
  const group = new FormData();
  group.set("name", "Austin");
  group.append("rateIds", await rateId(s.tenant.id, "State"));
  group.append("rateIds", await rateId(s.tenant.id, "City"));
  assert.equal((await admin.post("/settings/taxes?intent=group", group)).status, 303);
  const austin = await rateId(s.tenant.id, "Austin");

  const created = await office.post(
    "/quotes/new",
    body({ customerId: s.customer.id, title: "Water heater", discountType: "amount", discountValue: "25.00" }, [
      {
        description: "Water heater",
        quantity: "2",
        unitPrice: "100.00",
        taxRateId: austin,
        discountType: "percent",
        discountValue: "10",
      },
      { description: "Permit", quantity: "1", unitPrice: "89.99", taxRateId: austin },
    ]),
  );
  const quoteId = quoteIdFrom(created);
  const stored = await one<Record<string, string>>(
    `SELECT subtotal_cents, discount_cents, tax_cents, total_cents FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, quoteId],
  );
  assert.deepEqual(Object.fromEntries(Object.entries(stored!).map(([k, v]) => [k, Number(v)])), {
    subtotal_cents: 28_999,
    discount_cents: 4500,
    tax_cents: 2021,
    total_cents: 26_520,
  });

  const builder = textOf(await (await office.get(`/quotes/${quoteId}/edit`)).text());
  const page = textOf(await (await office.get(`/quotes/${quoteId}`)).text());
  const pdfRes = await office.get(`/quotes/${quoteId}.pdf`);
  assert.equal(pdfRes.status, 200);
  const pdf = pdfText(await pdfRes.arrayBuffer());
  for (const [where, text] of [
    ["builder", builder],
    ["page", page],
    ["pdf", pdf],
  ] as const) {
    for (const f of FIGURES) assert.match(text, f, `${where}: ${f}`);
    assert.match(text, /Discount\s*[−-]\s*\$45\.00/, `${where}: the discount`);
  }

  assert.equal((await office.post(`/quotes/${quoteId}/send`)).status, 303);
  // The e-mail the customer gets names the same discount and tax per rate before its total.
  const mail = await one<{ text_body: string; html_body: string }>(
    `SELECT text_body, html_body FROM messages WHERE tenant_id = $1 AND record_id = $2 AND kind = 'quote_sent'`,
    [s.tenant.id, quoteId],
  );
  assert.ok(mail, "the quote was e-mailed");
  for (const body of [mail!.text_body, textOf(mail!.html_body)]) {
    for (const f of [/State 6\.25%:?\s*\$15\.31/, /City 2%:?\s*\$4\.90/, /Total:?\s*\$265\.20/])
      assert.match(body, f, `e-mail: ${f}`);
    assert.match(body, /Discount:?\s*[−-]\s*\$45\.00/, "e-mail: the discount");
  }
  const hub = pageText((await portalRequest("GET", s.url, { ip: randomLoopback() })).text);
  for (const f of FIGURES) assert.match(hub, f, `portal: ${f}`);
  const approved = await portalRequest("POST", "/api/portal/quote", {
    form: { token: s.token, quoteId, decision: "approve", signatureName: "Jamie Rivera", acceptTerms: "on" },
    ip: randomLoopback(),
  });
  assert.equal(approved.status, 303, approved.text.slice(0, 300));
  const actor = { tenantId: s.tenant.id, userId: s.tenant.users.office.id, role: "office" as const };
  const { jobId } = await convertQuote(actor, quoteId);
  const invoice = await createInvoiceFromJob(actor, jobId);
  const invoicePage = textOf(await (await office.get(`/invoices/${invoice.id}`)).text());
  for (const f of FIGURES) assert.match(invoicePage, f, `invoice: ${f}`);
  assert.match(invoicePage, /Discount\s*[−-]\s*\$45\.00/);
  const inv = await one<{ total_cents: string; tax_cents: string }>(
    `SELECT total_cents, tax_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, invoice.id],
  );
  assert.deepEqual([Number(inv!.total_cents), Number(inv!.tax_cents)], [26_520, 2021]);
});

test("a tax-exempt customer's quote carries no tax and names the reason", async () => {
  const s = await portalSetup();
  const admin = await clientFor(s.tenant.users.admin);
  const office = await clientFor(s.tenant.users.office);
  await addRate(admin, "State", "6.25");
  const created = await office.post("/customers/new", {
    name: "Grace Church",
    tax_exempt: "on",
    tax_exempt_reason: "Church (certificate 12-345)",
  });
  assert.equal(created.status, 303);
  const customerId = /\/customers\/([0-9a-f-]{36})$/.exec(created.headers.get("location")!)![1]!;
  const quoteId = quoteIdFrom(
    await office.post(
      "/quotes/new",
      body({ customerId }, [
        { description: "Boiler service", unitPrice: "300.00", taxRateId: await rateId(s.tenant.id, "State") },
      ]),
    ),
  );
  const row = await one<{ tax_cents: string; total_cents: string; tax_exempt_reason: string }>(
    `SELECT tax_cents, total_cents, tax_exempt_reason FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, quoteId],
  );
  assert.deepEqual([Number(row!.tax_cents), Number(row!.total_cents)], [0, 30_000]);
  const page = textOf(await (await office.get(`/quotes/${quoteId}`)).text());
  assert.match(page, /Tax exempt: Church \(certificate 12-345\)/);
  const pdf = pdfText(await (await office.get(`/quotes/${quoteId}.pdf`)).arrayBuffer());
  assert.match(pdf, /Tax exempt: Church/);
});

test("a rate in use cannot be deleted (409), only archived; the old quote keeps it and new lines cannot pick it", async () => {
  const s = await portalSetup();
  const admin = await clientFor(s.tenant.users.admin);
  const office = await clientFor(s.tenant.users.office);
  await addRate(admin, "County", "1.5");
  await addRate(admin, "Unused", "3");
  const county = await rateId(s.tenant.id, "County");
  const quoteId = quoteIdFrom(
    await office.post(
      "/quotes/new",
      body({ customerId: s.customer.id }, [{ description: "Inspection", unitPrice: "200.00", taxRateId: county }]),
    ),
  );
  const del = await admin.post(`/settings/taxes/${county}`, { intent: "delete" });
  assert.equal(del.status, 409);
  const viaDelete = await admin.request("DELETE", `/settings/taxes/${county}`, { body: { _csrf: await admin.csrf() } });
  assert.equal(viaDelete.status, 409);
  assert.ok(await one(`SELECT 1 FROM tax_rates WHERE tenant_id = $1 AND id = $2`, [s.tenant.id, county]));
  // An unused one goes.
  assert.equal(
    (await admin.post(`/settings/taxes/${await rateId(s.tenant.id, "Unused")}`, { intent: "delete" })).status,
    303,
  );
  assert.equal(await one(`SELECT 1 FROM tax_rates WHERE tenant_id = $1 AND name = 'Unused'`, [s.tenant.id]), undefined);

  assert.equal((await admin.post(`/settings/taxes/${county}`, { intent: "archive" })).status, 303);
  const page = textOf(await (await office.get(`/quotes/${quoteId}`)).text());
  assert.match(page, /County 1\.5%\s*\$3\.00/, "the old quote keeps its archived rate");
  const refused = await office.post(
    "/quotes/new",
    body({ customerId: s.customer.id }, [{ description: "Another", unitPrice: "10.00", taxRateId: county }]),
  );
  assert.equal(refused.status, 422);
  // Editing the old quote keeps its archived rate on its line.
  const kept = await office.post(
    `/quotes/${quoteId}/edit`,
    body({ customerId: s.customer.id }, [{ description: "Inspection", unitPrice: "200.00", taxRateId: county }]),
  );
  assert.equal(kept.status, 303);
  // The old percent field still works: matched to a rate of that percent, else kept as typed.
  await addRate(admin, "Metro", "8.25");
  const typed = quoteIdFrom(
    await office.post(
      "/quotes/new",
      body({ customerId: s.customer.id }, [
        { description: "Matched", unitPrice: "100.00", taxRate: "8.25" },
        { description: "As typed", unitPrice: "100.00", taxRate: "4.5" },
      ]),
    ),
  );
  const lines = await one<{ ids: string[] }>(
    `SELECT array_agg(coalesce(r.name, '-') ORDER BY qi.position) AS ids FROM quote_items qi
       LEFT JOIN tax_rates r ON r.tenant_id = qi.tenant_id AND r.id = qi.tax_rate_id WHERE qi.tenant_id = $1 AND qi.quote_id = $2`,
    [s.tenant.id, typed],
  );
  assert.deepEqual(lines!.ids, ["Metro", "-"]);
  // Another business's rate is unknown here.
  const other = await portalSetup();
  const otherAdmin = await clientFor(other.tenant.users.admin);
  assert.equal((await otherAdmin.post(`/settings/taxes/${county}`, { intent: "archive" })).status, 404);
  // An office member may not manage taxes.
  assert.equal((await office.get("/settings/taxes")).status, 403);
});

test("role matrix of /settings/taxes: owner and admin manage taxes; office and technician get 403", async () => {
  const s = await portalSetup();
  for (const role of ["owner", "admin", "office", "technician"] as const) {
    const c = await clientFor(s.tenant.users[role]);
    const allowed = role === "owner" || role === "admin";
    assert.equal((await c.get("/settings/taxes")).status, allowed ? 200 : 403, `${role} GET`);
    const res = await c.post("/settings/taxes", { name: `Rate of ${role}`, rate: "1" });
    assert.equal(res.status, allowed ? 303 : 403, `${role} POST`);
  }
});
