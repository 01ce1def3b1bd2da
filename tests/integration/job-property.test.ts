// A job names one of its customer's service properties (CONTRACT section 14, issue 19,
// docs/decisions/221): the job form's select lists the chosen customer's properties (with
// JavaScript off, those of the customer chosen in advance), the server takes only a property of
// the same customer and tenant (422 beside the field otherwise, nothing stored), and the job
// page shows the property's address.
import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

async function withProperties(tenantId: string, name: string, properties: [string, string, string][]) {
  const customer = await createCustomer(tenantId, { name, address_line1: "1 Billing Way", city: "Austin" });
  const ids: string[] = [];
  for (const [i, [label, line1, city]] of properties.entries()) {
    const p = await one<{ id: string }>(
      `INSERT INTO customer_properties (tenant_id, customer_id, position, label, address_line1, city, region, postal_code)
       VALUES ($1, $2, $3, $4, $5, $6, 'TX', '78704') RETURNING id`,
      [tenantId, customer.id, i + 1, label, line1, city],
    );
    ids.push(p!.id);
  }
  return { ...customer, properties: ids };
}

/** The options of the job form's property select (value -> text). */
function propertyOptions(html: string): Map<string, string> {
  const select = html.match(/<select[^>]*name="propertyId"[^>]*>([\s\S]*?)<\/select>/);
  assert.ok(select, "the job form has a property select");
  return new Map([...select[1].matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]));
}

const errorBeside = (html: string, field: string) =>
  textOf(html.match(new RegExp(`<ul id="job-form-${field}-error"[^>]*>([\\s\\S]*?)</ul>`))?.[1] ?? "");

async function setUp() {
  const tenant = await createTenantWithUsers();
  const other = await createTenantWithUsers();
  const maria = await withProperties(tenant.id, "Maria Okafor", [
    ["Home", "4410 Barton Springs Rd", "Austin"],
    ["Rental", "915 Maple Ave", "Round Rock"],
  ]);
  const james = await withProperties(tenant.id, "James Lindqvist", [["Office", "77 Cedar Ln", "Denver"]]);
  const stranger = await withProperties(other.id, "Other Tenant's Customer", [["Shop", "5 Far St", "Boise"]]);
  return { tenant, maria, james, stranger, office: await clientFor(tenant.users.office) };
}

test("the job form lists the chosen customer's properties, JavaScript off: those of the customer chosen in advance", async () => {
  const { maria, james, office } = await setUp();
  const page = await (await office.get(`/jobs/new?customerId=${maria.id}`)).text();
  const options = propertyOptions(page);
  assert.deepEqual([...options.keys()], ["", ...maria.properties], "the placeholder, then Maria's properties in order");
  assert.match(options.get(maria.properties[1])!, /Rental · 915 Maple Ave, Round Rock, TX 78704/);
  assert.ok(!options.has(james.properties[0]), "never another customer's");

  // No customer chosen yet: a plain choice (none), and the hint says how to choose one.
  const blank = await (await office.get(`/jobs/new`)).text();
  assert.deepEqual([...propertyOptions(blank).keys()], [""]);
  assert.match(textOf(blank), /listed once the customer is chosen/);

  // What the browser loads when the customer changes (JavaScript on): that customer's list only.
  const data = (await (await office.get(`/jobs/new?customerId=${james.id}&_data=routes%2Fjobs.new`)).json()) as {
    choices: { properties: { id: string }[]; propertiesOf: string };
  };
  assert.deepEqual(
    data.choices.properties.map((p) => p.id),
    james.properties,
  );
  assert.equal(data.choices.propertiesOf, james.id);
});

test("a job naming its customer's property stores it and the job page shows the property's address; the edit form keeps and clears it", async () => {
  const { tenant, maria, office } = await setUp();
  const res = await office.post("/jobs/new", {
    customerId: maria.id,
    title: "Gutter repair",
    propertyId: maria.properties[1],
  });
  assert.equal(res.status, 303);
  const id = res.headers.get("location")!.split("/").pop()!;
  const job = await one<{ property_id: string | null }>(
    `SELECT property_id FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.equal(job!.property_id, maria.properties[1]);

  const jobPage = textOf(await (await office.get(`/jobs/${id}`)).text());
  assert.match(jobPage, /Property Rental · 915 Maple Ave, Round Rock, TX 78704/);
  assert.match(
    jobPage,
    /Address 915 Maple Ave, Round Rock, TX 78704/,
    "the property's address, not the customer's billing address",
  );

  const edit = await (await office.get(`/jobs/${id}/edit`)).text();
  assert.match(
    edit,
    new RegExp(`<option value="${maria.properties[1]}" selected=""`),
    "the edit form shows the job's property",
  );
  const cleared = await office.post(`/jobs/${id}/edit`, {
    customerId: maria.id,
    title: "Gutter repair",
    propertyId: "",
  });
  assert.equal(cleared.status, 303);
  const after = await one<{ property_id: string | null }>(
    `SELECT property_id FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.equal(after!.property_id, null);
  assert.match(
    textOf(await (await office.get(`/jobs/${id}`)).text()),
    /Address 1 Billing Way/,
    "back to the customer's address",
  );
});

test("another customer's, another tenant's or a made-up property is 422 beside the field, and nothing is stored", async () => {
  const { tenant, maria, james, stranger, office } = await setUp();
  const count = async () =>
    (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1`, [tenant.id]))[0].n;
  const before = await count();
  for (const propertyId of [james.properties[0], stranger.properties[0], "00000000-0000-4000-8000-000000000000"]) {
    const res = await office.post("/jobs/new", { customerId: maria.id, title: "Boiler service", propertyId });
    assert.equal(res.status, 422, propertyId);
    const html = await res.text();
    assert.match(errorBeside(html, "propertyId"), /Choose one of this customer's properties/);
    assert.match(html, /value="Boiler service"/, "the typed title is kept");
  }
  assert.equal(await count(), before, "no job stored");

  // The same on edit: the job keeps its property.
  const made = await office.post("/jobs/new", {
    customerId: maria.id,
    title: "Lawn care",
    propertyId: maria.properties[0],
  });
  const id = made.headers.get("location")!.split("/").pop()!;
  const refused = await office.post(`/jobs/${id}/edit`, {
    customerId: maria.id,
    title: "Lawn care, weekly",
    propertyId: james.properties[0],
  });
  assert.equal(refused.status, 422);
  const job = await one<{ property_id: string; title: string }>(
    `SELECT property_id, title FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.deepEqual(job, { property_id: maria.properties[0], title: "Lawn care" });
  // Changing the customer but not the property (JavaScript off): refused, the property is not the new customer's.
  const moved = await office.post(`/jobs/${id}/edit`, {
    customerId: james.id,
    title: "Lawn care",
    propertyId: maria.properties[0],
  });
  assert.equal(moved.status, 422);
});
