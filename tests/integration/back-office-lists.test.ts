import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { clientFor } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
} from "../helpers/fixtures";
import { recordLinks, relLink, textOf } from "../helpers/html";

// Every list: found by search and by filter; keyset pagination over 50,000 customers.

const page = async (c: Awaited<ReturnType<typeof clientFor>>, path: string) => {
  const res = await c.get(path);
  assert.equal(res.status, 200, `${path} answers 200`);
  return res.text();
};
const names = (html: string, prefix: string) => recordLinks(html, prefix).map((l) => l.text);

test("customers: search by name, email, phone and company; filter by unpaid invoices", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.office);
  const ana = await createCustomer(t.id, {
    name: "Ana Quintero",
    email: "ana.q@example.test",
    phone: "555-7788",
    company: "Quintero Bakery",
  });
  const bob = await createCustomer(t.id, { name: "Bob Stone", email: "bob@example.test", phone: "555-1234" });
  await createInvoice(t.id, { customerId: bob.id, status: "sent" });
  for (const q of ["quintero", "ANA.Q@", "7788", "bakery"]) {
    const found = names(await page(c, `/customers?q=${encodeURIComponent(q)}`), "/customers/");
    assert.deepEqual(found, ["Ana Quintero"], `search ${q}`);
  }
  // LIKE's own characters are searched literally.
  assert.deepEqual(names(await page(c, `/customers?q=${encodeURIComponent("%")}`), "/customers/"), []);
  const unpaid = names(await page(c, "/customers?filter=unpaid"), "/customers/");
  assert.deepEqual(unpaid, ["Bob Stone"]);
  const all = names(await page(c, "/customers"), "/customers/");
  assert.deepEqual(all, ["Ana Quintero", "Bob Stone"]);
  assert.ok(ana.id);
});

test("pagination moves through 50,000 customers in order without overlap, and search finds one", async () => {
  const t = await createTenantWithUsers();
  await rows(
    `INSERT INTO customers (tenant_id, name, email, phone, city)
     SELECT $1, 'Customer ' || lpad(g::text, 5, '0'), 'bulk' || g || '@example.test', '555-' || lpad(g::text, 6, '0'), 'Springfield'
       FROM generate_series(1, 50000) g`,
    [t.id],
  );
  await rows(`ANALYZE customers`);
  const expected = (
    await rows<{ name: string }>(`SELECT name FROM customers WHERE tenant_id = $1 ORDER BY name, id LIMIT 100`, [t.id])
  ).map((r) => r.name);
  const c = await clientFor(t.users.owner);
  let html = await page(c, "/customers");
  assert.equal(relLink(html, "prev"), null, "the first page has no Previous link");
  const pages: string[][] = [];
  const hrefs: string[] = [];
  for (let i = 0; i < 4; i++) {
    const found = names(html, "/customers/");
    assert.equal(found.length, 25, `page ${i + 1} has 25 customers`);
    pages.push(found);
    const next = relLink(html, "next");
    assert.ok(next, `page ${i + 1} has a Next link`);
    hrefs.push(next!);
    html = await page(c, next!);
  }
  const seen = pages.flat();
  assert.equal(new Set(seen).size, 100, "no customer appears on two pages");
  assert.deepEqual(seen, expected, "pages follow the name order exactly");
  // Previous from page 3 is page 2 again.
  const third = await page(c, hrefs[1]);
  assert.deepEqual(names(await page(c, relLink(third, "prev")!), "/customers/"), pages[1]);
  // A search over the 50,000 finds the one.
  const found = recordLinks(await page(c, "/customers?q=bulk31337%40"), "/customers/");
  assert.deepEqual(
    found.map((l) => l.text),
    ["Customer 31337"],
  );
  const byPhone = names(await page(c, "/customers?q=555-031337"), "/customers/");
  assert.deepEqual(byPhone, ["Customer 31337"]);
  // The page never counts everything: no total is shown, only Next.
  assert.doesNotMatch(textOf(html), /50,?000/);
});

