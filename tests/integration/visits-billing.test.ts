import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createQuote, createTenantWithUsers, twoTenants } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// A job's line items and per-visit billing (docs/decisions/371): the quote's chosen items become
// the job's items; a job billed per visit invoices each completed visit once (its per-visit
// items and its own time), and the job's own invoice carries only what no visit invoice did.

async function recurringJob(office: Client, customerId: string, technicianId: string): Promise<string> {
  const form = new FormData();
  for (const [k, v] of [
    ["customerId", customerId],
    ["title", "Quarterly boiler maintenance"],
    ["scheduledStart", "2026-01-05T09:00"],
    ["scheduledEnd", "2026-01-05T11:00"],
    ["assigneeId", technicianId],
    ["repeat", "monthly"],
    ["interval", "3"],
    ["monthlyBy", "day_of_month"],
    ["endsAfter", "4"],
  ])
    form.append(k, v);
  const res = await office.post("/jobs/new", form);
  assert.equal(res.status, 303, textOf(await res.clone().text()).slice(0, 300));
  return res.headers.get("location")!.split("/").pop()!;
}

async function setup() {
  const tenant = await createTenantWithUsers();
  await rows(`UPDATE users SET hourly_rate_cents = 8000 WHERE tenant_id = $1 AND id = $2`, [
    tenant.id,
    tenant.users.technician.id,
  ]);
  const customer = await createCustomer(tenant.id, { name: "Boiler Owner" });
  const office = await clientFor(tenant.users.office);
  const jobId = await recurringJob(office, customer.id, tenant.users.technician.id);
  const visits = await rows<{ id: string }>(
    `SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
    [tenant.id, jobId],
  );
  assert.equal(visits.length, 4, "the series made its 4 visits");
  return { tenant, customer, office, jobId, visits: visits.map((v) => v.id) };
}

/** The visit completed, with one hour of the technician's time on it. */
async function workedOn(tenantId: string, jobId: string, visitId: string, userId: string) {
  const v = (await one<{ starts_at: Date }>(`SELECT starts_at FROM visits WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    visitId,
  ]))!;
  await rows(
    `INSERT INTO time_entries (tenant_id, job_id, visit_id, user_id, started_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $5::timestamptz + interval '1 hour')`,
    [tenantId, jobId, visitId, userId, v.starts_at],
  );
  await rows(`UPDATE visits SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    visitId,
  ]);
}

const invoiceLines = (tenantId: string, invoiceId: string) =>
  rows<{ description: string; unit_price_cents: string; quantity: string }>(
    `SELECT description, unit_price_cents, quantity::text FROM invoice_items WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY position`,
    [tenantId, invoiceId],
  );

test("a quote's chosen items become the converted job's line items", async () => {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Quote Owner" });
  const quote = await createQuote(tenant.id, {
    customerId: customer.id,
    status: "approved",
    items: [
      { description: "Water heater, 50 gal", unitPriceCents: 120_000 },
      { description: "Haul away the old one", unitPriceCents: 5_000 },
    ],
  });
  const office = await clientFor(tenant.users.office);
  const res = await office.post(`/quotes/${quote.id}/convert`, {});
  assert.equal(res.status, 303);
  const jobId = res.headers.get("location")!.split("/").pop()!;
  const items = await rows<{ description: string; unit_price_cents: string; per_visit: boolean }>(
    `SELECT description, unit_price_cents, per_visit FROM job_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
    [tenant.id, jobId],
  );
  assert.deepEqual(
    items.map((i) => [i.description, Number(i.unit_price_cents), i.per_visit]),
    [
      ["Water heater, 50 gal", 120_000, false],
      ["Haul away the old one", 5_000, false],
    ],
  );
  const page = textOf(await (await office.get(`/jobs/${jobId}/items`)).text());
  assert.match(page, /Water heater, 50 gal/);
});

