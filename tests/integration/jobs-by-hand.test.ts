import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers } from "../helpers/fixtures";
import { decode, textOf } from "../helpers/html";

// CONTRACT section 12: jobs made and changed by hand in the office, times in the tenant's zone.

/** The messages conform renders beside a field of the job form. */
function errorsBeside(html: string, field: string): string {
  const m = html.match(new RegExp(`<ul id="job-form-${field}-error"[^>]*>([\\s\\S]*?)</ul>`));
  return m ? textOf(m[1]) : "";
}
const valueOf = (html: string, field: string) => {
  const tag = html.match(new RegExp(`<(?:input|textarea)[^>]*name="${field}"[^>]*>([^<]*)`));
  return tag ? decode(tag[0].match(/value="([^"]*)"/)?.[1] ?? tag[1]) : null;
};

async function chicagoTenant() {
  const tenant = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [tenant.id]);
  const customer = await createCustomer(tenant.id, { name: "Ada Plumbing Customer" });
  return { tenant, customer };
}

test("the office creates a job: a start in the tenant's time zone makes it scheduled; without one it is unscheduled", async () => {
  const { tenant, customer } = await chicagoTenant();
  const office = await clientFor(tenant.users.office);
  const form = await office.get(`/jobs/new?customerId=${customer.id}`);
  assert.equal(form.status, 200);
  const page = await form.text();
  assert.match(
    page,
    new RegExp(`<option value="${customer.id}" selected=""`),
    "the customer is chosen from ?customerId=",
  );

  const res = await office.post("/jobs/new", {
    customerId: customer.id,
    title: "Replace water heater",
    description: "50 gal gas",
    address: "12 Elm Street",
    scheduledStart: "2026-06-16T09:30",
    scheduledEnd: "2026-06-16T11:00",
    assigneeId: tenant.users.technician.id,
  });
  assert.equal(res.status, 303);
  const id = res.headers.get("location")!.split("/").pop()!;
  const job = await one<{ status: string; start: string; end: string; assignee_id: string; title: string }>(
    `SELECT status, scheduled_start AS start, scheduled_end AS end, assignee_id, title FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, id],
  );
  assert.equal(job!.status, "scheduled");
  assert.equal(new Date(job!.start).toISOString(), "2026-06-16T14:30:00.000Z", "09:30 in Chicago (CDT) is 14:30 UTC");
  assert.equal(new Date(job!.end).toISOString(), "2026-06-16T16:00:00.000Z");
  assert.equal(job!.assignee_id, tenant.users.technician.id);

  const jobPage = textOf(await (await office.get(`/jobs/${id}`)).text());
  assert.match(
    jobPage,
    new RegExp(
      `Scheduled for Jun 16, 2026, 9:30 AM with ${tenant.users.technician.name} by ${tenant.users.office.name}`,
    ),
  );
  assert.match(jobPage, new RegExp(`Created by ${tenant.users.office.name}`));
  const edit = await (await office.get(`/jobs/${id}/edit`)).text();
  assert.equal(
    valueOf(edit, "scheduledStart"),
    "2026-06-16T09:30",
    "the edit form shows the wall-clock time it was given",
  );

  const plain = await office.post("/jobs/new", { customerId: customer.id, title: "Look at a dripping tap" });
  assert.equal(plain.status, 303);
  const plainId = plain.headers.get("location")!.split("/").pop()!;
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenant.id, plainId]))!
      .status,
    "unscheduled",
  );
});

test("bad job fields answer 422 beside each field with every typed value kept, and store nothing", async () => {
  const { tenant, customer } = await chicagoTenant();
  const other = await createTenantWithUsers();
  const theirCustomer = await createCustomer(other.id);
  const office = await clientFor(tenant.users.office);
  const before = await one<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1`, [tenant.id]);

  const res = await office.post("/jobs/new", {
    customerId: customer.id,
    title: "",
    description: "Kitchen sink <backs up>",
    scheduledStart: "2026-06-16T11:00",
    scheduledEnd: "2026-06-16T09:00",
  });
  assert.equal(res.status, 422);
  const html = await res.text();
  assert.match(errorsBeside(html, "title"), /Enter a title/);
  assert.equal(valueOf(html, "description"), "Kitchen sink <backs up>");
  assert.equal(valueOf(html, "scheduledStart"), "2026-06-16T11:00");
  assert.equal(valueOf(html, "scheduledEnd"), "2026-06-16T09:00");
  assert.match(html, /aria-describedby="job-form-title-error[^"]*"/);
  const order = await office.post("/jobs/new", {
    customerId: customer.id,
    title: "Sink",
    scheduledStart: "2026-06-16T11:00",
    scheduledEnd: "2026-06-16T09:00",
  });
  assert.equal(order.status, 422);
  assert.match(errorsBeside(await order.text(), "scheduledEnd"), /end is before the start/);

  const bad = await office.post("/jobs/new", {
    customerId: theirCustomer.id,
    title: "Sneaky",
    scheduledStart: "2026-02-30T10:00",
    assigneeId: other.users.technician.id,
  });
  assert.equal(bad.status, 422);
  const badHtml = await bad.text();
  assert.match(errorsBeside(badHtml, "scheduledStart"), /Enter a date and time/);
  assert.equal(valueOf(badHtml, "title"), "Sneaky");

  const foreign = await office.post("/jobs/new", { customerId: theirCustomer.id, title: "Sneaky" });
  assert.equal(foreign.status, 422, "another tenant's customer is not a customer to choose");
  assert.match(errorsBeside(await foreign.text(), "customerId"), /Choose a customer/);
  const foreignTech = await office.post("/jobs/new", {
    customerId: customer.id,
    title: "Sneaky",
    assigneeId: other.users.technician.id,
  });
  assert.equal(foreignTech.status, 422);
  assert.match(errorsBeside(await foreignTech.text(), "assigneeId"), /member of your team/);

  assert.deepEqual(await one(`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1`, [tenant.id]), before);
});