test("jobs: search by title, filter by status and assignee; technician sees only their own, office sees all", async () => {
  const t = await createTenantWithUsers();
  const other = await createUser(t.id, { role: "technician" });
  const cust = await createCustomer(t.id, { name: "Carla Jobs" });
  const mine = await createJob(t.id, {
    customerId: cust.id,
    title: "Boiler service",
    assigneeId: t.users.technician.id,
  });
  const theirs = await createJob(t.id, { customerId: cust.id, title: "Leaking tap", assigneeId: other.id });
  const done = await createJob(t.id, {
    customerId: cust.id,
    title: "Old boiler removal",
    status: "completed",
    assigneeId: t.users.technician.id,
  });
  const office = await clientFor(t.users.office);
  assert.deepEqual(
    names(await page(office, "/jobs"), "/jobs/").sort(),
    ["Boiler service", "Leaking tap"],
    "open jobs by default",
  );
  assert.deepEqual(names(await page(office, "/jobs?status=all&q=boiler"), "/jobs/").sort(), [
    "Boiler service",
    "Old boiler removal",
  ]);
  assert.deepEqual(names(await page(office, "/jobs?status=completed"), "/jobs/"), ["Old boiler removal"]);
  assert.deepEqual(names(await page(office, `/jobs?status=all&assignee=${other.id}`), "/jobs/"), ["Leaking tap"]);
  const unassigned = await createJob(t.id, { customerId: cust.id, title: "Estimate visit", assigneeId: null });
  assert.deepEqual(names(await page(office, "/jobs?assignee=unassigned"), "/jobs/"), ["Estimate visit"]);
  assert.equal((await office.get(`/jobs/${theirs.id}`)).status, 200);

  const tech = await clientFor(t.users.technician);
  const techList = await page(tech, "/jobs?status=all");
  assert.deepEqual(names(techList, "/jobs/").sort(), ["Boiler service", "Old boiler removal"]);
  assert.match(textOf(techList), /My jobs/);
  // Filters cannot widen a technician's view.
  assert.deepEqual(names(await page(tech, `/jobs?status=all&assignee=${other.id}`), "/jobs/").sort(), [
    "Boiler service",
    "Old boiler removal",
  ]);
  assert.equal((await tech.get(`/jobs/${mine.id}`)).status, 200);
  assert.equal((await tech.get(`/jobs/${done.id}`)).status, 200);
  for (const id of [theirs.id, unassigned.id]) {
    const res = await tech.get(`/jobs/${id}`);
    assert.equal(res.status, 404, "another technician's job is not found");
    assert.match(textOf(await res.text()), /Page not found|not found/i);
  }
});

test("quotes: search by number, title or customer; filter by status, with expired derived from valid_until", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.admin);
  const dora = await createCustomer(t.id, { name: "Dora Quotes" });
  const eli = await createCustomer(t.id, { name: "Eli Marsh" });
  const sent = await createQuote(t.id, { customerId: dora.id, number: "Q-7001", status: "sent" });
  const expired = await createQuote(t.id, {
    customerId: dora.id,
    number: "Q-7002",
    status: "sent",
    validUntil: "2020-01-31",
  });
  const approved = await createQuote(t.id, { customerId: eli.id, number: "Q-7003", status: "approved" });
  const numbers = (html: string) => names(html, "/quotes/").sort();
  assert.deepEqual(numbers(await page(c, "/quotes?q=7001")), ["Q-7001"]);
  assert.deepEqual(numbers(await page(c, "/quotes?q=marsh")), ["Q-7003"], "search by customer name");
  assert.deepEqual(numbers(await page(c, "/quotes?status=sent")), ["Q-7001"], "awaiting response excludes expired");
  assert.deepEqual(numbers(await page(c, "/quotes?status=expired")), ["Q-7002"]);
  assert.deepEqual(numbers(await page(c, "/quotes?status=approved")), ["Q-7003"]);
  assert.deepEqual(numbers(await page(c, `/quotes?customer=${dora.id}`)), ["Q-7001", "Q-7002"]);
  const expiredRow = (await page(c, "/quotes?q=7002")).match(/Q-7002[\s\S]*?<\/tr>/)![0];
  assert.match(textOf(expiredRow), /Expired/);
  assert.ok(sent.id && expired.id && approved.id);
});

