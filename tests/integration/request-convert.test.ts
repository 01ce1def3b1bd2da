import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createTenantWithUsers } from "../helpers/fixtures";
import { textOf } from "../helpers/html";

// CONTRACT section 12: a booking request becomes a draft quote or an unscheduled job, once.

async function setup() {
  const tenant = await createTenantWithUsers();
  const customer = await createCustomer(tenant.id, { name: "Rita Request" });
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, description, preferred_date, time_window, address, phone)
     VALUES ($1, $2, 'Furnace not heating', 'Clicks but never lights.', '2026-06-18', 'morning', '48 Oak Lane', '555-0142') RETURNING id`,
    [tenant.id, customer.id],
  );
  return { tenant, customer, requestId: request!.id, office: await clientFor(tenant.users.office) };
}
const requestRow = (tenantId: string, id: string) =>
  one<{ status: string; quote_id: string | null; job_id: string | null }>(
    `SELECT status, quote_id, job_id FROM booking_requests WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );

test("Create job: an unscheduled job prefilled from the request, linked both ways; twice, or twice at once, the same job", async () => {
  const { tenant, customer, requestId, office } = await setup();
  const csrf = await office.csrf();
  const answers = await Promise.all(
    [1, 2, 3].map(() => office.post(`/requests/${requestId}/convert`, { _csrf: csrf, to: "job" })),
  );
  assert.deepEqual(
    answers.map((r) => r.status),
    [303, 303, 303],
  );
  const places = new Set(answers.map((r) => r.headers.get("location")));
  assert.equal(places.size, 1, "every answer lands on the same job");
  const again = await office.post(`/requests/${requestId}/convert`, { to: "job" });
  assert.equal(again.headers.get("location"), [...places][0]);
  const jobs = await rows<{
    id: string;
    title: string;
    status: string;
    description: string;
    address: string;
    customer_id: string;
  }>(`SELECT id, title, status, description, address, customer_id FROM jobs WHERE tenant_id = $1`, [tenant.id]);
  assert.equal(jobs.length, 1);
  assert.equal([...places][0], `/jobs/${jobs[0].id}`);
  assert.deepEqual(
    { ...jobs[0], id: undefined },
    {
      id: undefined,
      title: "Furnace not heating",
      status: "unscheduled",
      address: "48 Oak Lane",
      customer_id: customer.id,
      description:
        "Clicks but never lights.\nAddress: 48 Oak Lane\nPhone: 555-0142\nPreferred date: Jun 18, 2026 (morning)",
    },
  );
  assert.deepEqual(await requestRow(tenant.id, requestId), { status: "scheduled", quote_id: null, job_id: jobs[0].id });
  const jobPage = textOf(await (await office.get(`/jobs/${jobs[0].id}`)).text());
  assert.match(
    jobPage,
    new RegExp(`Created from the booking request “Furnace not heating” by ${tenant.users.office.name}`),
  );
  assert.match(textOf(await (await office.get("/requests")).text()), /Open job/);
});

test("Create quote: a draft quote with the next number and the request in its notes; once", async () => {
  const { tenant, customer, requestId, office } = await setup();
  const first = await office.post(`/requests/${requestId}/convert`, { to: "quote" });
  const second = await office.post(`/requests/${requestId}/convert`, { to: "quote" });
  assert.equal(first.status, 303);
  assert.equal(second.headers.get("location"), first.headers.get("location"));
  const quotes = await rows<{
    id: string;
    number: string;
    status: string;
    title: string;
    notes: string;
    customer_id: string;
  }>(`SELECT id, number, status, title, notes, customer_id FROM quotes WHERE tenant_id = $1`, [tenant.id]);
  assert.equal(quotes.length, 1);
  assert.equal(quotes[0].number, "Q-0001");
  assert.equal(quotes[0].status, "draft");
  assert.equal(quotes[0].title, "Furnace not heating");
  assert.equal(quotes[0].customer_id, customer.id);
  assert.match(quotes[0].notes, /Phone: 555-0142/);
  assert.deepEqual(await requestRow(tenant.id, requestId), {
    status: "scheduled",
    quote_id: quotes[0].id,
    job_id: null,
  });
  assert.match(textOf(await (await office.get("/requests")).text()), /Quote Q-0001/);
});

test("a declined request cannot be converted (409, nothing made); a technician is refused (403)", async () => {
  const { tenant, requestId, office } = await setup();
  const tech = await clientFor(tenant.users.technician);
  assert.equal((await tech.post(`/requests/${requestId}/convert`, { to: "job" })).status, 403);
  assert.equal((await tech.get(`/requests/${requestId}/convert`)).status, 403);
  await office.post("/requests", { requestId, status: "declined" });
  const refused = await office.post(`/requests/${requestId}/convert`, { to: "quote" });
  assert.equal(refused.status, 409);
  assert.match(textOf(await refused.text()), /declined; it cannot be turned into a quote/);
  const bad = await office.post(`/requests/${requestId}/convert`, { to: "invoice" });
  assert.equal(bad.status, 422);
  assert.equal(
    (await one<{ n: number }>(
      `SELECT (SELECT count(*) FROM quotes WHERE tenant_id = $1) + (SELECT count(*) FROM jobs WHERE tenant_id = $1) AS n`,
      [tenant.id],
    ))!.n,
    0,
  );
});
