import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createTenantWithUsers } from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";

// CONTRACT section 12: payments recorded by the office, exactly once per key and never above
// the balance; void for an invoice without payments.

const key = () => randomBytes(16).toString("base64url");
const today = () => new Date().toISOString().slice(0, 10);

async function setup(o: { status?: string; amountPaidCents?: number } = {}) {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Bea Payer" });
  const invoice = await createInvoice(tenant.id, {
    customerId: customer.id,
    status: o.status ?? "sent",
    amountPaidCents: o.amountPaidCents,
    items: [{ description: "Drain clearing", unitPriceCents: 100_000 }],
  });
  return { tenant, customer, invoice, office: await clientFor(tenant.users.office) };
}

const invoiceRow = (tenantId: string, id: string) =>
  one<{ status: string; amount_paid_cents: string; total_cents: string; paid_at: Date | null; voided_at: Date | null }>(
    `SELECT status, amount_paid_cents, total_cents, paid_at, voided_at FROM invoices WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );
const paymentsOf = (tenantId: string, id: string) =>
  rows<{ amount_cents: number; method: string; reference: string; received_on: string; recorded_by: string }>(
    `SELECT amount_cents, method, reference, received_on::text, recorded_by FROM payments WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY recorded_at`,
    [tenantId, id],
  );

test("twenty concurrent office payments never take the balance below zero", async () => {
  const { tenant, invoice, office } = await setup();
  const csrf = await office.csrf();
  // $1,000.00 due; twenty posts of $150.00 at once: six fit, the rest are refused.
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      office.post(`/invoices/${invoice.id}/payments`, {
        _csrf: csrf,
        amount: "150.00",
        method: "cash",
        receivedOn: today(),
        idempotencyKey: key(),
      }),
    ),
  );
  const statuses = answers.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 303).length, 6, `answers: ${statuses.join(",")}`);
  assert.ok(
    statuses.every((s) => s === 303 || s === 422 || s === 409),
    `answers: ${statuses.join(",")}`,
  );
  const row = await invoiceRow(tenant.id, invoice.id);
  assert.equal(Number(row!.amount_paid_cents), 90_000);
  assert.equal(row!.status, "partial");
  const payments = await paymentsOf(tenant.id, invoice.id);
  assert.equal(
    payments.reduce((s, p) => s + Number(p.amount_cents), 0),
    90_000,
    "the payments add up to what the invoice says",
  );

  // The rest, by check: paid in full; one cent more is refused beside the amount.
  const rest = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "100.00",
    method: "check",
    reference: "Check 1042",
    receivedOn: today(),
    idempotencyKey: key(),
  });
  assert.equal(rest.status, 303);
  const paid = await invoiceRow(tenant.id, invoice.id);
  assert.equal(paid!.status, "paid");
  assert.ok(paid!.paid_at);
  const more = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "0.01",
    method: "cash",
    receivedOn: today(),
    idempotencyKey: key(),
  });
  assert.equal(more.status, 409);
  assert.match(textOf(await more.text()), /already paid in full/);
});

test("the same idempotency key twice records one payment, also when both arrive at once", async () => {
  const { tenant, invoice, office } = await setup();
  const form = { amount: "250.00", method: "check", reference: "Check 77", receivedOn: today(), idempotencyKey: key() };
  const first = await office.post(`/invoices/${invoice.id}/payments`, form);
  const second = await office.post(`/invoices/${invoice.id}/payments`, form);
  assert.equal(first.status, 303);
  assert.equal(second.status, 303, "the repeat answers like the first");
  const csrf = await office.csrf();
  const same = { ...form, _csrf: csrf, idempotencyKey: key() };
  const together = await Promise.all([1, 2, 3].map(() => office.post(`/invoices/${invoice.id}/payments`, same)));
  assert.deepEqual(
    together.map((r) => r.status),
    [303, 303, 303],
  );
  const payments = await paymentsOf(tenant.id, invoice.id);
  assert.equal(payments.length, 2);
  assert.deepEqual(payments[0], {
    amount_cents: 25000,
    method: "check",
    reference: "Check 77",
    received_on: today(),
    recorded_by: tenant.users.office.id,
  });
  assert.equal(Number((await invoiceRow(tenant.id, invoice.id))!.amount_paid_cents), 50_000);
  const page = textOf(await (await office.get(`/invoices/${invoice.id}`)).text());
  assert.match(page, /Check 77/);
  assert.match(page, /Balance due \$500\.00/);
  assert.match(
    page,
    new RegExp(`Payment of \\$250\\.00 by check recorded by ${tenant.users.office.name}`),
    "the invoice's history tells of it",
  );
});

test("bad payment fields answer 422 beside each field with the typed values kept, and record nothing", async () => {
  const { tenant, invoice, office } = await setup();
  const res = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "12,5x",
    method: "barter",
    reference: "Goat",
    receivedOn: "2026-02-30",
    idempotencyKey: key(),
  });
  assert.equal(res.status, 422);
  const html = await res.text();
  const beside = (field: string) =>
    textOf(html.match(new RegExp(`<ul id="payment-form-${field}-error"[^>]*>([\\s\\S]*?)</ul>`))?.[1] ?? "");
  assert.match(beside("amount"), /amount in numbers/);
  assert.match(beside("method"), /Choose how the customer paid/);
  assert.match(beside("receivedOn"), /Enter a date/);
  assert.equal(decode(html.match(/name="amount"[^>]*value="([^"]*)"/)?.[1] ?? ""), "12,5x");
  assert.equal(decode(html.match(/name="reference"[^>]*value="([^"]*)"/)?.[1] ?? ""), "Goat");

  const tooMuch = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "1000.01",
    method: "cash",
    receivedOn: today(),
    idempotencyKey: key(),
  });
  assert.equal(tooMuch.status, 422);
  const tooMuchHtml = await tooMuch.text();
  assert.match(
    textOf(tooMuchHtml.match(/<ul id="payment-form-amount-error"[^>]*>([\s\S]*?)<\/ul>/)?.[1] ?? ""),
    /balance is \$1,000\.00/,
  );
  const future = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
  const later = await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "10",
    method: "cash",
    receivedOn: future,
    idempotencyKey: key(),
  });
  assert.equal(later.status, 422);
  assert.deepEqual(await paymentsOf(tenant.id, invoice.id), []);
});

test("voiding: a paid invoice is 409 and nothing changes; one without payments becomes void and shows no balance due", async () => {
  const { tenant, customer, invoice, office } = await setup();
  await office.post(`/invoices/${invoice.id}/payments`, {
    amount: "1000.00",
    method: "card",
    receivedOn: today(),
    idempotencyKey: key(),
  });
  const before = await invoiceRow(tenant.id, invoice.id);
  assert.equal(before!.status, "paid");
  const refused = await office.post(`/invoices/${invoice.id}/void`, {});
  assert.equal(refused.status, 409);
  assert.match(textOf(await refused.text()), /has payments recorded, so it cannot be voided/);
  assert.deepEqual(await invoiceRow(tenant.id, invoice.id), before, "nothing changed");

  const part = await createInvoice(tenant.id, { customerId: customer.id, status: "partial", amountPaidCents: 100 });
  assert.equal((await office.post(`/invoices/${part.id}/void`, {})).status, 409, "part paid: 409 too");

  const unpaid = await createInvoice(tenant.id, { customerId: customer.id, status: "sent" });
  const voided = await office.post(`/invoices/${unpaid.id}/void`, {});
  assert.equal(voided.status, 303);
  const row = await invoiceRow(tenant.id, unpaid.id);
  assert.equal(row!.status, "void");
  assert.ok(row!.voided_at);
  assert.equal((await office.post(`/invoices/${unpaid.id}/void`, {})).status, 303, "voiding twice changes nothing");
  const page = textOf(await (await office.get(`/invoices/${unpaid.id}`)).text());
  assert.match(page, /Balance due None: void/);
  assert.match(page, new RegExp(`Voided by ${tenant.users.office.name}`));
  assert.doesNotMatch(page, /Record a payment/);
  const customerPage = await (await office.get(`/customers/${customer.id}`)).text();
  assert.match(
    textOf(customerPage),
    new RegExp(`${unpaid.number} Due [^$]*Void \\$0\\.00`),
    "the customer's invoice list shows nothing due on it",
  );
  const pay = await office.post(`/invoices/${unpaid.id}/payments`, {
    amount: "1.00",
    method: "cash",
    receivedOn: today(),
    idempotencyKey: key(),
  });
  assert.equal(pay.status, 409);
  assert.equal((await paymentsOf(tenant.id, unpaid.id)).length, 0);
});

test("a technician is refused (403) recording payments and voiding", async () => {
  const { tenant, invoice } = await setup();
  const tech = await clientFor(tenant.users.technician);
  assert.equal((await tech.get(`/invoices/${invoice.id}/payments`)).status, 403);
  assert.equal(
    (
      await tech.post(`/invoices/${invoice.id}/payments`, {
        amount: "1.00",
        method: "cash",
        receivedOn: today(),
        idempotencyKey: key(),
      })
    ).status,
    403,
  );
  assert.equal((await tech.post(`/invoices/${invoice.id}/void`, {})).status, 403);
  assert.equal((await invoiceRow(tenant.id, invoice.id))!.status, "sent");
  assert.equal((await paymentsOf(tenant.id, invoice.id)).length, 0);
});
