import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { BASE_URL, clientFor } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  twoTenants,
} from "../helpers/fixtures";
import { inputValue, textOf } from "../helpers/html";

// Detail pages: related records, line items, totals, approval, payments, field activity;
// tenant isolation on every id; technicians kept to their own jobs; portal links.

async function recordsOf(tenantId: string, technicianId: string) {
  const customer = await createCustomer(tenantId, {
    name: "Iris Detail",
    email: `iris-${tenantId.slice(0, 8)}@example.test`,
  });
  const job = await createJob(tenantId, {
    customerId: customer.id,
    title: "Replace thermostat",
    assigneeId: technicianId,
  });
  const quote = await createQuote(tenantId, { customerId: customer.id });
  const invoice = await createInvoice(tenantId, { customerId: customer.id });
  const link = await one<{ id: string }>(
    `INSERT INTO portal_links (tenant_id, customer_id, expires_at) VALUES ($1, $2, now() + interval '30 days') RETURNING id`,
    [tenantId, customer.id],
  );
  const member = await one<{ id: string }>(`SELECT id FROM users WHERE tenant_id = $1 AND role = 'office'`, [tenantId]);
  return { customer, job, quote, invoice, link: link!, member: member! };
}

test("another tenant's id on every detail page and record action is a 404 page, and nothing changes", async () => {
  const { a, b } = await twoTenants();
  const theirs = await recordsOf(b.id, b.users.technician.id);
  const mine = await recordsOf(a.id, a.users.technician.id);
  const owner = await clientFor(a.users.owner);
  const pages = [
    `/customers/${theirs.customer.id}`,
    `/jobs/${theirs.job.id}`,
    `/quotes/${theirs.quote.id}`,
    `/invoices/${theirs.invoice.id}`,
    `/customers/${theirs.customer.id}/portal-links`,
    `/team/${theirs.member.id}/invite`,
    // Not an id at all behaves the same.
    `/customers/not-a-uuid`,
    `/jobs/00000000-0000-0000-0000-000000000000`,
  ];
  for (const path of pages) {
    const res = await owner.get(path);
    assert.equal(res.status, 404, path);
    const text = textOf(await res.text());
    assert.match(text, /404/, path);
    assert.doesNotMatch(text, /Iris Detail|Replace thermostat/, `${path} reveals nothing`);
  }
  // Own records open.
  for (const path of [
    `/customers/${mine.customer.id}`,
    `/jobs/${mine.job.id}`,
    `/quotes/${mine.quote.id}`,
    `/invoices/${mine.invoice.id}`,
  ]) {
    assert.equal((await owner.get(path)).status, 200, path);
  }
  // Actions on another tenant's ids: 404 and no change.
  const links = async () =>
    (await rows(`SELECT 1 FROM portal_links WHERE tenant_id = $1 AND revoked_at IS NULL`, [b.id])).length;
  const before = await links();
  assert.equal((await owner.post(`/customers/${theirs.customer.id}/portal-links`, { days: 5 })).status, 404);
  assert.equal((await owner.post(`/portal-links/${theirs.link.id}/revoke`, {})).status, 404);
  assert.equal((await owner.post(`/team/${theirs.member.id}/invite`, {})).status, 404);
  assert.equal(
    (await owner.post("/team", { intent: "role", userId: theirs.member.id, role: "technician" })).status,
    404,
  );
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service) VALUES ($1, $2, 'Theirs') RETURNING id`,
    [b.id, theirs.customer.id],
  );
  assert.equal((await owner.post("/requests", { requestId: request!.id, status: "declined" })).status, 404);
  assert.equal(await links(), before);
  assert.equal(
    (
      await one<{ status: string }>(`SELECT status FROM booking_requests WHERE tenant_id = $1 AND id = $2`, [
        b.id,
        request!.id,
      ])
    )?.status,
    "new",
  );
  assert.equal(
    (await one<{ role: string }>(`SELECT role FROM users WHERE tenant_id = $1 AND id = $2`, [b.id, theirs.member.id]))
      ?.role,
    "office",
  );
  assert.equal((await rows(`SELECT 1 FROM invites WHERE tenant_id = $1`, [b.id])).length, 0);
});

test("technicians get the 403 page on customers, quotes, invoices and requests; office and above see them", async () => {
  const t = await createTenantWithUsers();
  const r = await recordsOf(t.id, t.users.technician.id);
  const tech = await clientFor(t.users.technician);
  for (const path of [
    "/customers",
    `/customers/${r.customer.id}`,
    "/quotes",
    `/quotes/${r.quote.id}`,
    "/invoices",
    `/invoices/${r.invoice.id}`,
    "/requests",
    "/team",
  ]) {
    const res = await tech.get(path);
    assert.equal(res.status, 403, path);
    assert.match(textOf(await res.text()), /403/);
  }
  assert.equal((await tech.get(`/jobs/${r.job.id}`)).status, 200, "their own job opens");
  for (const role of ["office", "admin", "owner"] as const) {
    const c = await clientFor(t.users[role]);
    for (const path of [
      "/customers",
      `/customers/${r.customer.id}`,
      "/quotes",
      `/quotes/${r.quote.id}`,
      "/invoices",
      `/invoices/${r.invoice.id}`,
      "/requests",
      `/jobs/${r.job.id}`,
    ]) {
      assert.equal((await c.get(path)).status, 200, `${role} ${path}`);
    }
  }
});

test("customer page: contact, their jobs, quotes, invoices, booking requests and what they owe", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Jade Related", company: "Jade Co", phone: "555-4242" });
  await createJob(t.id, { customerId: cust.id, title: "Install heat pump", assigneeId: t.users.technician.id });
  await createQuote(t.id, {
    customerId: cust.id,
    number: "Q-J1",
    currency: "EUR",
    items: [{ description: "Heat pump", unitPriceCents: 500_000 }],
  });
  await createInvoice(t.id, {
    customerId: cust.id,
    number: "INV-J1",
    items: [{ description: "Deposit", unitPriceCents: 25_000 }],
    amountPaidCents: 5_000,
  });
  await rows(`INSERT INTO booking_requests (tenant_id, customer_id, service) VALUES ($1, $2, 'Annual check')`, [
    t.id,
    cust.id,
  ]);
  const other = await createCustomer(t.id, { name: "Not Jade" });
  await createJob(t.id, { customerId: other.id, title: "Someone else's job" });
  const html = await (await (await clientFor(t.users.office)).get(`/customers/${cust.id}`)).text();
  const text = textOf(html);
  for (const s of [
    "Jade Related",
    "Jade Co",
    "555-4242",
    "Install heat pump",
    "Q-J1",
    "€5,000.00",
    "INV-J1",
    "Annual check",
    "$200.00",
  ]) {
    assert.ok(text.includes(s), `shows ${s}`);
  }
  assert.doesNotMatch(text, /Someone else's job/);
});

test("job page: notes, time entries and status changes from the field, in the tenant's time zone", async () => {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = 'America/New_York' WHERE id = $1`, [t.id]);
  const cust = await createCustomer(t.id, { name: "Kim Field" });
  const job = await createJob(t.id, {
    customerId: cust.id,
    title: "Repair boiler",
    assigneeId: t.users.technician.id,
    scheduledStart: new Date("2026-06-16T13:30:00Z"),
  });
  const tech = t.users.technician.id;
  await rows(
    `INSERT INTO job_notes (tenant_id, job_id, author_id, body, occurred_at) VALUES ($1, $2, $3, 'Replaced the pressure valve', '2026-06-16T14:05:00Z')`,
    [t.id, job.id, tech],
  );
  await rows(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note) VALUES ($1, $2, $3, '2026-06-16T13:30:00Z', '2026-06-16T15:15:00Z', 'On site')`,
    [t.id, job.id, tech],
  );
  await rows(
    `INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status, occurred_at) VALUES ($1, $2, $3, 'scheduled', 'en_route', '2026-06-16T13:00:00Z')`,
    [t.id, job.id, tech],
  );
  const text = textOf(await (await (await clientFor(t.users.office)).get(`/jobs/${job.id}`)).text());
  assert.ok(text.includes("Replaced the pressure valve"));
  assert.ok(text.includes("On site"));
  assert.ok(text.includes("1 h 45 min"), "time entry duration");
  assert.match(text, /changed from Scheduled to En route/);
  assert.ok(text.includes("Jun 16, 2026, 9:30 AM"), "scheduled start in New York time");
  assert.ok(text.includes(t.users.technician.name));
});

test("quote page: line items and totals with currency, approval name, time and IP; or the decline reason", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Lea Quote" });
  const q = await createQuote(t.id, {
    customerId: cust.id,
    number: "Q-L1",
    currency: "GBP",
    items: [
      { description: "Radiator", quantity: "2", unitPriceCents: 15_000, taxRate: "20" },
      { description: "Labour", quantity: "1.5", unitPriceCents: 6_000 },
    ],
  });
  await rows(
    `UPDATE quotes SET status = 'approved', approved_name = 'Lea Q. Signer', approved_at = '2026-06-16T10:00:00Z', approved_ip = '203.0.113.7' WHERE tenant_id = $1 AND id = $2`,
    [t.id, q.id],
  );
  const c = await clientFor(t.users.office);
  const text = textOf(await (await c.get(`/quotes/${q.id}`)).text());
  for (const s of [
    "Radiator",
    "£150.00",
    "£300.00",
    "20%",
    "Labour",
    "1.5",
    "£90.00",
    "Subtotal £390.00",
    "Tax 20% £60.00",
    "Total (GBP) £450.00",
    "Lea Q. Signer",
    "203.0.113.7",
    "Jun 16, 2026, 10:00 AM",
    "Approved",
  ]) {
    assert.ok(text.includes(s), `shows ${s}`);
  }
  const declined = await createQuote(t.id, { customerId: cust.id, number: "Q-L2", status: "declined" });
  await rows(
    `UPDATE quotes SET declined_at = now(), decline_reason = 'Found a cheaper offer' WHERE tenant_id = $1 AND id = $2`,
    [t.id, declined.id],
  );
  assert.match(textOf(await (await c.get(`/quotes/${declined.id}`)).text()), /Reason: “Found a cheaper offer”/);
  const expired = await createQuote(t.id, {
    customerId: cust.id,
    number: "Q-L3",
    status: "sent",
    validUntil: "2021-05-01",
  });
  assert.match(textOf(await (await c.get(`/quotes/${expired.id}`)).text()), /Expired on May 1, 2021/);
});

test("invoice page: payment history, balance, and overdue when past the due date", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Max Invoice" });
  const inv = await createInvoice(t.id, {
    customerId: cust.id,
    number: "INV-M1",
    status: "partial",
    dueDate: "2022-02-01",
    items: [{ description: "Service call", unitPriceCents: 40_000 }],
    amountPaidCents: 15_000,
  });
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at) VALUES ($1, $2, 10000, 'USD', 'sandbox', 'SBX-123', '2026-06-01T12:00:00Z'), ($1, $2, 5000, 'USD', 'cash', 'Receipt 9', '2026-06-02T12:00:00Z')`,
    [t.id, inv.id],
  );
  const text = textOf(await (await (await clientFor(t.users.office)).get(`/invoices/${inv.id}`)).text());
  for (const s of [
    "Service call",
    "$400.00",
    "SBX-123",
    "$100.00",
    "Receipt 9",
    "$50.00",
    "Balance due $250.00",
    "Overdue",
    "Feb 1, 2022",
  ]) {
    assert.ok(text.includes(s), `shows ${s}`);
  }
  const paid = await createInvoice(t.id, {
    customerId: cust.id,
    number: "INV-M2",
    status: "void",
    dueDate: "2022-02-01",
  });
  assert.doesNotMatch(
    textOf(await (await (await clientFor(t.users.office)).get(`/invoices/${paid.id}`)).text()),
    /Overdue/,
  );
});

