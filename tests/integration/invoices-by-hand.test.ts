import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  tenantCounts,
} from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// CONTRACT section 12: invoices by hand (new, edit, send) and "Create invoice" from a job
// (docs/decisions/104, 117).

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
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

function invoiceBody(customerId: string, items: Array<Record<string, string>>, extra: Record<string, string> = {}) {
  const body: Record<string, string> = { customerId, currency: "USD", ...extra };
  items.forEach((it, i) => {
    for (const [k, v] of Object.entries(it)) body[`items[${i}].${k}`] = v;
  });
  return body;
}

const snapshot = (tenantId: string, id: string) =>
  one(
    `SELECT i.*, (SELECT json_agg(x ORDER BY position) FROM invoice_items x WHERE x.tenant_id = i.tenant_id AND x.invoice_id = i.id) AS items
       FROM invoices i WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );

test("new invoice: prefilled from ?customerId=, due date from the payment terms, numbered INV-0001, INV-0002 past an imported one", async () => {
  const tenant = await createTenantWithUsers();
  await one(
    `UPDATE tenants SET payment_terms_days = 21, time_zone = 'America/Los_Angeles' WHERE id = $1 RETURNING id`,
    [tenant.id],
  );
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id, { name: "Ivo Invoiced" });
  await createInvoice(tenant.id, { customerId: customer.id, number: "INV-0002", status: "sent" });

  const form = await office.get(`/invoices/new?customerId=${customer.id}`);
  assert.equal(form.status, 200);
  const html = await form.text();
  assert.match(textOf(html), /Ivo Invoiced/);
  const today = todayIn("America/Los_Angeles");
  assert.equal(valueOf(html, "issueDate"), today, "issued today in the tenant's zone");
  assert.equal(valueOf(html, "dueDate"), addDays(today, 21), "due after the tenant's payment terms");
  assert.match(html, /Add line/);

  const res = await office.post(
    `/invoices/new?customerId=${customer.id}`,
    invoiceBody(
      customer.id,
      [
        { description: "Labour", quantity: "1.5", unitPrice: "0.05", taxRate: "10" }, // 7.5 -> 8 cents, tax 0.8 -> 1
        { description: "Heater", quantity: "1", unitPrice: "1000.00", taxRate: "8.25", option: "Good", optional: "on" }, // an invoice counts every line
      ],
      { issueDate: "2026-03-01", notes: "Thank you!" },
    ),
  );
  assert.equal(res.status, 303);
  const id = idFrom(res, "/invoices");
  const row = await one<{
    number: string;
    status: string;
    issue_date: string;
    due_date: string;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
    notes: string;
  }>(
    `SELECT number, status, issue_date::text, due_date::text, subtotal_cents, tax_cents, total_cents, notes FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.deepEqual(row, {
    number: "INV-0001",
    status: "draft",
    issue_date: "2026-03-01",
    due_date: "2026-03-22",
    subtotal_cents: 100_008,
    tax_cents: 8_251,
    total_cents: 108_259,
    notes: "Thank you!",
  });
  const second = await office.post(
    `/invoices/new?customerId=${customer.id}`,
    invoiceBody(customer.id, [{ description: "Call-out", unitPrice: "80" }]),
  );
  assert.equal(second.status, 303);
  const n2 = await one<{ number: string }>(`SELECT number FROM invoices WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    idFrom(second, "/invoices"),
  ]);
  assert.equal(n2!.number, "INV-0003", "the imported INV-0002 is skipped");
  const page = textOf(await (await office.get(`/invoices/${id}`)).text());
  assert.match(page, /Created by/);
  assert.match(page, /Issued\s*Mar 1, 2026/);
  assert.match(page, /Due\s*Mar 22, 2026/);

  // Without a customer the page asks which one first.
  const pick = await office.get(`/invoices/new`);
  assert.equal(pick.status, 200);
  assert.match(textOf(await pick.text()), /Who is the invoice for/);
});

test("bad fields: 422 beside the field, every typed value kept with the lines; Add line and Remove without JavaScript", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const before = await tenantCounts(tenant.id, ["invoices", "invoice_items", "document_counters", "record_history"]);
  const bad = await office.post(
    `/invoices/new?customerId=${customer.id}`,
    invoiceBody(
      customer.id,
      [
        { description: "Flush the tank", quantity: "2", unitPrice: "12,50", taxRate: "8.25" },
        { description: "", quantity: "1", unitPrice: "99.00", taxRate: "150" },
      ],
      { dueDate: "2026-02-30", notes: "Side gate code 1234" },
    ),
  );
  assert.equal(bad.status, 422);
  const html = await bad.text();
  assert.match(html, /id="field-items-0-unitPrice-error"[\s\S]*Must be an amount/);
  assert.match(html, /id="field-items-1-description-error"/);
  assert.match(html, /id="field-items-1-taxRate-error"/);
  assert.match(html, /id="field-dueDate-error"[\s\S]*Not a real calendar date/);
  assert.equal(valueOf(html, "items[0].description"), "Flush the tank");
  assert.equal(valueOf(html, "items[0].unitPrice"), "12,50");
  assert.equal(valueOf(html, "items[1].unitPrice"), "99.00");
  assert.equal(valueOf(html, "dueDate"), "2026-02-30");
  assert.match(html, /Side gate code 1234/);

  // A due date before the issue date: the service says so beside the field, values kept.
  const early = await office.post(
    `/invoices/new?customerId=${customer.id}`,
    invoiceBody(customer.id, [{ description: "Keep me typed", unitPrice: "10" }], {
      issueDate: "2026-05-10",
      dueDate: "2026-05-01",
    }),
  );
  assert.equal(early.status, 422);
  const earlyHtml = await early.text();
  assert.match(earlyHtml, /id="field-dueDate-error"[\s\S]*before the issue date/);
  assert.equal(valueOf(earlyHtml, "items[0].description"), "Keep me typed");
  assert.equal(valueOf(earlyHtml, "issueDate"), "2026-05-10");
  assert.deepEqual(
    await tenantCounts(tenant.id, ["invoices", "invoice_items", "document_counters", "record_history"]),
    before,
    "nothing stored",
  );

  const typed = invoiceBody(customer.id, [
    { description: "Flush the tank", quantity: "2", unitPrice: "12.50", taxRate: "8.25" },
  ]);
  const added = await office.post(`/invoices/new?customerId=${customer.id}`, {
    ...typed,
    __intent__: JSON.stringify({ type: "insert", payload: { name: "items", defaultValue: { quantity: "1" } } }),
  });
  assert.equal(added.status, 200);
  const addedHtml = await added.text();
  assert.equal(valueOf(addedHtml, "items[0].description"), "Flush the tank");
  assert.equal(valueOf(addedHtml, "items[1].quantity"), "1");
  const removed = await office.post(`/invoices/new?customerId=${customer.id}`, {
    ...invoiceBody(customer.id, [
      { description: "Keep me", unitPrice: "1" },
      { description: "Drop me", unitPrice: "2" },
    ]),
    __intent__: JSON.stringify({ type: "remove", payload: { name: "items", index: 1 } }),
  });
  assert.equal(removed.status, 200);
  const removedHtml = await removed.text();
  assert.equal(valueOf(removedHtml, "items[0].description"), "Keep me");
  assert.equal(valueOf(removedHtml, "items[1].description"), null);
  assert.deepEqual(await tenantCounts(tenant.id, ["invoices", "invoice_items"]), {
    invoices: before.invoices,
    invoice_items: before.invoice_items,
  });
});

test("edit: a draft or an unpaid sent invoice changes; part paid, paid or void is 409 and nothing changes", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id);
  const draft = await createInvoice(tenant.id, { customerId: customer.id, status: "draft" });
  const form = await office.get(`/invoices/${draft.id}/edit`);
  assert.equal(form.status, 200);
  const formHtml = await form.text();
  assert.equal(valueOf(formHtml, "items[0].description"), "50 gal gas water heater");
  assert.equal(valueOf(formHtml, "items[0].unitPrice"), "1450.00");
  const saved = await office.post(
    `/invoices/${draft.id}/edit`,
    invoiceBody(customer.id, [{ description: "Drain clearing", unitPrice: "189", taxRate: "0" }], {
      issueDate: "2026-04-01",
      dueDate: "2026-04-15",
    }),
  );
  assert.equal(saved.status, 303);
  const row = await one<{ total_cents: number; due_date: string; status: string }>(
    `SELECT total_cents, due_date::text, status FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, draft.id],
  );
  assert.deepEqual(row, { total_cents: 18_900, due_date: "2026-04-15", status: "draft" });
  assert.match(textOf(await (await office.get(`/invoices/${draft.id}`)).text()), /Edited by/);

  for (const [status, paid] of [
    ["partial", 1000],
    ["paid", null],
    ["void", 0],
  ] as const) {
    const inv = await createInvoice(tenant.id, { customerId: customer.id, status });
    if (paid === null)
      await one(`UPDATE invoices SET amount_paid_cents = total_cents WHERE tenant_id = $1 AND id = $2 RETURNING id`, [
        tenant.id,
        inv.id,
      ]);
    else if (paid)
      await one(`UPDATE invoices SET amount_paid_cents = $3 WHERE tenant_id = $1 AND id = $2 RETURNING id`, [
        tenant.id,
        inv.id,
        paid,
      ]);
    const before = await snapshot(tenant.id, inv.id);
    const history = await tenantCounts(tenant.id, ["record_history"]);
    assert.equal((await office.get(`/invoices/${inv.id}/edit`)).status, 409, `${status}: GET edit`);
    const res = await office.post(
      `/invoices/${inv.id}/edit`,
      invoiceBody(customer.id, [{ description: "Changed", unitPrice: "1" }]),
    );
    assert.equal(res.status, 409, `${status}: POST edit`);
    assert.deepEqual(await snapshot(tenant.id, inv.id), before, `${status}: nothing changed`);
    assert.deepEqual(await tenantCounts(tenant.id, ["record_history"]), history);
    assert.ok(
      !/href="\/invoices\/[^"]+\/edit"/.test(await (await office.get(`/invoices/${inv.id}`)).text()),
      `${status}: no Edit button`,
    );
  }
});

