import assert from "node:assert/strict";
import { test } from "node:test";
import { one } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createTenantWithUsers, tenantCounts, type TestTenant } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { fieldError, portalRequest, portalSetup, randomLoopback } from "../helpers/portal";

// Service properties flow (docs/decisions/391): a quote and a booking request name one of the
// customer's properties, and it is carried quote -> job -> invoice and request -> quote / job.

async function propertyOf(tenantId: string, customerId: string, label: string, line1: string) {
  // The position is counted first: Citus takes no subquery in an INSERT's VALUES.
  const { n } = (await one<{ n: number }>(
    `SELECT count(*)::int + 1 AS n FROM customer_properties WHERE tenant_id = $1 AND customer_id = $2`,
    [tenantId, customerId],
  ))!;
  return (await one<{ id: string }>(
    `INSERT INTO customer_properties (tenant_id, customer_id, position, label, address_line1, city, region, postal_code)
     VALUES ($1, $2, $3, $4, $5, 'Austin', 'TX', '78704')
     RETURNING id`,
    [tenantId, customerId, n, label, line1],
  ))!.id;
}

const propertyId = async (table: string, tenantId: string, id: string) =>
  (await one<{ property_id: string | null }>(`SELECT property_id FROM ${table} WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
  ]))!.property_id;

/** The options of a select named `propertyId` (value -> text). */
function propertyOptions(html: string): Map<string, string> {
  const select = html.match(/<select[^>]*name="propertyId"[^>]*>([\s\S]*?)<\/select>/);
  assert.ok(select, "a property select");
  return new Map([...select[1].matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]));
}

const quoteBody = (customerId: string, extra: Record<string, string>) => ({
  customerId,
  title: "Gutter repair",
  currency: "USD",
  "items[0].description": "Gutter repair",
  "items[0].quantity": "1",
  "items[0].unitPrice": "240.00",
  ...extra,
});

async function setUp(tenant?: TestTenant) {
  const t = tenant ?? (await createTenantWithUsers());
  const maria = await createCustomer(t.id, { name: "Maria Okafor" });
  const home = await propertyOf(t.id, maria.id, "Home", "4410 Barton Springs Rd");
  const rental = await propertyOf(t.id, maria.id, "Rental", "915 Maple Ave");
  const james = await createCustomer(t.id, { name: "James Lindqvist" });
  const office = await propertyOf(t.id, james.id, "Office", "77 Cedar Ln");
  return { t, maria, home, rental, james, jamesOffice: office };
}

test("the quote builder offers the customer's properties (JavaScript off); another customer's is 422 beside the field; the choice is carried quote -> job -> invoice", async () => {
  const { t, maria, home, rental, jamesOffice } = await setUp();
  const office = await clientFor(t.users.office);

  const builder = await (await office.get(`/quotes/new?customerId=${maria.id}`)).text();
  const options = propertyOptions(builder);
  assert.deepEqual([...options.keys()], ["", home, rental]);
  assert.match(options.get(rental)!, /Rental · 915 Maple Ave, Austin, TX 78704/);

  const before = await tenantCounts(t.id, ["quotes"]);
  const refused = await office.post(
    `/quotes/new?customerId=${maria.id}`,
    quoteBody(maria.id, { propertyId: jamesOffice }),
  );
  assert.equal(refused.status, 422);
  assert.match(textOf(await refused.text()), /Choose one of this customer's properties/);
  assert.deepEqual(await tenantCounts(t.id, ["quotes"]), before, "nothing stored");

  const made = await office.post(`/quotes/new?customerId=${maria.id}`, quoteBody(maria.id, { propertyId: rental }));
  assert.equal(made.status, 303);
  const quoteId = /\/quotes\/([0-9a-f-]{36})$/.exec(made.headers.get("location")!)![1];
  assert.equal(await propertyId("quotes", t.id, quoteId), rental);
  assert.match(
    textOf(await (await office.get(`/quotes/${quoteId}`)).text()),
    /Service property\s*Rental · 915 Maple Ave/,
  );
  // The edit form shows the choice and keeps it.
  const edit = await (await office.get(`/quotes/${quoteId}/edit`)).text();
  assert.match(edit, new RegExp(`<option value="${rental}" selected`));

  // Approved, converted: the job names the property; its invoice does too.
  await one(
    `UPDATE quotes SET status = 'approved', approved_at = now(), approved_name = 'Maria' WHERE tenant_id = $1 AND id = $2`,
    [t.id, quoteId],
  );
  const converted = await office.post(`/quotes/${quoteId}/convert`, {});
  assert.equal(converted.status, 303);
  const jobId = /\/jobs\/([0-9a-f-]{36})/.exec(converted.headers.get("location")!)![1];
  assert.equal(await propertyId("jobs", t.id, jobId), rental);
  assert.match(textOf(await (await office.get(`/jobs/${jobId}`)).text()), /Property\s*Rental · 915 Maple Ave/);
  await one(`UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    jobId,
  ]);
  const invoiced = await office.post(`/jobs/${jobId}/invoice`, {});
  assert.equal(invoiced.status, 303);
  const invoiceId = /\/invoices\/([0-9a-f-]{36})/.exec(invoiced.headers.get("location")!)![1];
  assert.equal(await propertyId("invoices", t.id, invoiceId), rental);
  assert.match(
    textOf(await (await office.get(`/invoices/${invoiceId}`)).text()),
    /Service property\s*Rental · 915 Maple Ave/,
  );
});

