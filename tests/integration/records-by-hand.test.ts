import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createQuote, createTenantWithUsers, tenantCounts } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// CONTRACT section 12, part A: customers and quotes by hand (docs/decisions/122).

const idFrom = (res: Response, prefix: string) => {
  const m = new RegExp(`^${prefix}/([0-9a-f-]{36})$`).exec(
    new URL(res.headers.get("location") ?? "", "http://x").pathname,
  );
  assert.ok(m, `redirect to ${prefix}/<id>, got ${res.status} ${res.headers.get("location")}`);
  return m[1];
};
const valueOf = (html: string, name: string) => {
  const m = new RegExp(`<input[^>]*name="${name.replace(/[[\].]/g, "\\$&")}"[^>]*>`).exec(html);
  return m ? (/value="([^"]*)"/.exec(m[0])?.[1] ?? "") : null;
};

/** A quote form body: fields plus items[i].* */
function quoteBody(customerId: string, items: Array<Record<string, string>>, extra: Record<string, string> = {}) {
  const body: Record<string, string> = { customerId, title: "Water heater replacement", currency: "USD", ...extra };
  items.forEach((it, i) => {
    for (const [k, v] of Object.entries(it)) body[`items[${i}].${k}`] = v;
  });
  return body;
}

test("customers: new and edit with the import's rules; duplicate email or external id 422 beside the field, values kept", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const existing = await createCustomer(tenant.id, { email: "taken@example.test", external_id: "EXT-1" });

  const created = await office.post("/customers/new", {
    name: "  Ann   Customer ",
    email: "ANN@Example.test",
    phone: "555-0199",
    city: "Springfield",
  });
  assert.equal(created.status, 303);
  const id = idFrom(created, "/customers");
  const row = await one<{ name: string; email: string }>(
    `SELECT name, email FROM customers WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.deepEqual(row, { name: "Ann Customer", email: "ann@example.test" }, "normalised exactly as the import does");

  const before = await tenantCounts(tenant.id, ["customers"]);
  const dup = await office.post("/customers/new", {
    name: "Zed",
    email: "taken@example.test",
    city: "Shelbyville",
    phone: "not a phone",
  });
  assert.equal(dup.status, 422);
  const html = await dup.text();
  assert.match(html, /id="field-phone-error"[\s\S]*Not a valid phone number/);
  assert.equal(valueOf(html, "city"), "Shelbyville", "typed values kept");
  const dupEmail = await office.post("/customers/new", { name: "Zed", email: "taken@example.test" });
  assert.equal(dupEmail.status, 422);
  assert.match(await dupEmail.text(), /id="field-email-error"[\s\S]*already has this email/);
  const dupExt = await office.post(`/customers/${id}/edit`, { name: "Ann Customer", external_id: "EXT-1" });
  assert.equal(dupExt.status, 422);
  assert.match(await dupExt.text(), /id="field-external_id-error"[\s\S]*already has this external id/);
  assert.deepEqual(await tenantCounts(tenant.id, ["customers"]), before);

  const edited = await office.post(`/customers/${id}/edit`, {
    name: "Ann Customer",
    email: "ann@example.test",
    phone: "555-0100",
  });
  assert.equal(edited.status, 303);
  const page = textOf(await (await office.get(`/customers/${id}`)).text());
  assert.match(page, /Edited \(phone, city\) by/);
  assert.match(page, /Created by/);
  assert.equal(
    (await one<{ city: string | null }>(`SELECT city FROM customers WHERE tenant_id = $1 AND id = $2`, [
      tenant.id,
      id,
    ]))!.city,
    null,
  );
  assert.ok(existing.id);
});

test("the quote builder: lines, totals in cents with tax per line half up, options and optional items", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const form = await office.get(`/quotes/new?customerId=${customer.id}`);
  assert.equal(form.status, 200);
  const res = await office.post(
    `/quotes/new?customerId=${customer.id}`,
    quoteBody(customer.id, [
      { description: "Labour", quantity: "1.5", unitPrice: "0.05", taxRate: "10" }, // 7.5 -> 8 cents, tax 0.8 -> 1
      { description: "Good heater", quantity: "1", unitPrice: "1000.00", taxRate: "8.25", option: "Good" },
      { description: "Better heater", quantity: "1", unitPrice: "1500.00", taxRate: "8.25", option: "Better" },
      { description: "Haul away old unit", quantity: "1", unitPrice: "75", taxRate: "0", optional: "on" },
    ]),
  );
  assert.equal(res.status, 303);
  const id = idFrom(res, "/quotes");
  const q = await one<{
    number: string;
    status: string;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
    valid_until: string;
  }>(
    `SELECT number, status, subtotal_cents, tax_cents, total_cents, valid_until::text FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.equal(q!.number, "Q-0001");
  assert.equal(q!.status, "draft");
  // Counted: labour (8 + 1) and the first option, Good (100000 + 8250); not Better, not the optional line.
  assert.deepEqual([q!.subtotal_cents, q!.tax_cents, q!.total_cents], [100_008, 8_251, 108_259]);
  const items = await rows<{
    option_name: string | null;
    optional: boolean;
    line_total_cents: number;
    tax_cents: number;
  }>(
    `SELECT option_name, optional, line_total_cents, tax_cents FROM quote_items WHERE tenant_id = $1 AND quote_id = $2 ORDER BY position`,
    [tenant.id, id],
  );
  assert.deepEqual(
    items.map((i) => [i.option_name, i.optional, i.line_total_cents, i.tax_cents]),
    [
      [null, false, 8, 1],
      ["Good", false, 100_000, 8_250],
      ["Better", false, 150_000, 12_375],
      [null, true, 7_500, 0],
    ],
  );
  const page = textOf(await (await office.get(`/quotes/${id}`)).text());
  assert.match(page, /Option: Better/);
  assert.match(page, /Optional/);
  assert.match(page, /Created by/);
});