test("send: draft -> sent with a live portal link reused, the page shows the link and a ready message; void is 409", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id, { name: "Sam Sender", email: "sam@example.test" });
  const inv = await createInvoice(tenant.id, { customerId: customer.id, status: "draft" });
  const sent = await office.post(`/invoices/${inv.id}/send`, {});
  assert.equal(sent.status, 303);
  const row = await one<{ status: string; sent_at: string | null }>(
    `SELECT status, sent_at FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, inv.id],
  );
  assert.equal(row!.status, "sent");
  assert.ok(row!.sent_at);
  const html = await (await office.get(`/invoices/${inv.id}`)).text();
  assert.match(html, /\/portal\/[A-Za-z0-9_.-]+/);
  assert.match(html, /href="mailto:sam@example.test\?[^"]*subject=Invoice%20/);
  assert.match(textOf(html), new RegExp(`Sent by ${tenant.users.office.name}`));
  assert.equal((await office.post(`/invoices/${inv.id}/send`, {})).status, 303);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM portal_links WHERE tenant_id = $1`, [tenant.id]))!.n,
    1,
    "the live link is reused",
  );
  assert.equal(
    (await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM record_history WHERE tenant_id = $1 AND record_id = $2 AND action = 'sent'`,
      [tenant.id, inv.id],
    ))!.n,
    1,
    "sent once",
  );
  // The invoice e-mail went to the outbox with each Send (decision 140), to the customer's address.
  const mails = await rows<{ to_address: string; subject: string }>(
    `SELECT to_address, subject FROM messages WHERE tenant_id = $1 AND record_id = $2`,
    [tenant.id, inv.id],
  );
  assert.ok(
    mails.length >= 1 && mails.every((m) => m.to_address === "sam@example.test" && /^Invoice /.test(m.subject)),
    JSON.stringify(mails),
  );

  const voided = await createInvoice(tenant.id, { customerId: customer.id, status: "void" });
  const before = await snapshot(tenant.id, voided.id);
  assert.equal((await office.post(`/invoices/${voided.id}/send`, {})).status, 409);
  assert.deepEqual(await snapshot(tenant.id, voided.id), before);
});

test("create invoice from a job: the quote's chosen items plus time as labour at the technician's rate, once, also twice at once", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  await one(`UPDATE tenants SET default_tax_rate = 5 WHERE id = $1 RETURNING id`, [tenant.id]);
  await one(`UPDATE users SET hourly_rate_cents = 8000 WHERE tenant_id = $1 AND id = $2 RETURNING id`, [
    tenant.id,
    tenant.users.technician.id,
  ]);
  const customer = await createCustomer(tenant.id, { name: "Jo Job" });
  const quote = await createQuote(tenant.id, {
    customerId: customer.id,
    status: "approved",
    items: [
      { description: "Call-out", unitPriceCents: 9_000 },
      { description: "Good heater", unitPriceCents: 100_000, taxRate: "8.25" },
      { description: "Better heater", unitPriceCents: 150_000, taxRate: "8.25" },
      { description: "Haul away", unitPriceCents: 7_500 },
      { description: "Water softener", unitPriceCents: 50_000 },
    ],
  });
  // The customer chose Better and the haul-away, not the softener.
  await rows(
    `UPDATE quote_items SET option_name = CASE WHEN position = 2 THEN 'Good' WHEN position = 3 THEN 'Better' END,
            optional = position IN (4, 5), selected = position IN (1, 3, 4)
      WHERE tenant_id = $1 AND quote_id = $2`,
    [tenant.id, quote.id],
  );
  const converted = await office.post(`/quotes/${quote.id}/convert`, {});
  const jobId = idFrom(converted, "/jobs");
  await rows(
    `UPDATE jobs SET status = 'completed', completed_at = now(), assignee_id = $3 WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, jobId, tenant.users.technician.id],
  );
  await rows(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note) VALUES
       ($1, $2, $3, '2026-06-16T16:00:00Z', '2026-06-16T17:30:00Z', 'Swap heater'),
       ($1, $2, $4, '2026-06-16T18:00:00Z', '2026-06-16T18:20:00Z', NULL)`,
    [tenant.id, jobId, tenant.users.technician.id, tenant.users.admin.id],
  );
  const jobPage = await (await office.get(`/jobs/${jobId}`)).text();
  assert.match(jobPage, new RegExp(`action="/jobs/${jobId}/invoice"`), "a completed job offers Create invoice");

  const clients = [office, await clientFor(tenant.users.admin)];
  await Promise.all(clients.map((c) => c.csrf()));
  const [a, b] = await Promise.all(clients.map((c) => c.post(`/jobs/${jobId}/invoice`, {})));
  assert.equal(a.status, 303);
  assert.equal(b.status, 303);
  assert.equal(a.headers.get("location"), b.headers.get("location"), "two at once land on one invoice");
  const again = await office.post(`/jobs/${jobId}/invoice`, {});
  assert.equal(again.headers.get("location"), a.headers.get("location"), "a second call lands on the same invoice");
  const invoices = await rows<{
    id: string;
    number: string;
    job_id: string;
    quote_id: string;
    status: string;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
  }>(
    `SELECT id, number, job_id, quote_id, status, subtotal_cents, tax_cents, total_cents FROM invoices WHERE tenant_id = $1`,
    [tenant.id],
  );
  assert.equal(invoices.length, 1);
  const inv = invoices[0];
  assert.equal(a.headers.get("location"), `/invoices/${inv.id}`);
  assert.deepEqual([inv.number, inv.job_id, inv.quote_id, inv.status], ["INV-0001", jobId, quote.id, "draft"]);
  const items = await rows<{
    description: string;
    quantity: string;
    unit_price_cents: number;
    tax_rate: string;
    line_total_cents: number;
    tax_cents: number;
  }>(
    `SELECT description, trim_scale(quantity)::text AS quantity, unit_price_cents, trim_scale(tax_rate)::text AS tax_rate, line_total_cents, tax_cents
       FROM invoice_items WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY position`,
    [tenant.id, inv.id],
  );
  assert.deepEqual(
    items.map((i) => [
      i.description.replace(/:.*/, ""),
      i.quantity,
      i.unit_price_cents,
      i.tax_rate,
      i.line_total_cents,
      i.tax_cents,
    ]),
    [
      ["Call-out", "1", 9_000, "0", 9_000, 0],
      ["Better heater", "1", 150_000, "8.25", 150_000, 12_375],
      ["Haul away", "1", 7_500, "0", 7_500, 0],
      ["Labour", "1.5", 8_000, "5", 12_000, 600], // 90 minutes at $80.00/h, the tenant's tax rate
      ["Labour", "0.333", 0, "5", 0, 0], // a member without a rate: priced at 0 for the office to fill in
    ],
  );
  assert.match(
    items[3].description,
    new RegExp(`Labour: ${tenant.users.technician.name}, Jun 16, 2026 \\(1 h 30 min\\) · Swap heater`),
  );
  assert.deepEqual([inv.subtotal_cents, inv.tax_cents, inv.total_cents], [178_500, 12_975, 191_475]);

  // Linked both ways, history on both records.
  const after = await (await office.get(`/jobs/${jobId}`)).text();
  assert.match(after, new RegExp(`href="/invoices/${inv.id}"`));
  assert.ok(!after.includes(`action="/jobs/${jobId}/invoice"`), "no second Create invoice");
  assert.match(textOf(after), /Invoice INV-0001 created by/);
  const invPage = textOf(await (await office.get(`/invoices/${inv.id}`)).text());
  assert.match(invPage, /From job/);
  assert.match(invPage, /Created from job/);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM record_history WHERE tenant_id = $1 AND record_id = $2`, [
      tenant.id,
      inv.id,
    ]))!.n,
    1,
  );

  // A job without a quote or time: one line named after the job, for the office to price.
  const bare = await createJob(tenant.id, { customerId: customer.id, title: "Quick look", status: "completed" });
  const made = await office.post(`/jobs/${bare.id}/invoice`, {});
  assert.equal(made.status, 303);
  const bareItems = await rows<{ description: string }>(
    `SELECT x.description FROM invoice_items x JOIN invoices i ON i.tenant_id = x.tenant_id AND i.id = x.invoice_id WHERE i.tenant_id = $1 AND i.job_id = $2`,
    [tenant.id, bare.id],
  );
  assert.deepEqual(
    bareItems.map((i) => i.description),
    ["Quick look"],
  );
  // A cancelled job: 409, nothing made.
  const cancelled = await createJob(tenant.id, { customerId: customer.id, status: "cancelled" });
  const count = await tenantCounts(tenant.id, ["invoices"]);
  assert.equal((await office.post(`/jobs/${cancelled.id}/invoice`, {})).status, 409);
  assert.deepEqual(await tenantCounts(tenant.id, ["invoices"]), count);
});