test("quotes: a broad search (over a thousand matches) still pages newest first", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Broadway Builders" });
  await rows(
    `INSERT INTO quotes (tenant_id, customer_id, number, status, issue_date, created_at)
     SELECT $1, $2, 'BW-' || lpad(g::text, 4, '0'), 'sent', current_date - g, now() - g * interval '1 minute' FROM generate_series(1, 1100) g`,
    [t.id, cust.id],
  );
  const c = await clientFor(t.users.office);
  const first = await page(c, "/quotes?q=broadway");
  assert.deepEqual(
    names(first, "/quotes/"),
    Array.from({ length: 25 }, (_, i) => `BW-${String(i + 1).padStart(4, "0")}`),
  );
  const second = await page(c, relLink(first, "next")!);
  assert.deepEqual(names(second, "/quotes/").slice(0, 2), ["BW-0026", "BW-0027"]);
  // A specific search among them is a short list.
  assert.deepEqual(names(await page(c, "/quotes?q=bw-1099"), "/quotes/"), ["BW-1099"]);
});

test("invoices: search by number or customer; filter unpaid, overdue and paid", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.office);
  const fay = await createCustomer(t.id, { name: "Fay Invoice" });
  await createInvoice(t.id, { customerId: fay.id, number: "INV-9001", status: "sent" });
  await createInvoice(t.id, {
    customerId: fay.id,
    number: "INV-9002",
    status: "partial",
    dueDate: "2021-03-01",
    amountPaidCents: 1000,
  });
  await createInvoice(t.id, { customerId: fay.id, number: "INV-9003", status: "paid", amountPaidCents: undefined });
  await rows(`UPDATE invoices SET amount_paid_cents = total_cents WHERE tenant_id = $1 AND number = 'INV-9003'`, [
    t.id,
  ]);
  await createInvoice(t.id, { customerId: fay.id, number: "INV-9004", status: "void" });
  const numbers = (html: string) => names(html, "/invoices/").sort();
  assert.deepEqual(numbers(await page(c, "/invoices?q=9002")), ["INV-9002"]);
  assert.deepEqual(numbers(await page(c, "/invoices?q=fay")), ["INV-9001", "INV-9002", "INV-9003", "INV-9004"]);
  assert.deepEqual(numbers(await page(c, "/invoices?status=unpaid")), ["INV-9001", "INV-9002"]);
  assert.deepEqual(numbers(await page(c, "/invoices?status=overdue")), ["INV-9002"]);
  assert.deepEqual(numbers(await page(c, "/invoices?status=paid")), ["INV-9003"]);
  const row = (await page(c, "/invoices?q=9002")).match(/INV-9002[\s\S]*?<\/tr>/)![0];
  assert.match(textOf(row), /Partial Overdue/);
});

test("booking requests: search and filter; triage marks scheduled, declined or archived and refuses a wrong state", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Gus Booking" });
  const add = async (service: string, status = "new") =>
    (await one<{ id: string }>(
      `INSERT INTO booking_requests (tenant_id, customer_id, service, description, preferred_date, time_window, status)
       VALUES ($1, $2, $3, 'Please come soon', current_date + 3, 'morning', $4) RETURNING id`,
      [t.id, cust.id, service, status],
    ))!.id;
  const furnace = await add("Furnace not heating");
  const gutter = await add("Gutter cleaning");
  await add("Old request", "archived");
  const c = await clientFor(t.users.office);
  const services = (html: string) =>
    [...html.matchAll(/<strong>([^<]+)<\/strong>/g)].map((m) => m[1]).filter((s) => !/Gus/.test(s));
  assert.deepEqual(services(await page(c, "/requests?q=furnace")), ["Furnace not heating"]);
  assert.deepEqual(services(await page(c, "/requests?q=gus&status=archived")), ["Old request"]);
  assert.deepEqual(services(await page(c, "/requests?status=new")).sort(), ["Furnace not heating", "Gutter cleaning"]);

  const res = await c.post("/requests", { requestId: furnace, status: "scheduled", returnTo: "/requests?status=new" });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/requests?status=new");
  const row = await one<{ status: string; triaged_by: string; triaged_at: Date }>(
    `SELECT status, triaged_by, triaged_at FROM booking_requests WHERE tenant_id = $1 AND id = $2`,
    [t.id, furnace],
  );
  assert.equal(row?.status, "scheduled");
  assert.equal(row?.triaged_by, t.users.office.id);
  assert.ok(row?.triaged_at);
  const after = await page(c, "/requests?status=new");
  assert.deepEqual(services(after), ["Gutter cleaning"]);
  assert.match(textOf(after), /Furnace not heating” marked scheduled/);

  // A scheduled request cannot be declined: 409 with the reason, nothing changes.
  const wrong = await c.post("/requests", { requestId: furnace, status: "declined" });
  assert.equal(wrong.status, 409);
  assert.match(textOf(await wrong.text()), /already scheduled/);
  assert.equal(
    (
      await one<{ status: string }>(`SELECT status FROM booking_requests WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        furnace,
      ])
    )?.status,
    "scheduled",
  );
  assert.equal((await c.post("/requests", { requestId: gutter, status: "declined" })).status, 303);
  assert.equal((await c.post("/requests", { requestId: gutter, status: "archived" })).status, 303);
  assert.equal(
    (
      await one<{ status: string }>(`SELECT status FROM booking_requests WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        gutter,
      ])
    )?.status,
    "archived",
  );
  assert.equal((await c.post("/requests", { requestId: gutter, status: "new" })).status, 422);
  // Triage needs the CSRF token.
  assert.equal((await c.post("/requests", { requestId: gutter, status: "archived" }, { csrf: false })).status, 403);
});

