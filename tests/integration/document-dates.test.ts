import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { recordLinks, relLink, textOf } from "../helpers/html";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";

// Issue 16, point 8: lists newest first by the document's date, then number; dates of type
// `date` show as the calendar date in every time zone.

const setDates = (table: "quotes" | "invoices", tenantId: string, id: string, issue: string | null) =>
  one(`UPDATE ${table} SET issue_date = $3 WHERE tenant_id = $1 AND id = $2 RETURNING id`, [tenantId, id, issue]);
const numbersIn = (html: string, prefix: "Q" | "INV") =>
  recordLinks(html, prefix === "Q" ? "/quotes/" : "/invoices/").map((l) => l.text);

test("quote and invoice lists: newest first by issue date, then number; a document without a date last; paging keeps the order", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  // Created in an order that is neither the dates' nor the numbers'.
  const plan: Array<[string, string | null]> = [
    ["0003", "2026-05-01"],
    ["0001", "2026-06-10"],
    ["0004", null],
    ["0002", "2026-06-10"],
    ["0005", "2026-01-15"],
  ];
  for (const [n, issue] of plan) {
    const q = await createQuote(tenant.id, { customerId: customer.id, number: `Q-${n}` });
    await setDates("quotes", tenant.id, q.id, issue);
    const i = await createInvoice(tenant.id, { customerId: customer.id, number: `INV-${n}` });
    await setDates("invoices", tenant.id, i.id, issue);
  }
  const expected = ["0002", "0001", "0003", "0005", "0004"];
  assert.deepEqual(
    numbersIn(await (await office.get("/quotes")).text(), "Q"),
    expected.map((n) => `Q-${n}`),
  );
  assert.deepEqual(
    numbersIn(await (await office.get("/invoices")).text(), "INV"),
    expected.map((n) => `INV-${n}`),
  );
  const customerPage = await (await office.get(`/customers/${customer.id}`)).text();
  assert.deepEqual(
    numbersIn(customerPage, "INV"),
    expected.map((n) => `INV-${n}`),
    "the customer page too",
  );

  // Thirty more on one day: pages of 25 walk (date, number) without a gap or a repeat.
  for (let k = 10; k < 40; k++) {
    const i = await createInvoice(tenant.id, { customerId: customer.id, number: `INV-00${k}` });
    await setDates("invoices", tenant.id, i.id, "2026-03-01");
  }
  const first = await (await office.get("/invoices")).text();
  const next = relLink(first, "next");
  assert.ok(next, "a next page");
  const second = await (await office.get(next!)).text();
  const all = [...numbersIn(first, "INV"), ...numbersIn(second, "INV")];
  const want = (
    await rows<{ number: string }>(
      `SELECT number FROM invoices WHERE tenant_id = $1 ORDER BY issue_date DESC NULLS LAST, number DESC`,
      [tenant.id],
    )
  ).map((r) => r.number);
  assert.deepEqual(all, want);
});

test("finished jobs newest first by their date; one without a date comes last, not first", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  await createJob(tenant.id, {
    customerId: customer.id,
    title: "Undated old job",
    status: "completed",
    scheduledStart: null,
  });
  await createJob(tenant.id, {
    customerId: customer.id,
    title: "June job",
    status: "completed",
    scheduledStart: new Date("2026-06-10T15:00:00Z"),
  });
  await createJob(tenant.id, {
    customerId: customer.id,
    title: "May job",
    status: "completed",
    scheduledStart: new Date("2026-05-10T15:00:00Z"),
  });
  const text = textOf(await (await office.get("/jobs?status=completed")).text());
  const order = ["June job", "May job", "Undated old job"].map((t) => text.indexOf(t));
  assert.ok(order.every((i) => i >= 0) && order[0] < order[1] && order[1] < order[2], `order: ${order}`);
});

for (const zone of ["Pacific/Auckland", "America/Los_Angeles"]) {
  test(`dates of type date show as the calendar date for a tenant in ${zone}, on staff pages and in the portal`, async () => {
    const tenant = await createTenantWithUsers();
    await one(`UPDATE tenants SET time_zone = $2 WHERE id = $1 RETURNING id`, [tenant.id, zone]);
    const office = await clientFor(tenant.users.office);
    const { customer, token } = await portalSetup({ tenant, customerName: "Zelda Zone" });
    const quote = await createQuote(tenant.id, { customerId: customer.id, validUntil: "2026-04-30" });
    await setDates("quotes", tenant.id, quote.id, "2026-03-01");
    const invoice = await createInvoice(tenant.id, { customerId: customer.id, dueDate: "2026-03-15" });
    await setDates("invoices", tenant.id, invoice.id, "2026-03-01");

    const pages = {
      invoice: textOf(await (await office.get(`/invoices/${invoice.id}`)).text()),
      invoices: textOf(await (await office.get("/invoices")).text()),
      quote: textOf(await (await office.get(`/quotes/${quote.id}`)).text()),
      quotes: textOf(await (await office.get("/quotes")).text()),
      customer: textOf(await (await office.get(`/customers/${customer.id}`)).text()),
      portal: textOf((await portalRequest("GET", `/portal/${token}`, { ip: randomLoopback() })).text),
    };
    assert.match(pages.invoice, /Issued\s*Mar 1, 2026/);
    assert.match(pages.invoice, /Due\s*Mar 15, 2026/);
    assert.match(pages.invoices, /Mar 1, 2026\s*Mar 15, 2026/);
    assert.match(pages.quote, /Mar 1, 2026/);
    assert.match(pages.quote, /Apr 30, 2026/);
    assert.match(pages.quotes, /Mar 1, 2026/);
    assert.match(pages.quotes, /Apr 30, 2026/);
    assert.match(pages.customer, /Due Mar 15, 2026/);
    assert.match(pages.portal, /Mar 15, 2026/);
    for (const [name, text] of Object.entries(pages)) {
      assert.ok(
        !/Feb 28, 2026|Mar 14, 2026|Mar 2, 2026|Mar 16, 2026|Apr 29, 2026|May 1, 2026/.test(text),
        `${name}: a date shifted by a day`,
      );
    }
    // A new invoice is issued today in the tenant's zone, not the server's.
    const today = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date());
    const form = await (await office.get(`/invoices/new?customerId=${customer.id}`)).text();
    assert.match(form, new RegExp(`name="issueDate"[^>]*value="${today}"|value="${today}"[^>]*name="issueDate"`));
  });
}