test("a technician is refused every new invoice route (403)", async () => {
  const tenant = await createTenantWithUsers();
  const tech: Client = await clientFor(tenant.users.technician);
  const customer = await createCustomer(tenant.id);
  const inv = await createInvoice(tenant.id, { customerId: customer.id, status: "draft" });
  const job = await createJob(tenant.id, {
    customerId: customer.id,
    assigneeId: tenant.users.technician.id,
    status: "completed",
  });
  const before = await tenantCounts(tenant.id, ["invoices", "invoice_items", "record_history"]);
  for (const [method, path] of [
    ["GET", "/invoices/new"],
    ["GET", `/invoices/new?customerId=${customer.id}`],
    ["POST", `/invoices/new?customerId=${customer.id}`],
    ["GET", `/invoices/${inv.id}/edit`],
    ["POST", `/invoices/${inv.id}/edit`],
    ["GET", `/invoices/${inv.id}/send`],
    ["POST", `/invoices/${inv.id}/send`],
    ["POST", `/jobs/${job.id}/invoice`],
  ]) {
    const res =
      method === "GET"
        ? await tech.get(path)
        : await tech.post(path, invoiceBody(customer.id, [{ description: "X", unitPrice: "1" }]));
    assert.equal(res.status, 403, `${method} ${path}`);
  }
  assert.deepEqual(await tenantCounts(tenant.id, ["invoices", "invoice_items", "record_history"]), before);
  assert.ok(
    !(await (await tech.get(`/jobs/${job.id}`)).text()).includes(`/jobs/${job.id}/invoice`),
    "no Create invoice for a technician",
  );
});