test("bad fields: 422 beside the field with every typed value kept, line items included; Add line and Remove without JavaScript", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const before = await tenantCounts(tenant.id, ["quotes", "quote_items", "document_counters"]);
  const bad = await office.post(
    `/quotes/new?customerId=${customer.id}`,
    quoteBody(
      customer.id,
      [
        { description: "Flush the tank", quantity: "2", unitPrice: "12,50", taxRate: "8.25" },
        { description: "", quantity: "1", unitPrice: "99.00", taxRate: "150" },
      ],
      { validUntil: "2026-02-30", notes: "Side gate code 1234" },
    ),
  );
  assert.equal(bad.status, 422);
  const html = await bad.text();
  assert.match(html, /id="field-items-0-unitPrice-error"[\s\S]*Must be an amount/);
  assert.match(html, /id="field-items-1-description-error"/);
  assert.match(html, /id="field-items-1-taxRate-error"[\s\S]*percent from 0 to 100/);
  assert.match(html, /id="field-validUntil-error"[\s\S]*Not a real calendar date/);
  assert.equal(valueOf(html, "items[0].description"), "Flush the tank");
  assert.equal(valueOf(html, "items[0].unitPrice"), "12,50");
  assert.equal(valueOf(html, "items[1].unitPrice"), "99.00");
  assert.match(html, /Side gate code 1234/);
  assert.deepEqual(
    await tenantCounts(tenant.id, ["quotes", "quote_items", "document_counters"]),
    before,
    "nothing stored",
  );

  // "Add line" is conform's insert intent: the form comes back with one more row, nothing saved.
  const typed = quoteBody(customer.id, [
    { description: "Flush the tank", quantity: "2", unitPrice: "12.50", taxRate: "8.25" },
  ]);
  const added = await office.post(`/quotes/new?customerId=${customer.id}`, {
    ...typed,
    __intent__: JSON.stringify({ type: "insert", payload: { name: "items", defaultValue: { quantity: "1" } } }),
  });
  assert.equal(added.status, 200);
  const addedHtml = await added.text();
  assert.equal(valueOf(addedHtml, "items[0].description"), "Flush the tank");
  assert.equal(valueOf(addedHtml, "items[1].quantity"), "1");
  assert.ok(!/field-items-1-description-error/.test(addedHtml), "the new empty row is not an error yet");
  const removed = await office.post(`/quotes/new?customerId=${customer.id}`, {
    ...quoteBody(customer.id, [
      { description: "Keep me", unitPrice: "1" },
      { description: "Drop me", unitPrice: "2" },
    ]),
    __intent__: JSON.stringify({ type: "remove", payload: { name: "items", index: 1 } }),
  });
  assert.equal(removed.status, 200);
  const removedHtml = await removed.text();
  assert.equal(valueOf(removedHtml, "items[0].description"), "Keep me");
  assert.equal(valueOf(removedHtml, "items[1].description"), null);
  assert.deepEqual(await tenantCounts(tenant.id, ["quotes", "quote_items"]), {
    quotes: before.quotes,
    quote_items: before.quote_items,
  });
});

