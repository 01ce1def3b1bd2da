// A customer's service properties (CONTRACT section 14, issue 19): shown on the customer page,
// added and changed there (JavaScript off: plain posts), named by a job.
import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers } from "../helpers/fixtures";
import { countOf, pageText } from "../helpers/import";

test("the customer page lists the service properties; office adds and changes one; 422 beside the field; a job names one", async () => {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id, { name: "Ingrid Halvorsen" });
  const office = await clientFor(t.users.office);

  let page = pageText(await (await office.get(`/customers/${customer.id}`)).text());
  assert.match(page, /Service properties 0 properties/);

  const added = await office.post(`/customers/${customer.id}`, {
    intent: "property.add",
    label: "Lake house",
    addressLine1: "41 Shoreline Dr",
    city: "Marble Falls",
    region: "TX",
    postalCode: "78654",
  });
  assert.equal(added.status, 303);
  const property = await one<{ id: string; label: string; position: number }>(
    `SELECT id, label, position FROM customer_properties WHERE tenant_id = $1 AND customer_id = $2`,
    [t.id, customer.id],
  );
  assert.equal(property!.label, "Lake house");
  page = pageText(await (await office.get(`/customers/${customer.id}`)).text());
  assert.match(page, /Lake house 41 Shoreline Dr Marble Falls, TX 78654 0 jobs/);
  assert.match(page, /Service property added: Lake house, 41 Shoreline Dr, Marble Falls by/);

  // A postal code too long: 422, the message beside it, what was typed kept, nothing changed.
  const refused = await office.post(`/customers/${customer.id}`, {
    intent: "property.save",
    propertyId: property!.id,
    label: "Lake house",
    addressLine1: "41 Shoreline Dr",
    postalCode: "7".repeat(30),
  });
  assert.equal(refused.status, 422);
  const html = await refused.text();
  assert.match(html, /id="property-[^"]+-postalCode"[^>]*aria-invalid="true"/);
  assert.match(pageText(html), /Up to 20 characters/);
  assert.equal(
    (await one<{ postal_code: string }>(
      `SELECT postal_code FROM customer_properties WHERE tenant_id = $1 AND id = $2`,
      [t.id, property!.id],
    ))!.postal_code,
    "78654",
  );

  const saved = await office.post(`/customers/${customer.id}`, {
    intent: "property.save",
    propertyId: property!.id,
    label: "Lake cabin",
    addressLine1: "41 Shoreline Dr",
    city: "Marble Falls",
    postalCode: "78654",
  });
  assert.equal(saved.status, 303);
  assert.equal(
    (await one<{ label: string }>(`SELECT label FROM customer_properties WHERE tenant_id = $1 AND id = $2`, [
      t.id,
      property!.id,
    ]))!.label,
    "Lake cabin",
  );

  // A technician cannot change records.
  const tech = await clientFor(t.users.technician);
  const forbidden = await tech.post(`/customers/${customer.id}`, { intent: "property.add", addressLine1: "1 Nowhere" });
  assert.equal(forbidden.status, 403);
  assert.equal(await countOf(t.id, "customer_properties"), 1);

  // A job names the property: the job page shows it.
  const job = await createJob(t.id, { customerId: customer.id, title: "Dock light repair" });
  await rows(`UPDATE jobs SET property_id = $3 WHERE tenant_id = $1 AND id = $2`, [t.id, job.id, property!.id]);
  const jobPage = pageText(await (await office.get(`/jobs/${job.id}`)).text());
  assert.match(jobPage, /Property Lake cabin · 41 Shoreline Dr, Marble Falls, 78654/);
});