test("portal links: created from the customer page with its full URL and expiry, revoked from it", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Nia Portal" });
  const c = await clientFor(t.users.office);
  const res = await c.post(`/customers/${cust.id}/portal-links`, { days: 7 });
  assert.equal(res.status, 303);
  const link = await one<{ id: string; days: number; created_by: string }>(
    `SELECT id, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days, created_by FROM portal_links WHERE tenant_id = $1 AND customer_id = $2`,
    [t.id, cust.id],
  );
  assert.equal(link?.days, 7);
  assert.equal(link?.created_by, t.users.office.id);
  assert.equal(res.headers.get("location"), `/customers/${cust.id}?link=${link!.id}#portal-links`);
  const html = await (await c.get(`/customers/${cust.id}?link=${link!.id}`)).text();
  const url = inputValue(html, /aria-label="New portal link URL"/);
  assert.ok(url?.startsWith(`${BASE_URL}/portal/`), `the full URL is shown: ${url}`);
  assert.match(textOf(html), /New portal link \(expires/);

  // The default is 30 days; 0 and 91 are refused beside the field, and nothing is stored.
  assert.equal((await c.post(`/customers/${cust.id}/portal-links`, { days: "" })).status, 303);
  const days = await rows<{ d: number }>(
    `SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS d FROM portal_links WHERE tenant_id = $1 ORDER BY created_at`,
    [t.id],
  );
  assert.deepEqual(
    days.map((r) => r.d),
    [7, 30],
  );
  for (const bad of ["0", "91", "abc"]) {
    const r = await c.post(`/customers/${cust.id}/portal-links`, { days: bad });
    assert.equal(r.status, 422, `days=${bad}`);
    assert.match(textOf(await r.text()), /at least 1 day|at most 90 days|number of days/);
  }
  assert.equal((await rows(`SELECT 1 FROM portal_links WHERE tenant_id = $1`, [t.id])).length, 2);

  // Revoke: the row is revoked and the page shows it.
  const revoke = await c.post(`/portal-links/${link!.id}/revoke`, { returnTo: `/customers/${cust.id}` });
  assert.equal(revoke.status, 303);
  assert.equal(revoke.headers.get("location"), `/customers/${cust.id}#portal-links`);
  const row = await one<{ revoked_at: Date | null; revoked_by: string }>(
    `SELECT revoked_at, revoked_by FROM portal_links WHERE tenant_id = $1 AND id = $2`,
    [t.id, link!.id],
  );
  assert.ok(row?.revoked_at);
  assert.equal(row?.revoked_by, t.users.office.id);
  const after = textOf(await (await c.get(`/customers/${cust.id}`)).text());
  assert.match(after, /Portal link revoked/);
  assert.match(after, /Revoked/);
  // A technician cannot create or revoke; no CSRF token: 403; nothing changes.
  const tech = await clientFor(t.users.technician);
  assert.equal((await tech.post(`/customers/${cust.id}/portal-links`, { days: 5 })).status, 403);
  assert.equal((await c.post(`/customers/${cust.id}/portal-links`, { days: 5 }, { csrf: false })).status, 403);
  assert.equal((await rows(`SELECT 1 FROM portal_links WHERE tenant_id = $1`, [t.id])).length, 2);
});

test("portal links: the quote and invoice pages offer the same form and come back to themselves", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Olu Docs" });
  const q = await createQuote(t.id, { customerId: cust.id });
  const inv = await createInvoice(t.id, { customerId: cust.id });
  const c = await clientFor(t.users.admin);
  for (const path of [`/quotes/${q.id}`, `/invoices/${inv.id}`]) {
    const html = await (await c.get(path)).text();
    assert.match(html, new RegExp(`action="/customers/${cust.id}/portal-links"`), `${path} has the form`);
    const res = await c.post(`/customers/${cust.id}/portal-links`, { days: 14, returnTo: path });
    assert.equal(res.status, 303);
    const location = res.headers.get("location")!;
    assert.ok(location.startsWith(`${path}?link=`), location);
    const page = await (await c.get(location.replace(/#.*/, ""))).text();
    assert.ok(inputValue(page, /aria-label="New portal link URL"/)?.startsWith(`${BASE_URL}/portal/`));
  }
  // returnTo cannot send the browser elsewhere.
  const evil = await c.post(`/customers/${cust.id}/portal-links`, { days: 1, returnTo: "https://evil.example/" });
  assert.ok(evil.headers.get("location")!.startsWith(`/customers/${cust.id}?link=`));
});