test("the portal's booking form offers the customer's properties; the request names one (never another customer's), and its quote and job carry it", async () => {
  const s = await portalSetup();
  const home = await propertyOf(s.tenant.id, s.customer.id, "Home", "4410 Barton Springs Rd");
  const cabin = await propertyOf(s.tenant.id, s.customer.id, "Cabin", "3 Lake Rd");
  const other = await createCustomer(s.tenant.id, { name: "Someone Else" });
  const theirs = await propertyOf(s.tenant.id, other.id, "Shop", "5 Far St");
  const ip = randomLoopback();

  const hub = (await portalRequest("GET", s.url, { ip })).text;
  const options = propertyOptions(hub);
  assert.deepEqual([...options.keys()], [home, cabin, ""]);
  assert.match(options.get(cabin)!, /Cabin · 3 Lake Rd, Austin, TX 78704/);

  const post = (form: Record<string, string>) =>
    portalRequest("POST", "/api/portal/booking-request", {
      ip,
      form: { token: s.token, service: "Gutter clean", ...form },
    });
  for (const bad of [theirs, "not-an-id"]) {
    const res = await post({ propertyId: bad });
    assert.equal(res.status, 422, bad);
    assert.match(fieldError(res.text, "book-property") ?? "", /Choose one of your properties/);
  }
  assert.equal((await tenantCounts(s.tenant.id, ["booking_requests"])).booking_requests, 0);

  assert.equal((await post({ propertyId: cabin })).status, 303);
  const request = (await one<{ id: string; property_id: string }>(
    `SELECT id, property_id FROM booking_requests WHERE tenant_id = $1`,
    [s.tenant.id],
  ))!;
  assert.equal(request.property_id, cabin);

  const office = await clientFor(s.tenant.users.office);
  assert.match(textOf(await (await office.get(`/requests`)).text()), /Property: Cabin · 3 Lake Rd/);
  // The quote builder opened from the request starts with its property chosen.
  const prefilled = await (await office.get(`/quotes/new?requestId=${request.id}`)).text();
  assert.match(prefilled, new RegExp(`<option value="${cabin}" selected`));
  const toQuote = await office.post(`/requests/${request.id}/convert`, { to: "quote" });
  assert.equal(toQuote.status, 303);
  const toJob = await office.post(`/requests/${request.id}/convert`, { to: "job" });
  assert.equal(toJob.status, 303);
  const made = (await one<{ quote_id: string; job_id: string }>(
    `SELECT quote_id, job_id FROM booking_requests WHERE tenant_id = $1 AND id = $2`,
    [s.tenant.id, request.id],
  ))!;
  assert.equal(await propertyId("quotes", s.tenant.id, made.quote_id), cabin);
  assert.equal(await propertyId("jobs", s.tenant.id, made.job_id), cabin);
});