test("ten quotes created at once get ten distinct consecutive numbers; an imported Q-0007 is never repeated", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id);
  await createQuote(tenant.id, { customerId: customer.id, number: "Q-0007" });
  const clients = await Promise.all(Array.from({ length: 10 }, () => clientFor(tenant.users.office)));
  await Promise.all(clients.map((c) => c.csrf()));
  const results = await Promise.all(
    clients.map((c, i) =>
      c.post(
        `/quotes/new?customerId=${customer.id}`,
        quoteBody(customer.id, [{ description: `Job ${i}`, unitPrice: "10" }]),
      ),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    Array(10).fill(303),
  );
  const numbers = (
    await rows<{ number: string }>(`SELECT number FROM quotes WHERE tenant_id = $1 ORDER BY number`, [tenant.id])
  ).map((r) => r.number);
  assert.deepEqual(numbers, [
    "Q-0001",
    "Q-0002",
    "Q-0003",
    "Q-0004",
    "Q-0005",
    "Q-0006",
    "Q-0007",
    "Q-0008",
    "Q-0009",
    "Q-0010",
    "Q-0011",
  ]);
});

async function quoteIn(tenantId: string, status: string) {
  const customer = await createCustomer(tenantId);
  return createQuote(tenantId, { customerId: customer.id, status });
}

test("state: editing an approved or declined quote is 409 and changes nothing; converting a draft is 409", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  for (const status of ["approved", "declined"]) {
    const q = await quoteIn(tenant.id, status);
    const snapshot = await one(
      `SELECT q.*, (SELECT json_agg(i ORDER BY position) FROM quote_items i WHERE i.tenant_id = q.tenant_id AND i.quote_id = q.id) AS items FROM quotes q WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, q.id],
    );
    assert.equal((await office.get(`/quotes/${q.id}/edit`)).status, 409, `${status}: GET edit`);
    const customerId = (await one<{ customer_id: string }>(
      `SELECT customer_id FROM quotes WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, q.id],
    ))!.customer_id;
    const res = await office.post(
      `/quotes/${q.id}/edit`,
      quoteBody(customerId, [{ description: "Changed", unitPrice: "1" }]),
    );
    assert.equal(res.status, 409, `${status}: POST edit`);
    assert.deepEqual(
      await one(
        `SELECT q.*, (SELECT json_agg(i ORDER BY position) FROM quote_items i WHERE i.tenant_id = q.tenant_id AND i.quote_id = q.id) AS items FROM quotes q WHERE tenant_id = $1 AND id = $2`,
        [tenant.id, q.id],
      ),
      snapshot,
    );
  }
  const draft = await quoteIn(tenant.id, "draft");
  const before = await tenantCounts(tenant.id, ["jobs", "record_history"]);
  assert.equal((await office.post(`/quotes/${draft.id}/convert`, {})).status, 409);
  assert.deepEqual(await tenantCounts(tenant.id, ["jobs", "record_history"]), before);
});

test("send: draft -> sent with a live portal link reused, the page shows the link and a ready message", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const q = await quoteIn(tenant.id, "draft");
  const sent = await office.post(`/quotes/${q.id}/send`, {});
  assert.equal(sent.status, 303);
  const row = await one<{ status: string; sent_at: string | null }>(
    `SELECT status, sent_at FROM quotes WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, q.id],
  );
  assert.equal(row!.status, "sent");
  assert.ok(row!.sent_at);
  const html = await (await office.get(`/quotes/${q.id}`)).text();
  assert.match(html, /\/portal\/[A-Za-z0-9_.-]+/);
  assert.match(html, /href="mailto:[^"]+subject=Quote%20/);
  assert.match(textOf(html), new RegExp(`Sent by ${tenant.users.office.name}`));
  assert.equal((await office.post(`/quotes/${q.id}/send`, {})).status, 303);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM portal_links WHERE tenant_id = $1`, [tenant.id]))!.n,
    1,
    "the live link is reused",
  );
});

test("convert: an approved quote becomes one job, linked both ways, twice or twice at once", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const q = await createQuote(tenant.id, { customerId: customer.id, status: "approved" });
  const clients = [office, await clientFor(tenant.users.admin)];
  await Promise.all(clients.map((c) => c.csrf()));
  const [a, b] = await Promise.all(clients.map((c) => c.post(`/quotes/${q.id}/convert`, {})));
  assert.equal(a.status, 303);
  assert.equal(a.headers.get("location"), b.headers.get("location"));
  const again = await office.post(`/quotes/${q.id}/convert`, {});
  assert.equal(again.headers.get("location"), a.headers.get("location"));
  const jobs = await rows<{ id: string; quote_id: string; description: string; status: string }>(
    `SELECT id, quote_id, description, status FROM jobs WHERE tenant_id = $1`,
    [tenant.id],
  );
  assert.equal(jobs.length, 1);
  assert.equal(jobs[0].quote_id, q.id);
  assert.equal(a.headers.get("location"), `/jobs/${jobs[0].id}`);
  assert.match(jobs[0].description, /50 gal gas water heater/);
  assert.equal(
    (await one<{ job_id: string }>(`SELECT job_id FROM quotes WHERE tenant_id = $1 AND id = $2`, [tenant.id, q.id]))!
      .job_id,
    jobs[0].id,
  );
  // Converted: no longer editable.
  assert.equal((await office.get(`/quotes/${q.id}/edit`)).status, 409);
});

