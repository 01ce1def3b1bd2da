import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createTenantWithUsers } from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";
import { portalRequest, portalSetup } from "../helpers/portal";

// The records a piece of work passes through link to each other: booking request -> quote ->
// job -> invoice, each page naming where it came from; and money paid reads as a payment.

const idFrom = (res: Response, prefix: string) => {
  const m = new RegExp(`^${prefix}/([0-9a-f-]{36})$`).exec(
    new URL(res.headers.get("location") ?? "", "http://x").pathname,
  );
  assert.ok(m, `redirect to ${prefix}/<id>, got ${res.status} ${res.headers.get("location")}`);
  return m[1];
};

/** Every href of the page, decoded. */
const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => decode(m[1]));

test("a job links to the quote it came from and its booking request; its invoice links to the job and the quote", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Rita Request" });
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, time_window) VALUES ($1, $2, 'Furnace not heating', 'morning') RETURNING id`,
    [tenant.id, customer.id],
  );
  const office = await clientFor(tenant.users.office);
  const quoteId = idFrom(await office.post(`/requests/${request!.id}/convert`, { to: "quote" }), "/quotes");
  await rows(
    `INSERT INTO quote_items (tenant_id, quote_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
     VALUES ($1, $2, 1, 'Igniter', 1, 12000, 0, 12000, 0)`,
    [tenant.id, quoteId],
  );
  await rows(
    `UPDATE quotes SET status = 'approved', approved_at = now(), subtotal_cents = 12000, total_cents = 12000 WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, quoteId],
  );
  const quote = await one<{ number: string }>(`SELECT number FROM quotes WHERE id = $1`, [quoteId]);
  const jobId = idFrom(await office.post(`/quotes/${quoteId}/convert`, {}), "/jobs");

  const jobPage = await (await office.get(`/jobs/${jobId}`)).text();
  assert.ok(hrefs(jobPage).includes(`/quotes/${quoteId}`), "the job links to its quote");
  assert.match(textOf(jobPage), new RegExp(`From quote Quote ${quote!.number}`));
  const toRequest = hrefs(jobPage).find((h) => h.endsWith(`#request-${request!.id}`));
  assert.ok(toRequest, "the job links to its booking request");
  assert.match(textOf(jobPage), /Booking request Furnace not heating received/);
  // The link opens the requests list at that request's row.
  const list = await (await office.get(toRequest!.split("#")[0])).text();
  assert.match(list, new RegExp(`<tr id="request-${request!.id}"`));

  // A technician's view of the job names neither (they do not open quotes or requests).
  await rows(`UPDATE jobs SET assignee_id = $3 WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    jobId,
    tenant.users.technician.id,
  ]);
  const techPage = await (await (await clientFor(tenant.users.technician)).get(`/jobs/${jobId}`)).text();
  assert.ok(!hrefs(techPage).includes(`/quotes/${quoteId}`));

  await rows(`UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    jobId,
  ]);
  const invoiceId = idFrom(await office.post(`/jobs/${jobId}/invoice`, {}), "/invoices");
  const invoicePage = await (await office.get(`/invoices/${invoiceId}`)).text();
  assert.ok(hrefs(invoicePage).includes(`/jobs/${jobId}`), "the invoice links to its job");
  assert.ok(hrefs(invoicePage).includes(`/quotes/${quoteId}`), "the invoice links to its quote");
});

test("a job made straight from a booking request links to it", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Jo Direct" });
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, time_window) VALUES ($1, $2, 'Leaking tap', 'any') RETURNING id`,
    [tenant.id, customer.id],
  );
  const office = await clientFor(tenant.users.office);
  const jobId = idFrom(await office.post(`/requests/${request!.id}/convert`, { to: "job" }), "/jobs");
  const jobPage = await (await office.get(`/jobs/${jobId}`)).text();
  assert.ok(hrefs(jobPage).some((h) => h.endsWith(`#request-${request!.id}`)));
  assert.doesNotMatch(textOf(jobPage), /From quote/);
});

test("amounts paid read as payments, never as negative amounts, on the invoice page and in the portal", async () => {
  const s = await portalSetup({ customerName: "Pat Payer" });
  const invoice = await createInvoice(s.tenant.id, {
    customerId: s.customer.id,
    amountPaidCents: 235_405,
    items: [{ description: "Boiler service", unitPriceCents: 400_000 }],
  });
  const office = await clientFor(s.tenant.users.office);
  const page = textOf(await (await office.get(`/invoices/${invoice.id}`)).text());
  assert.match(page, /Payments received \$2,354\.05/);
  assert.doesNotMatch(page, /[-−]\s*\$2,354\.05/);

  const portal = textOf((await portalRequest("GET", s.url)).text);
  assert.match(portal, /Paid so far \$2,354\.05/);
  assert.doesNotMatch(portal, /[-−]\s*\$2,354\.05/);
});