test("edit, cancel and reopen: a cancelled job cannot be edited (409) until reopened; reopened it is unscheduled", async () => {
  const { tenant, customer } = await chicagoTenant();
  const office = await clientFor(tenant.users.office);
  const job = await createJob(tenant.id, {
    customerId: customer.id,
    title: "Boiler service",
    assigneeId: tenant.users.technician.id,
  });

  const edited = await office.post(`/jobs/${job.id}/edit`, {
    customerId: customer.id,
    title: "Boiler service and flush",
    assigneeId: tenant.users.technician.id,
  });
  assert.equal(edited.status, 303);
  const after = await one<{ title: string; status: string; scheduled_start: string | null }>(
    `SELECT title, status, scheduled_start FROM jobs WHERE tenant_id = $1 AND id = $2`,
    [tenant.id, job.id],
  );
  assert.deepEqual(
    after,
    { title: "Boiler service and flush", status: "unscheduled", scheduled_start: null },
    "clearing the start unschedules it",
  );

  assert.equal((await office.post(`/jobs/${job.id}`, { intent: "cancel" })).status, 303);
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenant.id, job.id]))!
      .status,
    "cancelled",
  );
  const blocked = await office.post(`/jobs/${job.id}/edit`, {
    customerId: customer.id,
    title: "Changed while cancelled",
  });
  assert.equal(blocked.status, 409);
  assert.match(textOf(await blocked.text()), /cancelled\. Reopen it/);
  assert.equal(
    (await one<{ title: string }>(`SELECT title FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenant.id, job.id]))!
      .title,
    "Boiler service and flush",
  );

  assert.equal((await office.post(`/jobs/${job.id}`, { intent: "reopen" })).status, 303);
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenant.id, job.id]))!
      .status,
    "unscheduled",
  );
  const again = await office.post(`/jobs/${job.id}`, { intent: "reopen" });
  assert.equal(again.status, 409, "only a cancelled job can be reopened");
  const events = await rows<{ from_status: string; to_status: string }>(
    `SELECT from_status, to_status FROM job_events WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at`,
    [tenant.id, job.id],
  );
  assert.deepEqual(
    events.map((e) => `${e.from_status}->${e.to_status}`),
    ["scheduled->unscheduled", "unscheduled->cancelled", "cancelled->unscheduled"],
  );
});

test("a technician is refused (403) the job form, edit, cancel and reopen", async () => {
  const { tenant, customer } = await chicagoTenant();
  const job = await createJob(tenant.id, { customerId: customer.id, assigneeId: tenant.users.technician.id });
  const tech = await clientFor(tenant.users.technician);
  for (const [method, path, body] of [
    ["GET", "/jobs/new", undefined],
    ["POST", "/jobs/new", { customerId: customer.id, title: "Mine now" }],
    ["GET", `/jobs/${job.id}/edit`, undefined],
    ["POST", `/jobs/${job.id}/edit`, { customerId: customer.id, title: "Mine now" }],
    ["POST", `/jobs/${job.id}`, { intent: "cancel" }],
  ] as const) {
    const res = method === "GET" ? await tech.get(path) : await tech.post(path, body);
    assert.equal(res.status, 403, `${method} ${path}`);
  }
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenant.id, job.id]))!
      .status,
    "scheduled",
  );
  const jobPage = await (await tech.get(`/jobs/${job.id}`)).text();
  assert.doesNotMatch(jobPage, /Edit job|Cancel job/, "a technician sees no office buttons");
});