test("prefill: ?requestId= and the assistant's item/qty priced from the price book", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id, { name: "Rita Request" });
  await one(
    `INSERT INTO price_book_items (tenant_id, name, unit_price_cents, tax_rate) VALUES ($1, 'Drain cleaning', 18900, 8.25)`,
    [tenant.id],
  );
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, description, phone) VALUES ($1, $2, 'Leaking tap', 'Kitchen tap drips', '555-0123') RETURNING id`,
    [tenant.id, customer.id],
  );
  const html = await (
    await office.get(`/quotes/new?requestId=${request!.id}&item=drain%20CLEANING&qty=2&item=Mystery%20part`)
  ).text();
  assert.match(textOf(html), /Rita Request/);
  assert.equal(valueOf(html, "title"), "Leaking tap");
  assert.match(html, /Kitchen tap drips/);
  assert.equal(valueOf(html, "items[0].description"), "Drain cleaning");
  assert.equal(valueOf(html, "items[0].quantity"), "2");
  assert.equal(valueOf(html, "items[0].unitPrice"), "189.00");
  assert.equal(valueOf(html, "items[0].taxRate"), "8.25");
  assert.equal(valueOf(html, "items[1].unitPrice"), "0.00");
  assert.equal(await tenantCounts(tenant.id, ["quotes"]).then((c) => c.quotes), 0, "nothing stored");
});

test("a technician is refused every new route (403)", async () => {
  const tenant = await createTenantWithUsers();
  const tech: Client = await clientFor(tenant.users.technician);
  const customer = await createCustomer(tenant.id);
  const q = await createQuote(tenant.id, { customerId: customer.id, status: "draft" });
  for (const [method, path] of [
    ["GET", "/customers/new"],
    ["POST", "/customers/new"],
    ["GET", `/customers/${customer.id}/edit`],
    ["POST", `/customers/${customer.id}/edit`],
    ["GET", "/quotes/new"],
    ["POST", "/quotes/new"],
    ["GET", `/quotes/${q.id}/edit`],
    ["POST", `/quotes/${q.id}/edit`],
    ["GET", `/quotes/${q.id}/send`],
    ["POST", `/quotes/${q.id}/send`],
    ["POST", `/quotes/${q.id}/convert`],
    ["GET", "/settings/price-book"],
    ["POST", "/settings/price-book"],
  ]) {
    const res = method === "GET" ? await tech.get(path) : await tech.post(path, { name: "X" });
    assert.equal(res.status, 403, `${method} ${path}`);
  }
});

test("price book: add, a duplicate name 422 beside the field, change, remove", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  assert.equal(
    (
      await office.post("/settings/price-book", {
        name: "Drain cleaning",
        kind: "service",
        unitPrice: "189.00",
        taxRate: "8.25",
      })
    ).status,
    303,
  );
  const dup = await office.post("/settings/price-book", {
    name: "drain CLEANING",
    unitPrice: "1",
    description: "kept",
  });
  assert.equal(dup.status, 422);
  const html = await dup.text();
  assert.match(html, /id="field-name-error"[\s\S]*already has an item with this name/);
  assert.equal(valueOf(html, "description"), "kept");
  const item = (await one<{ id: string; unit_price_cents: number; tax_rate: string }>(
    `SELECT id, unit_price_cents, tax_rate::text FROM price_book_items WHERE tenant_id = $1`,
    [tenant.id],
  ))!;
  assert.deepEqual([item.unit_price_cents, item.tax_rate], [18_900, "8.250"]);
  assert.equal(
    (await office.post("/settings/price-book", { id: item.id, name: "Drain cleaning", unitPrice: "199" })).status,
    303,
  );
  assert.equal(
    (await one<{ unit_price_cents: number }>(`SELECT unit_price_cents FROM price_book_items WHERE tenant_id = $1`, [
      tenant.id,
    ]))!.unit_price_cents,
    19_900,
  );
  assert.equal((await office.post("/settings/price-book?intent=remove", { id: item.id })).status, 303);
  assert.equal((await tenantCounts(tenant.id, ["price_book_items"])).price_book_items, 0);
});
