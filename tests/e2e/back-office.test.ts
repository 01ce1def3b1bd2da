import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { BASE_URL } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
  DEFAULT_PASSWORD,
} from "../helpers/fixtures";

// The back office in a browser, with JavaScript off and on: search customers, open one, open
// a quote, make a portal link, triage a booking request; then an invite accepted.

async function seed(label: string) {
  const t = await createTenantWithUsers(`Summit Plumbing ${label}`);
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
  const rosa = await createCustomer(t.id, {
    name: "Rosa Marquez",
    email: `rosa-${label}@example.test`,
    phone: "555-0142",
    company: "Marquez Bakery",
  });
  for (const name of ["Ada Byrne", "Ben Okafor", "Chloé Martin", "Dev Patel"]) await createCustomer(t.id, { name });
  await createJob(t.id, {
    customerId: rosa.id,
    title: "Replace 50 gal water heater",
    assigneeId: t.users.technician.id,
  });
  const quote = await createQuote(t.id, {
    customerId: rosa.id,
    number: `Q-${label}-1042`,
    items: [
      { description: "50 gal gas water heater", unitPriceCents: 145_000, taxRate: "8.25" },
      { description: "Labour (hours)", quantity: "3", unitPriceCents: 12_500 },
      { description: "Haul away old unit", unitPriceCents: 7_500 },
    ],
  });
  await createInvoice(t.id, {
    customerId: rosa.id,
    number: `INV-${label}-2001`,
    status: "partial",
    amountPaidCents: 50_000,
  });
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, description, preferred_date, time_window, address, phone)
     VALUES ($1, $2, 'Furnace not heating', 'The furnace clicks but never lights. Two kids at home.', current_date + 2, 'morning', '48 Oak Lane', '555-0142')
     RETURNING id`,
    [t.id, rosa.id],
  );
  return { t, rosa, quote, requestId: request!.id };
}

const clickAndWait = (page: Page, url: (u: URL) => boolean, click: () => Promise<void>) =>
  Promise.all([page.waitForURL(url), click()]);

describe("browser: back office", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`search customers, open one, open a quote, create a portal link, triage a booking request (${mode.label})`, async () => {
      const { t, rosa, quote, requestId } = await seed(tag);
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
      await screenshot(page, `back-office-dashboard-${tag}`);

      await page.getByRole("link", { name: "Customers" }).first().click();
      await page.waitForURL((u) => u.pathname === "/customers");
      await page.getByLabel("Search").fill("marquez");
      await clickAndWait(
        page,
        (u) => u.searchParams.get("q") === "marquez",
        () => page.getByRole("button", { name: "Search" }).click(),
      );
      await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 1);
      assert.match(await page.locator("tbody").innerText(), /Rosa Marquez\s+Marquez Bakery/, "one customer matches");
      await screenshot(page, `back-office-customers-search-${tag}`);

      await clickAndWait(
        page,
        (u) => u.pathname === `/customers/${rosa.id}`,
        () => page.getByRole("link", { name: "Rosa Marquez" }).click(),
      );
      await page.locator("h1", { hasText: "Rosa Marquez" }).waitFor();
      assert.match(await page.locator("body").innerText(), /Replace 50 gal water heater/);
      await screenshot(page, `back-office-customer-${tag}`);

      await clickAndWait(
        page,
        (u) => u.pathname === `/quotes/${quote.id}`,
        () => page.getByRole("link", { name: quote.number }).click(),
      );
      await page.getByText("Haul away old unit").waitFor();
      const quoteText = await page.locator("body").innerText();
      assert.match(quoteText, /Haul away old unit/);
      assert.match(quoteText, /\$2,019\.63/, "the total with tax");
      await page.getByLabel("Valid for (days)").fill("14");
      await clickAndWait(
        page,
        (u) => u.searchParams.has("link"),
        () => page.getByRole("button", { name: "Create portal link" }).click(),
      );
      const url = await page.getByLabel("New portal link URL").inputValue();
      assert.ok(url.startsWith(`${BASE_URL}/portal/`), url);
      await screenshot(page, `back-office-quote-${tag}`);

      await clickAndWait(
        page,
        (u) => u.pathname === "/requests",
        () => page.getByRole("link", { name: "Booking requests" }).click(),
      );
      await page.locator("h1", { hasText: "Booking requests" }).waitFor();
      await screenshot(page, `back-office-requests-before-${tag}`);
      const form = page.getByRole("form", { name: /Triage Furnace not heating/ });
      await Promise.all([
        page.waitForSelector("text=marked scheduled"),
        form.getByRole("button", { name: "Mark scheduled" }).click(),
      ]);
      const status = await one<{ status: string }>(
        `SELECT status FROM booking_requests WHERE tenant_id = $1 AND id = $2`,
        [t.id, requestId],
      );
      assert.equal(status?.status, "scheduled");
      assert.match(await page.locator("tbody").innerText(), /Scheduled/);
      await screenshot(page, `back-office-requests-after-${tag}`);
      await context.close();
    });

    test(`every back-office page opens from the navigation, in the layout, without browser errors (${mode.label})`, async () => {
      const { t, rosa, quote } = await seed(`tour-${tag}`);
      const job = await one<{ id: string }>(`SELECT id FROM jobs WHERE tenant_id = $1`, [t.id]);
      await rows(
        `INSERT INTO job_notes (tenant_id, job_id, author_id, body) VALUES ($1, $2, $3, 'Customer asked for a call 30 minutes before arrival.')`,
        [t.id, job!.id, t.users.technician.id],
      );
      await rows(
        `INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status) VALUES ($1, $2, $3, 'scheduled', 'en_route')`,
        [t.id, job!.id, t.users.technician.id],
      );
      await rows(
        `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note) VALUES ($1, $2, $3, now() - interval '2 hours', now() - interval '35 minutes', 'Drained and removed the old tank')`,
        [t.id, job!.id, t.users.technician.id],
      );
      const invoice = await one<{ id: string }>(`SELECT id FROM invoices WHERE tenant_id = $1`, [t.id]);
      await rows(
        `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 50000, 'USD', 'sandbox', 'SBX-7F3A2C')`,
        [t.id, invoice!.id],
      );
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => (m.type() === "error" ? errors.push(m.text()) : undefined));
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      const visits: Array<[string, string, string]> = [
        ["Jobs", "/jobs", "Jobs"],
        ["Quotes", "/quotes", "Quotes"],
        ["Invoices", "/invoices", "Invoices"],
        ["Booking requests", "/requests", "Booking requests"],
        ["Team", "/team", "Team"],
        ["Customers", "/customers", "Customers"],
      ];
      for (const [link, path, heading] of visits) {
        await clickAndWait(
          page,
          (u) => u.pathname === path,
          () => page.locator("nav").getByRole("link", { name: link, exact: true }).click(),
        );
        await page.locator("h1", { hasText: heading }).waitFor();
        await screenshot(page, `back-office-tour-${path.slice(1)}-${tag}`);
      }
      for (const [path, heading] of [
        [`/jobs/${job!.id}`, "Replace 50 gal water heater"],
        [`/invoices/${invoice!.id}`, "Invoice"],
        [`/customers/${rosa.id}`, "Rosa Marquez"],
        [`/quotes/${quote.id}`, "Quote"],
      ]) {
        await page.goto(path);
        await page.locator("h1", { hasText: heading }).waitFor();
        await screenshot(page, `back-office-tour-${path.split("/")[1]}-detail-${tag}`);
      }
      assert.deepEqual(errors, [], "no errors in the browser");
      await context.close();
    });

    test(`team: invite a member who sets a password and lands on their day (${mode.label})`, async () => {
      const t = await createTenantWithUsers();
      const member = await createUser(t.id, { role: "technician", password: null, name: "Sky Imported" });
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      await page.goto("/team");
      await screenshot(page, `back-office-team-${tag}`);
      const row = page.locator("tr", { hasText: "Sky Imported" });
      await clickAndWait(
        page,
        (u) => u.pathname === `/team/${member.id}/invite`,
        () => row.getByRole("button", { name: "Create invite link" }).click(),
      );
      const invite = await page.getByLabel("Invite link").inputValue();
      await screenshot(page, `back-office-invite-created-${tag}`);

      const memberContext = await newContext(browser, mode);
      const memberPage = await memberContext.newPage();
      await memberPage.goto(new URL(invite).pathname);
      await screenshot(memberPage, `back-office-invite-accept-${tag}`);
      await memberPage.getByLabel("Password").fill("sky-is-the-limit-2026");
      await clickAndWait(
        memberPage,
        (u) => u.pathname === "/field",
        () => memberPage.getByRole("button", { name: "Set password and sign in" }).click(),
      );
      await memberPage.goto("/jobs");
      await memberPage.locator("h1", { hasText: "My jobs" }).waitFor();
      await memberPage.goto(new URL(invite).pathname);
      await memberPage.getByText("already been used").waitFor();
      await screenshot(memberPage, `back-office-invite-used-${tag}`);
      await memberContext.close();
      await context.close();
    });
  }
});
