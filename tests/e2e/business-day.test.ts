import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import { BASE_URL } from "../helpers/client";
import { JS_MODES, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createUser, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The business day by hand (issue 16, first acceptance point), with JavaScript off and on: a
// plumbing firm signs up, sets its company details and price book, and runs one job from the
// phone call to the paid invoice through the real pages: new customer -> quote with three lines
// (one optional, one from the price book) -> send -> the customer approves in the portal ->
// convert to job -> schedule and assign on /schedule -> the technician completes it in /field ->
// create invoice -> send -> part paid in the portal, the rest by check at the office -> paid;
// and every record's history tells the story.

const ZONE = "America/Chicago";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const todayIn = (tz: string, plusDays = 0) => {
  const d = new Intl.DateTimeFormat("en-CA", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  return new Date(Date.parse(`${d}T00:00:00Z`) + plusDays * 86_400_000).toISOString().slice(0, 10);
};

/** A desktop and a phone screenshot of the page as it is. */
async function shots(page: Page, name: string) {
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Clicks a button or link and waits for the next page at `path` (a full load without JavaScript, a navigation with it). */
async function go(page: Page, click: () => Promise<void>, path: RegExp) {
  await Promise.all([page.waitForURL((u) => path.test(u.pathname + u.search)), click()]);
  await page.waitForLoadState("load");
}

/** Waits (up to 30 s) until `read` gives what `ok` accepts, and answers it: for changes a page posts with JavaScript. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 300 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

const historyOf = (page: Page) => page.getByRole("list", { name: /History, newest first/ }).innerText();

describe("browser: the business day by hand, from the phone call to the paid invoice", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`the whole day (${mode.label})`, { timeout: 300_000 }, async () => {
      const contexts: BrowserContext[] = [];
      const open = async (viewport = DESKTOP, mobile = false) => {
        const c = await browser.newContext({
          javaScriptEnabled: mode.javaScript,
          baseURL: BASE_URL,
          viewport,
          timezoneId: ZONE,
          isMobile: mobile,
          hasTouch: mobile,
        });
        contexts.push(c);
        return c.newPage();
      };
      try {
        const stamp = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
        const ownerEmail = `olive-${stamp}@example.test`;
        const customerEmail = `ann-${stamp}@example.test`;

        // ---- Sign up: the time zone is the browser's with JavaScript, UTC without.
        const office = await open();
        await office.goto("/signup");
        const zone = office.getByLabel("Time zone");
        if (mode.javaScript)
          await office.waitForFunction(
            () => (document.getElementById("field-timeZone") as HTMLSelectElement | null)?.value === "America/Chicago",
          );
        assert.equal(await zone.inputValue(), mode.javaScript ? ZONE : "UTC", "the time zone preselected");
        await office.getByLabel("Business name").fill("Summit Plumbing");
        await office.getByLabel("Your name").fill("Olive Owner");
        await office.getByLabel("Email").fill(ownerEmail);
        await office.getByLabel("Password").fill("summit-plumbing-2026");
        if (!mode.javaScript) await zone.selectOption(ZONE);
        await shots(office, `day-signup-${tag}`);
        await go(office, () => office.getByRole("button", { name: "Create account" }).click(), /^\/$/);
        const tenant = await one<{ id: string; time_zone: string }>(
          `SELECT t.id, t.time_zone FROM tenants t JOIN users u ON u.tenant_id = t.id WHERE u.email = $1`,
          [ownerEmail],
        );
        assert.equal(tenant?.time_zone, ZONE);
        const tech = await createUser(tenant!.id, {
          role: "technician",
          name: "Eli Moreau",
          email: `eli-${stamp}@example.test`,
        });

        // ---- Company settings: contact details and the defaults documents start from.
        await go(
          office,
          () => office.getByRole("link", { name: "Company", exact: true }).click(),
          /^\/settings\/company$/,
        );
        assert.equal(await office.getByLabel("Time zone").inputValue(), ZONE);
        await office.getByLabel("Phone").fill("555-0100");
        await office.getByLabel("Email").fill(`office-${stamp}@example.test`);
        await office.getByLabel("Address").fill("1 Main Street, Springfield");
        await office.getByLabel("Default tax rate (%)").fill("8.25");
        await office.getByLabel("Payment terms (days)").fill("21");
        await office.getByLabel("Quote validity (days)").fill("45");
        await office.getByRole("button", { name: "Save company settings" }).click();
        await office.getByText("Company settings saved").waitFor();
        await shots(office, `day-company-${tag}`);

        // ---- Price book.
        await go(office, () => office.getByRole("link", { name: "Price book" }).click(), /^\/settings\/price-book/);
        await office.getByLabel("Name", { exact: true }).fill("Water heater flush");
        await office.getByLabel("Unit price").fill("149.00");
        await office.getByLabel("Tax rate (%)").fill("8.25");
        await office.getByRole("button", { name: "Add to price book" }).click();
        await office
          .getByRole("cell", { name: /Water heater flush/ })
          .first()
          .waitFor();

        // ---- The phone call: a new customer.
        await go(office, () => office.getByRole("link", { name: "Customers", exact: true }).click(), /^\/customers/);
        await go(office, () => office.getByRole("link", { name: "New customer" }).click(), /^\/customers\/new/);
        await office.getByLabel("Name").fill("Ann Customer");
        await office.getByLabel("Email").fill(customerEmail);
        await office.getByLabel("Phone").fill("555-0199");
        await office.getByLabel("Street address").fill("12 Elm Street");
        await go(
          office,
          () => office.getByRole("button", { name: "Create customer" }).click(),
          /^\/customers\/[0-9a-f-]{36}$/,
        );
        const customerPath = new URL(office.url()).pathname;

        // ---- A quote with three lines: labour, an optional haul-away, a flush from the price book.
        await go(office, () => office.getByRole("link", { name: "New quote" }).first().click(), /^\/quotes\/new/);
        assert.equal(
          await office.getByLabel("Valid until").inputValue(),
          todayIn(ZONE, 45),
          "valid until: today + the company's quote validity",
        );
        assert.equal(await office.getByLabel("Tax %, line 1").inputValue(), "8.25", "the company's default tax rate");
        await office.getByLabel("Title").fill("Water heater service");
        await office.getByLabel("Description, line 1").fill("Labour");
        await office.getByLabel("Qty, line 1").fill("2");
        await office.getByLabel("Unit price, line 1").fill("95.00");
        await office.getByLabel("Tax %, line 1").fill("0");
        await office.getByRole("button", { name: "Add line" }).click();
        await office.getByLabel("Description, line 2").waitFor();
        await office.getByLabel("Description, line 2").fill("Haul away the old tank");
        await office.getByLabel("Unit price, line 2").fill("40");
        await office.getByLabel("Tax %, line 2").fill("0");
        await office.getByLabel("Optional, line 2").check();
        await office.getByLabel("Item from the price book").selectOption({ label: "Water heater flush · $149.00" });
        await office.getByRole("button", { name: "Add item" }).click();
        await office.getByLabel("Description, line 3").waitFor();
        assert.equal(await office.getByLabel("Unit price, line 3").inputValue(), "149.00");
        await shots(office, `day-quote-builder-${tag}`);
        await go(office, () => office.getByRole("button", { name: "Save quote" }).click(), /^\/quotes\/[0-9a-f-]{36}$/);
        await office.getByRole("heading", { name: /Quote Q-0001/ }).waitFor();
        // 2 x 95.00 + 149.00 + 8.25% of 149.00 (12.29); the optional line is not counted.
        assert.match(await office.locator("body").innerText(), /\$351\.29/);
        const quotePath = new URL(office.url()).pathname;

        // ---- Send: the portal link and a ready message.
        await office.getByRole("link", { name: "Send", exact: true }).click();
        // The message as the customer will read it, before it goes.
        await office.getByRole("heading", { name: "Send quote Q-0001" }).waitFor();
        assert.match(await office.locator(".message-preview").innerText(), /Here is your quote Q-0001/);
        await office.getByRole("button", { name: "Send", exact: true }).click();
        await office.getByRole("heading", { name: "Send it to the customer" }).waitFor();
        const quoteLink = await office.getByLabel("Portal link", { exact: true }).inputValue();
        assert.match(quoteLink, /\/portal\//);
        await shots(office, `day-quote-sent-${tag}`);

        // ---- The customer approves on their phone.
        const customer = await open(PHONE, true);
        await customer.goto(new URL(quoteLink).pathname);
        await customer.getByLabel("Your full name (your signature)").fill("Ann Customer");
        await customer.getByLabel(/I accept this quote/).check();
        await customer.getByRole("button", { name: "Approve and sign" }).click();
        await customer
          .getByText(/Thank you! Quote Q-0001 is approved/)
          .first()
          .waitFor();
        await screenshot(customer, `day-portal-approved-phone-${tag}`);

        // ---- The office converts it to a job.
        await office.goto(quotePath);
        await go(
          office,
          () => office.getByRole("button", { name: "Convert to job" }).click(),
          /^\/jobs\/[0-9a-f-]{36}$/,
        );
        const jobPath = new URL(office.url()).pathname;
        const jobId = jobPath.split("/")[2];

        // ---- Schedule and assign on the board: today 9:00-11:00 in the company's zone, with Eli.
        const today = todayIn(ZONE);
        await go(
          office,
          () => office.getByRole("link", { name: "Schedule", exact: true }).first().click(),
          /^\/schedule/,
        );
        await office.locator(`article[data-job-id="${jobId}"]`).getByRole("link", { name: /Move/ }).click();
        await office.getByLabel("Technician", { exact: true }).selectOption({ label: "Eli Moreau" });
        await office.getByLabel("Start", { exact: true }).fill(`${today}T09:00`);
        await office.getByLabel("End", { exact: true }).fill(`${today}T11:00`);
        await office.getByRole("button", { name: "Save schedule" }).click();
        await office.waitForURL((u) => u.pathname === "/schedule");
        await office
          .getByRole("status")
          .filter({ hasText: /booked .*9:00–11:00 AM, with Eli Moreau/ })
          .first()
          .waitFor();
        await shots(office, `day-schedule-${tag}`);
        const scheduled = await one<{ status: string; assignee_id: string }>(
          `SELECT status, assignee_id FROM jobs WHERE tenant_id = $1 AND id = $2`,
          [tenant!.id, jobId],
        );
        assert.deepEqual(scheduled, { status: "scheduled", assignee_id: tech.id });

        // ---- The technician works it in the field app.
        const field = await open(PHONE, true);
        await signIn(field, tech.email, DEFAULT_PASSWORD);
        if (new URL(field.url()).pathname !== "/field") await field.goto("/field");
        const card = () =>
          field.locator("article.job-card", { has: field.getByRole("heading", { name: "Water heater service" }) });
        const stored = () =>
          one<{ status: string; notes: number; times: number }>(
            `SELECT j.status, (SELECT count(*)::int FROM job_notes n WHERE n.tenant_id = j.tenant_id AND n.job_id = j.id) AS notes,
                    (SELECT count(*)::int FROM time_entries e WHERE e.tenant_id = j.tenant_id AND e.job_id = j.id) AS times
               FROM jobs j WHERE j.tenant_id = $1 AND j.id = $2`,
            [tenant!.id, jobId],
          );
        /** Clicks a field action; without JavaScript the page says it is done, with it the change reaches the server (synced). */
        const step = async (
          button: string,
          done: string | RegExp,
          reached: (s: { status: string; notes: number; times: number }) => boolean,
        ) => {
          await card().getByRole("button", { name: button }).click();
          if (!mode.javaScript) await field.getByText(done).first().waitFor();
          for (let i = 0; i < 300 && !reached((await stored())!); i++) await new Promise((r) => setTimeout(r, 100));
          assert.ok(reached((await stored())!), `${button}: ${JSON.stringify(await stored())}`);
          if (mode.javaScript) await field.waitForFunction(() => !document.querySelector(".sync-waiting"));
        };
        if (mode.javaScript) await field.getByText("All changes synced").waitFor();
        await step("On my way", "Job marked on the way.", (s) => s.status === "en_route");
        await step("Start work", "Job marked in progress.", (s) => s.status === "in_progress");
        await card().getByLabel("Add a note").fill("Tank flushed; anode rod fine.");
        await step("Save note", "Note saved.", (s) => s.notes === 1);
        // The job's one clock runs from On my way (issue 21); Complete stops it into the time entry.
        await card().getByText("On site since").waitFor();
        await screenshot(field, `day-field-phone-${tag}`);
        await step("Complete job", "Job marked completed.", (s) => s.status === "completed" && s.times === 1);
        const worked = await one<{ status: string; times: number }>(
          `SELECT j.status, (SELECT count(*)::int FROM time_entries e WHERE e.tenant_id = j.tenant_id AND e.job_id = j.id) AS times FROM jobs j WHERE j.tenant_id = $1 AND j.id = $2`,
          [tenant!.id, jobId],
        );
        assert.deepEqual(worked, { status: "completed", times: 1 });

        // ---- The office invoices the job and sends it.
        await office.goto(jobPath);
        await go(
          office,
          () => office.getByRole("button", { name: "Create invoice" }).click(),
          /^\/invoices\/[0-9a-f-]{36}/,
        );
        await office.getByRole("heading", { name: /INV-0001/ }).waitFor();
        const invoicePath = new URL(office.url()).pathname;
        const invoiceId = invoicePath.split("/")[2];
        const draft = await office.locator("body").innerText();
        assert.match(draft, /INV-0001/);
        assert.match(draft, /Water heater flush/);
        assert.match(draft, /Labour/);
        const terms = await one<{ issue_date: string; due_date: string; total_cents: number }>(
          `SELECT issue_date::text, due_date::text, total_cents::int FROM invoices WHERE tenant_id = $1 AND id = $2`,
          [tenant!.id, invoiceId],
        );
        assert.equal(
          terms?.due_date,
          new Date(Date.parse(`${terms!.issue_date}T00:00:00Z`) + 21 * 86_400_000).toISOString().slice(0, 10),
          "due: issue date + the company's payment terms",
        );
        await office.getByRole("link", { name: "Send", exact: true }).click();
        await office.getByRole("heading", { name: /^Send invoice INV-\d+$/ }).waitFor();
        await office.getByRole("button", { name: "Send", exact: true }).click();
        await office.getByRole("heading", { name: "Send it to the customer" }).waitFor();
        const invoiceLink = await office.getByLabel("Portal link", { exact: true }).inputValue();
        await shots(office, `day-invoice-sent-${tag}`);

        // ---- The customer pays part of it in the portal.
        await customer.goto(new URL(invoiceLink).pathname);
        await customer.getByLabel("Amount to pay (USD)").fill("100.00");
        await customer.getByRole("button", { name: "Record sandbox payment" }).click();
        const afterPortal = await eventually(
          () =>
            one<{ status: string; paid: number }>(
              `SELECT status, (SELECT coalesce(sum(amount_cents), 0)::int FROM payments p WHERE p.tenant_id = i.tenant_id AND p.invoice_id = i.id) AS paid FROM invoices i WHERE tenant_id = $1 AND id = $2`,
              [tenant!.id, invoiceId],
            ),
          (v) => v?.status === "partial",
        );
        await customer
          .getByText(/\$100\.00/)
          .first()
          .waitFor();
        await screenshot(customer, `day-portal-paid-part-phone-${tag}`);
        assert.deepEqual(afterPortal, { status: "partial", paid: 10_000 });

        // ---- The rest by check at the office.
        await office.goto(invoicePath);
        const balance = terms!.total_cents - 10_000;
        const amount = office.getByLabel("Amount", { exact: true });
        assert.equal(await amount.inputValue(), (balance / 100).toFixed(2), "the balance is offered");
        await office.getByLabel("Method").selectOption({ label: "Check" });
        await office.getByLabel("Reference").fill("Check 1042");
        await office.getByRole("button", { name: "Record payment" }).click();
        await office
          .getByRole("list", { name: /History, newest first/ })
          .getByText(/^Paid in full/)
          .waitFor();
        const paidPage = await office.locator("body").innerText();
        assert.match(paidPage, /Paid/);
        const paid = await one<{ status: string; paid: number }>(
          `SELECT status, (SELECT sum(amount_cents)::int FROM payments p WHERE p.tenant_id = i.tenant_id AND p.invoice_id = i.id) AS paid FROM invoices i WHERE tenant_id = $1 AND id = $2`,
          [tenant!.id, invoiceId],
        );
        assert.deepEqual(paid, { status: "paid", paid: terms!.total_cents });
        await shots(office, `day-invoice-paid-${tag}`);

        // ---- Every record's history tells the story, newest first.
        const story = {
          invoice: await historyOf(office),
          quote: await (await office.goto(quotePath), historyOf(office)),
          job: await (await office.goto(jobPath), historyOf(office)),
          customer: await (await office.goto(customerPath), historyOf(office)),
        };
        assert.match(story.customer, /Created by Olive Owner/);
        assert.match(
          story.quote,
          /Converted to a job by Olive Owner[\s\S]*Approved in the portal[^\n]* by Ann Customer[\s\S]*Sent by Olive Owner[\s\S]*Created by Olive Owner/,
        );
        assert.match(
          story.job,
          /Invoice INV-0001 created by Olive Owner[\s\S]*Marked completed by Eli Moreau[\s\S]*Marked in progress by Eli Moreau[\s\S]*Marked en route by Eli Moreau[\s\S]*9:00–11:00 AM, with Eli Moreau by Olive Owner[\s\S]*Created from quote Q-0001 by Olive Owner/,
        );
        assert.match(
          story.invoice,
          /Paid in full[\s\S]*\$[\d,.]+ by check[\s\S]*\$100\.00[\s\S]*Sent by Olive Owner[\s\S]*Created from job/i,
        );
        await shots(office, `day-customer-${tag}`);

        const counts = await rows<{ record_type: string; n: number }>(
          `SELECT record_type, count(*)::int AS n FROM record_history WHERE tenant_id = $1 GROUP BY record_type ORDER BY record_type`,
          [tenant!.id],
        );
        for (const type of ["customer", "quote", "job", "invoice"])
          assert.ok(
            counts.some((c) => c.record_type === type && c.n > 0),
            `history of the ${type}`,
          );
      } finally {
        for (const c of contexts) await c.close();
      }
    });
  }
});