test("a deposit paid with the quote's approval lands on the job's invoice once; sent, the invoice is part paid; its total cannot drop below it", async () => {
  const tenant = await createTenantWithUsers();
  const office = await clientFor(tenant.users.office);
  const customer = await createCustomer(tenant.id, { name: "Dee Deposit" });
  const quote = await createQuote(tenant.id, {
    customerId: customer.id,
    status: "approved",
    items: [{ description: "Boiler swap", unitPriceCents: 200_000 }],
  });
  await one(
    `INSERT INTO quote_deposits (tenant_id, quote_id, amount_cents, currency, reference) VALUES ($1, $2, 50000, 'USD', 'SBX-DEP1') RETURNING id`,
    [tenant.id, quote.id],
  );
  const jobId = idFrom(await office.post(`/quotes/${quote.id}/convert`, {}), "/jobs");
  await rows(`UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    jobId,
  ]);
  const clients = [office, await clientFor(tenant.users.admin)];
  await Promise.all(clients.map((c) => c.csrf()));
  const [a, b] = await Promise.all(clients.map((c) => c.post(`/jobs/${jobId}/invoice`, {})));
  assert.equal(a.headers.get("location"), b.headers.get("location"));
  const invoiceId = idFrom(a, "/invoices");
  const payments = await rows<{ amount_cents: number; reference: string }>(
    `SELECT amount_cents, reference FROM payments WHERE tenant_id = $1 AND invoice_id = $2`,
    [tenant.id, invoiceId],
  );
  assert.deepEqual(payments, [{ amount_cents: 50_000, reference: "SBX-DEP1" }], "the deposit, once");
  const row = async () =>
    one<{ status: string; amount_paid_cents: number; total_cents: number }>(
      `SELECT status, amount_paid_cents, total_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, invoiceId],
    );
  assert.deepEqual(await row(), { status: "draft", amount_paid_cents: 50_000, total_cents: 200_000 });

  // Still a draft: editable, but not below what is paid (422 beside the lines, nothing changed).
  assert.equal((await office.get(`/invoices/${invoiceId}/edit`)).status, 200);
  const before = await snapshot(tenant.id, invoiceId);
  const tooLow = await office.post(
    `/invoices/${invoiceId}/edit`,
    invoiceBody(customer.id, [{ description: "Boiler swap", unitPrice: "100" }]),
  );
  assert.equal(tooLow.status, 422);
  assert.match(await tooLow.text(), /id="field-items-error"[\s\S]*cannot be less than the \$500\.00 already paid/);
  assert.deepEqual(await snapshot(tenant.id, invoiceId), before);

  assert.equal((await office.post(`/invoices/${invoiceId}/send`, {})).status, 303);
  assert.equal((await row())!.status, "partial", "sent with the deposit on it: part paid");
});