test("billing per visit: visit 2 of a recurring job invoices once, also twice at once; the job's invoice bills no labour twice", async () => {
  const { tenant, office, jobId, visits } = await setup();
  // Billing per visit, a $120 fee on every visit and a $40 filter kit once.
  assert.equal((await office.post(`/jobs/${jobId}/items?intent=billing`, { billing: "per_visit" })).status, 303);
  const fee = await office.post(`/jobs/${jobId}/items`, {
    description: "Maintenance visit",
    quantity: "1",
    unitPrice: "120.00",
    perVisit: "on",
  });
  assert.equal(fee.status, 303);
  assert.equal(
    (await office.post(`/jobs/${jobId}/items`, { description: "Filter kit", quantity: "1", unitPrice: "40.00" }))
      .status,
    303,
  );

  // Not completed yet: refused, nothing made.
  const early = await office.post(`/visits/${visits[1]}/invoice`, {});
  assert.equal(early.status, 409);

  await workedOn(tenant.id, jobId, visits[0], tenant.users.technician.id);
  await workedOn(tenant.id, jobId, visits[1], tenant.users.technician.id);
  // The dashboard lists both completed visits to invoice.
  const dashboard = textOf(await (await office.get("/")).text());
  assert.match(dashboard, /Visits to invoice[\s\S]*Quarterly boiler maintenance/);

  const both = await Promise.all([1, 2].map(() => office.post(`/visits/${visits[1]}/invoice`, {})));
  assert.deepEqual(
    both.map((r) => r.status),
    [303, 303],
  );
  assert.equal(both[0].headers.get("location"), both[1].headers.get("location"), "one invoice for the visit");
  const visitInvoices = await rows<{ id: string; status: string; job_id: string; total_cents: string }>(
    `SELECT id, status, job_id, total_cents FROM invoices WHERE tenant_id = $1 AND visit_id = $2`,
    [tenant.id, visits[1]],
  );
  assert.equal(visitInvoices.length, 1);
  assert.equal(visitInvoices[0].status, "draft");
  assert.equal(visitInvoices[0].job_id, jobId);
  const lines = await invoiceLines(tenant.id, visitInvoices[0].id);
  assert.deepEqual(
    lines.map((l) => [l.description.replace(/,.*$/, ""), Number(l.unit_price_cents)]),
    [
      ["Maintenance visit", 12_000],
      ["Labour: " + tenant.users.technician.name, 8_000],
    ],
  );
  // A third call later lands on the same invoice.
  const again = await office.post(`/visits/${visits[1]}/invoice`, {});
  assert.equal(again.headers.get("location"), `/invoices/${visitInvoices[0].id}`);

  // The job's own invoice: the filter kit and visit 1's hour, not visit 2's hour nor the per-visit fee.
  await rows(`UPDATE jobs SET status = 'completed' WHERE tenant_id = $1 AND id = $2`, [tenant.id, jobId]);
  const final = await office.post(`/jobs/${jobId}/invoice`, {});
  assert.equal(final.status, 303);
  const finalId = final.headers.get("location")!.split("/").pop()!;
  assert.notEqual(finalId, visitInvoices[0].id);
  const finalLines = await invoiceLines(tenant.id, finalId);
  assert.deepEqual(
    finalLines.map((l) => l.description.replace(/,.*$/, "")),
    ["Filter kit", "Labour: " + tenant.users.technician.name],
  );
  const labourHours = await rows<{ hours: string }>(
    `SELECT sum(ii.quantity)::text AS hours FROM invoice_items ii JOIN invoices i ON i.tenant_id = ii.tenant_id AND i.id = ii.invoice_id
      WHERE i.tenant_id = $1 AND i.job_id = $2 AND ii.description LIKE 'Labour:%'`,
    [tenant.id, jobId],
  );
  assert.equal(Number(labourHours[0].hours), 2, "two hours worked, two billed, none twice");
  // The job page's link to its invoice is the job's own, not the visit's.
  const jobPage = await (await office.get(`/jobs/${jobId}`)).text();
  assert.match(jobPage, new RegExp(`/invoices/${finalId}`));
});

test("a job billed on completion refuses a visit invoice (409); roles and other tenants' visits", async () => {
  const { tenant, office, jobId, visits } = await setup();
  await workedOn(tenant.id, jobId, visits[0], tenant.users.technician.id);
  const refused = await office.post(`/visits/${visits[0]}/invoice`, {});
  assert.equal(refused.status, 409);
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM invoices WHERE tenant_id = $1`, [tenant.id]))!.n,
    0,
  );
  const technician = await clientFor(tenant.users.technician);
  assert.equal((await technician.post(`/visits/${visits[0]}/invoice`, {})).status, 403);
  assert.equal((await technician.get(`/jobs/${jobId}/items`)).status, 403);
  const { b } = await twoTenants();
  const stranger = await clientFor(b.users.owner);
  assert.equal((await stranger.post(`/visits/${visits[0]}/invoice`, {})).status, 404);
  assert.equal((await stranger.get(`/jobs/${jobId}/items`)).status, 404);
  assert.equal((await stranger.post(`/jobs/${jobId}/items`, { description: "X", unitPrice: "1.00" })).status, 404);
});