test("the dashboard counts link to their filtered lists; a technician lands on their day", async () => {
  const t = await createTenantWithUsers();
  const cust = await createCustomer(t.id, { name: "Hal Dash" });
  await createJob(t.id, { customerId: cust.id, title: "Open one" });
  await createJob(t.id, { customerId: cust.id, title: "Done one", status: "completed" });
  await createQuote(t.id, { customerId: cust.id, status: "sent" });
  await createQuote(t.id, { customerId: cust.id, status: "sent", validUntil: "2020-01-01" });
  await createInvoice(t.id, {
    customerId: cust.id,
    status: "sent",
    items: [{ description: "Work", unitPriceCents: 12_345 }],
  });
  await rows(`INSERT INTO booking_requests (tenant_id, customer_id, service) VALUES ($1, $2, 'Fix sink')`, [
    t.id,
    cust.id,
  ]);
  const c = await clientFor(t.users.office);
  const html = await page(c, "/");
  const stat = (label: string) =>
    textOf(html.match(new RegExp(`<a[^>]*class="stat"[^>]*>(?:(?!</a>)[\\s\\S])*${label}[\\s\\S]*?</a>`))![0]);
  assert.match(stat("Open jobs"), /Open jobs 1\b/);
  assert.match(stat("Quotes awaiting response"), /Quotes awaiting response 1\b/);
  assert.match(stat("Unpaid total"), /\$123\.45/);
  assert.match(stat("New booking requests"), /New booking requests 1\b/);
  assert.match(stat("Customers"), /Customers 1\b/);
  for (const href of [
    "/jobs?status=open",
    "/quotes?status=sent",
    "/invoices?status=unpaid",
    "/requests?status=new",
    "/customers",
  ]) {
    assert.match(html, new RegExp(`href="${href.replace(/[?]/g, "\\?")}"`), `links to ${href}`);
  }
  const tech = await clientFor(t.users.technician);
  const res = await tech.get("/");
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/field");
});

test("empty lists say what to do next", async () => {
  const t = await createTenantWithUsers();
  const c = await clientFor(t.users.office);
  const customers = textOf(await page(c, "/customers"));
  assert.match(customers, /No customers yet: import them/);
  assert.match(await page(c, "/customers"), /href="\/import-data\?type=customers"/);
  assert.match(textOf(await page(c, "/jobs")), /No jobs yet: create one or import them/);
  assert.match(textOf(await page(c, "/quotes")), /No quotes yet: import them/);
  assert.match(textOf(await page(c, "/invoices")), /No invoices yet: import them/);
  assert.match(textOf(await page(c, "/requests")), /No booking requests yet/);
  assert.match(textOf(await page(c, "/")), /No customers yet: import them/);
});