test("ten invoices created at once get ten distinct consecutive numbers; an item picked from the price book without JavaScript", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id);
  const clients = await Promise.all(Array.from({ length: 10 }, () => clientFor(tenant.users.office)));
  await Promise.all(clients.map((c) => c.csrf()));
  const results = await Promise.all(
    clients.map((c, i) =>
      c.post(
        `/invoices/new?customerId=${customer.id}`,
        invoiceBody(customer.id, [{ description: `Visit ${i}`, unitPrice: "10" }]),
      ),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    Array(10).fill(303),
  );
  const numbers = (
    await rows<{ number: string }>(`SELECT number FROM invoices WHERE tenant_id = $1 ORDER BY number`, [tenant.id])
  ).map((r) => r.number);
  assert.deepEqual(
    numbers,
    Array.from({ length: 10 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`),
  );

  const item = await one<{ id: string }>(
    `INSERT INTO price_book_items (tenant_id, name, unit_price_cents, tax_rate) VALUES ($1, 'Drain cleaning', 18900, 8.25) RETURNING id`,
    [tenant.id],
  );
  const picked = await clients[0].post(`/invoices/new?customerId=${customer.id}`, {
    ...invoiceBody(customer.id, [{ description: "Typed first", unitPrice: "5" }]),
    priceBookItem: item!.id,
    pickFromPriceBook: "1",
  });
  assert.equal(picked.status, 200);
  const html = await picked.text();
  assert.equal(valueOf(html, "items[0].description"), "Typed first");
  assert.equal(valueOf(html, "items[1].description"), "Drain cleaning");
  assert.equal(valueOf(html, "items[1].unitPrice"), "189.00");
  assert.equal(valueOf(html, "items[1].taxRate"), "8.25");
  assert.equal((await tenantCounts(tenant.id, ["invoices"])).invoices, 10, "nothing saved by the pick");
});
