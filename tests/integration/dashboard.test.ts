// Issue 22 item 4: the dashboard's two small charts (collected this month and last month, open
// work by status) and the figures a Jobber user expects on a home page, each linking to the
// list of exactly those records, with JavaScript off. Known data, another tenant's beside it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { decode, recordLinks } from "../helpers/html";

const ZONE = "America/Los_Angeles";

/** The tenant's calendar: this month's first day, last month's first and last day, as dates. */
async function calendar(tenantId: string) {
  const r = await one<{
    this_first: string;
    last_first: string;
    last_last: string;
    two_ago: string;
    today: string;
    this_month: string;
    last_month: string;
  }>(
    `SELECT m::date::text AS this_first, (m - interval '1 month')::date::text AS last_first, (m - interval '1 day')::date::text AS last_last,
            (m - interval '2 months')::date::text AS two_ago, today::text, to_char(m, 'YYYY-MM') AS this_month,
            to_char(m - interval '1 month', 'YYYY-MM') AS last_month
       FROM (SELECT date_trunc('month', (now() AT TIME ZONE time_zone)::date) AS m, (now() AT TIME ZONE time_zone)::date AS today
               FROM tenants WHERE id = $1) x`,
    [tenantId],
  );
  return r!;
}

/** A payment recorded at a wall-clock instant of the tenant (received_on left to the database), or with its own received_on. */
async function pay(
  tenantId: string,
  invoiceId: string,
  cents: number,
  o: { at?: string; receivedOn?: string; currency?: string },
) {
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at, received_on)
     SELECT $1, $2, $3, $4, 'check', 'test', coalesce($5::timestamp AT TIME ZONE t.time_zone, now()), $6::date FROM tenants t WHERE t.id = $1`,
    [tenantId, invoiceId, cents, o.currency ?? "USD", o.at ?? null, o.receivedOn ?? null],
  );
}

const figure = (html: string, name: string) =>
  decode(html.match(new RegExp(`data-figure="${name}"[^>]*>([^<]*)<`))?.[1] ?? "");
/** The big number of the stat card linking to `href`. */
const statValue = (html: string, href: string) => {
  const tag = [...html.matchAll(/<a\b[^>]*>/g)].find(
    (m) => m[0].includes(`href="${href}"`) && (m[0].includes("data-figure") || m[0].includes('class="stat"')),
  );
  const m = tag && html.slice(tag.index!).match(/class="stat-value">([^<]*)</);
  assert.ok(m, `a stat linking to ${href}`);
  return decode(m[1]);
};

async function listIds(c: Client, path: string, prefix: string) {
  const res = await c.get(path);
  assert.equal(res.status, 200, path);
  return recordLinks(await res.text(), prefix)
    .map((l) => l.id)
    .sort();
}

async function seed(name: string) {
  const t = await createTenantWithUsers(name);
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const customer = await createCustomer(t.id, { name: `${name} customer` });
  return { t, customer };
}

test("the dashboard's figures, charts and links count exactly the tenant's records, in its time zone", async () => {
  const { t, customer } = await seed("Known Figures Plumbing");
  const other = await seed("Other Figures Heating");
  const cal = await calendar(t.id);
  const minusDays = (date: string, n: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) - n * 86400_000).toISOString().slice(0, 10);

  // Money: collected by the day received, in the tenant's calendar and currency.
  const inv = await createInvoice(t.id, {
    customerId: customer.id,
    items: [{ description: "Big job", unitPriceCents: 10_000_000 }],
  });
  await pay(t.id, inv.id, 100_00, { at: `${cal.this_first} 00:30` }); // this month (08:30 UTC the same day)
  await pay(t.id, inv.id, 50_25, {}); // now: this month
  await pay(t.id, inv.id, 300_00, { at: `${cal.last_last} 23:30` }); // last month here, already this month in UTC
  await pay(t.id, inv.id, 20_00, { receivedOn: cal.last_first }); // recorded now, received last month (the office's date)
  await pay(t.id, inv.id, 999_00, { at: `${cal.two_ago} 12:00` }); // two months ago: in neither
  await pay(t.id, inv.id, 7_00, { currency: "EUR" }); // another currency: left out
  const theirInv = await createInvoice(other.t.id, { customerId: other.customer.id });
  await pay(other.t.id, theirInv.id, 5_000_00, {});

  // Quotes approved and not converted to a job: 2 (a converted one, a sent one and theirs do not count).
  const approved1 = await createQuote(t.id, { customerId: customer.id, status: "approved" });
  const approved2 = await createQuote(t.id, { customerId: customer.id, status: "approved" });
  const converted = await createQuote(t.id, { customerId: customer.id, status: "approved" });
  const convertedJob = await createJob(t.id, {
    customerId: customer.id,
    title: "From the converted quote",
    scheduledStart: null,
  });
  await rows(`UPDATE jobs SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [t.id, convertedJob.id, converted.id]);
  await rows(`UPDATE quotes SET job_id = $3, converted_at = now() WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    converted.id,
    convertedJob.id,
  ]);
  await createQuote(t.id, { customerId: customer.id, status: "sent" });
  await createQuote(other.t.id, { customerId: other.customer.id, status: "approved" });

  // Completed jobs with no invoice: 3 (one invoiced at creation, one linked later, and theirs do not count).
  const done = [];
  for (let i = 0; i < 5; i++)
    done.push(await createJob(t.id, { customerId: customer.id, title: `Done ${i}`, status: "completed" }));
  await rows(`UPDATE invoices SET job_id = $3 WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    (await createInvoice(t.id, { customerId: customer.id })).id,
    done[3].id,
  ]);
  await rows(
    `INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, currency, subtotal_cents, tax_cents, total_cents, job_id)
     VALUES ($1, $2, 'INV-FROM-JOB', 'draft', now()::date, 'USD', 0, 0, 0, $3)`,
    [t.id, customer.id, done[4].id],
  );
  await createJob(other.t.id, { customerId: other.customer.id, status: "completed" });

  // Overdue: 2 (due tomorrow, paid, and theirs do not count).
  const overdue1 = await createInvoice(t.id, { customerId: customer.id, dueDate: minusDays(cal.today, 1) });
  const overdue2 = await createInvoice(t.id, {
    customerId: customer.id,
    status: "partial",
    amountPaidCents: 1_00,
    dueDate: minusDays(cal.today, 40),
  });
  await createInvoice(t.id, { customerId: customer.id, dueDate: minusDays(cal.today, -1) });
  await createInvoice(t.id, { customerId: customer.id, status: "paid", dueDate: minusDays(cal.today, 5) });
  await createInvoice(other.t.id, { customerId: other.customer.id, dueDate: minusDays(cal.today, 3) });

  // Open work: 2 scheduled, 1 in progress, 1 unscheduled (the converted quote's job); theirs do not count.
  await createJob(t.id, { customerId: customer.id, title: "Scheduled A" });
  await createJob(t.id, { customerId: customer.id, title: "Scheduled B" });
  await createJob(t.id, { customerId: customer.id, title: "Under way", status: "in_progress" });
  await createJob(t.id, { customerId: customer.id, title: "Cancelled", status: "cancelled" });
  await createJob(other.t.id, { customerId: other.customer.id, status: "in_progress" });

  const owner = await clientFor(t.users.owner);
  const res = await owner.get("/");
  assert.equal(res.status, 200);
  const html = await res.text();

  assert.equal(figure(html, "collected-this-month"), "$150.25");
  assert.equal(figure(html, "collected-last-month"), "$320.00");
  const collectedSvg = html.slice(
    html.indexOf('id="dashboard-collected"'),
    html.indexOf("</svg>", html.indexOf('id="dashboard-collected"')),
  );
  assert.deepEqual(
    [...collectedSvg.matchAll(/<rect[^>]*data-value="(\d+)"/g)].map((m) => Number(m[1])),
    [320_00, 150_25],
    "one bar per month: last, this",
  );
  assert.match(collectedSvg, /<title[^>]*>Collected this month and last month<\/title>/);

  const workSvg = html.slice(
    html.indexOf('id="dashboard-open-work"'),
    html.indexOf("</svg>", html.indexOf('id="dashboard-open-work"')),
  );
  assert.deepEqual(
    [...workSvg.matchAll(/<rect[^>]*data-value="(\d+)"/g)].map((m) => Number(m[1])),
    [1, 2, 0, 1, 0],
    "unscheduled, scheduled, en route, in progress, on hold",
  );
  assert.equal(figure(html, "open-scheduled"), "2");

  assert.equal(statValue(html, "/quotes?status=to_schedule"), "2");
  assert.equal(statValue(html, "/jobs?status=to_invoice"), "3");
  assert.equal(statValue(html, "/invoices?status=overdue"), "2");

  // Each figure's link lists exactly those records, with a plain GET (JavaScript off).
  assert.deepEqual(await listIds(owner, "/quotes?status=to_schedule", "/quotes/"), [approved1.id, approved2.id].sort());
  assert.deepEqual(
    await listIds(owner, "/jobs?status=to_invoice", "/jobs/"),
    [done[0].id, done[1].id, done[2].id].sort(),
  );
  assert.deepEqual(await listIds(owner, "/invoices?status=overdue", "/invoices/"), [overdue1.id, overdue2.id].sort());

  // Unlinking an invoice from its job (the only other writer of the link) puts the job back on the list.
  await rows(`UPDATE invoices SET job_id = NULL WHERE tenant_id = $1 AND number = 'INV-FROM-JOB'`, [t.id]);
  assert.equal(statValue(await (await owner.get("/")).text(), "/jobs?status=to_invoice"), "4");

  // Customers: the figure the writes keep (migration 0380) moves with each one added and deleted;
  // theirs do not count.
  assert.equal(statValue(html, "/customers"), "1");
  await createCustomer(t.id, { name: "Second customer" });
  const third = await createCustomer(t.id, { name: "Third customer" });
  await createCustomer(other.t.id, { name: "Their second customer" });
  await rows(`DELETE FROM customers WHERE tenant_id = $1 AND id = $2`, [t.id, third.id]);
  assert.equal(statValue(await (await owner.get("/")).text(), "/customers"), "2");
});

test("/reports counts collected money by the day it was received (payments.received_on)", async () => {
  const { t, customer } = await seed("Received On Roofing");
  const cal = await calendar(t.id);
  const inv = await createInvoice(t.id, {
    customerId: customer.id,
    items: [{ description: "Roof", unitPriceCents: 1_000_000 }],
  });
  // Recorded today, received on the first of last month: collected last month.
  await pay(t.id, inv.id, 42_00, { receivedOn: cal.last_first });
  const owner = await clientFor(t.users.owner);
  const res = await owner.get("/reports/invoiced-collected.csv");
  assert.equal(res.status, 200);
  const lines = (await res.text()).split(/\r?\n/);
  assert.ok(lines.includes(`${cal.last_month},0.00,42.00`), lines.join(" | "));
  assert.ok(lines.includes(`${cal.this_month},10000.00,0.00`), lines.join(" | "));
});
