import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { JS_MODES, screenshot, signIn, SKIP_BROWSER, withBrowser, phoneContext, PHONE } from "../helpers/browser";
import { BASE_URL } from "../helpers/client";
import { one } from "../../db/index";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createTenantWithUsers,
  DEFAULT_PASSWORD,
} from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";

// Issue 26, point 7: the office on a 390 px phone. The menu is a disclosure (no JavaScript
// needed), the page's own content is in the first screen, a quote's line items show every
// column, and list tables scroll sideways with their first column held in place.

async function seed() {
  const t = await createTenantWithUsers("Northside Plumbing & Drain");
  const names = ["Margaret Okonkwo-Fitzgerald", "Lakeside Apartments HOA", "Dr. Priya Raman"];
  const customers = [];
  for (const name of names) customers.push(await createCustomer(t.id, { name }));
  for (const [i, c] of customers.entries()) {
    await createJob(t.id, {
      customerId: c.id,
      title: `Replace corroded water heater venting, unit ${i + 1}`,
      assigneeId: t.users.technician.id,
    });
  }
  const quote = await createQuote(t.id, {
    customerId: customers[0].id,
    items: [
      { description: "50 gal power-vent gas water heater, installed", unitPriceCents: 245_000, taxRate: "8.25" },
      {
        description: "Vent pipe replacement allowance (B-vent, up to 15 ft)",
        quantity: "1",
        unitPriceCents: 48_000,
        taxRate: "8.25",
      },
      { description: "Labour (hours)", quantity: "3.5", unitPriceCents: 12_500 },
    ],
  });
  return { t, quote };
}

/** Whether the element's box lies inside the viewport's width (nothing cut off on the right). */
async function insideWidth(page: Page, selector: string) {
  const boxes = await page
    .locator(selector)
    .evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, width: r.width })),
    );
  return boxes;
}

describe("browser: office pages on a phone", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    test(`390 px: menu button, content first, every line-item column, lists that scroll (${mode.label})`, async () => {
      const { t, quote } = await seed();
      const tag = mode.javaScript ? "js" : "nojs";
      const context = await phoneContext(browser, { javaScript: mode.javaScript });
      try {
        const page = await context.newPage();
        await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);

        // The dashboard: no sidebar, a menu button, and the page's heading in the first screen.
        await page.goto("/");
        const heading = page.getByRole("heading", { level: 1 });
        await heading.waitFor();
        assert.equal(await page.locator(".sidebar").isVisible(), false, "the sidebar gives way on a phone");
        const menu = page.locator("details.phone-menu > summary");
        assert.ok(await menu.isVisible(), "a menu button");
        const box = (await heading.boundingBox())!;
        assert.ok(
          box.y + box.height <= PHONE.height / 2,
          `the page's heading sits in the top half of the first screen (at ${box.y})`,
        );
        await screenshot(page, `phone-dashboard-${tag}`);

        // The menu opens without JavaScript and leads to a list.
        await menu.click();
        const customersLink = page.locator("details.phone-menu").getByRole("link", { name: "Jobs", exact: true });
        assert.ok(await customersLink.isVisible(), "the menu shows the navigation");
        await screenshot(page, `phone-menu-open-${tag}`);
        await Promise.all([page.waitForURL((u) => u.pathname === "/jobs"), customersLink.click()]);

        // A list: the table scrolls sideways, its first column stays in place.
        await page.locator("table").first().waitFor();
        const first = page.locator(".table-wrap table tbody tr td:first-child").first();
        assert.equal(
          await first.evaluate((e) => getComputedStyle(e).position),
          "sticky",
          "the first column is held while the table scrolls",
        );
        const wrap = page.locator(".table-wrap").first();
        const scrolls = await wrap.evaluate(
          (e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).overflowX === "auto",
        );
        assert.ok(scrolls, "the jobs table scrolls sideways inside its frame instead of widening the page");
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(pageWidth <= PHONE.width, `the page itself does not scroll sideways (${pageWidth} px)`);
        await screenshot(page, `phone-jobs-${tag}`);

        // A quote: every column of every line item inside the screen's width, with its label.
        await page.goto(`/quotes/${quote.id}`);
        await page.locator("table.line-items").waitFor();
        const cells = await insideWidth(page, "table.line-items tbody td");
        assert.equal(cells.length, 15, "three lines of five columns");
        for (const c of cells)
          assert.ok(c.width > 0 && c.left >= 0 && c.right <= PHONE.width, `a cell is cut off: ${JSON.stringify(c)}`);
        const text = await page.locator("table.line-items").innerText();
        for (const expected of ["QTY", "UNIT PRICE", "TAX", "AMOUNT", "$2,450.00", "$480.00", "3.5", "8.25%"]) {
          assert.ok(text.toUpperCase().includes(expected.toUpperCase()), `${expected} is on the quote page`);
        }
        await screenshot(page, `phone-quote-${tag}`);
      } finally {
        await context.close();
      }
    });
  }

  test("390 px: no office page scrolls sideways, record pages with payments, portal links and time entries included", async () => {
    const t = await createTenantWithUsers("Northside Plumbing & Drain");
    const portal = await portalSetup({ tenant: t, customerName: "Margaret Okonkwo-Fitzgerald" });
    const customer = portal.customer;
    const job = await createJob(t.id, {
      customerId: customer.id,
      title: "Replace corroded water heater venting and flue collar",
      assigneeId: t.users.technician.id,
      status: "completed",
    });
    await one(
      `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note) VALUES ($1, $2, $3, now() - interval '3 hours', now() - interval '1 hour', 'Flue collar replaced, CO test passed') RETURNING id`,
      [t.id, job.id, t.users.technician.id],
    );
    const quote = await createQuote(t.id, { customerId: customer.id });
    const invoice = await createInvoice(t.id, { customerId: customer.id, status: "partial", amountPaidCents: 50_000 });
    await one(
      `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 50000, 'USD', 'check', 'CHK-100245-NORTHSIDE-BANK') RETURNING id`,
      [t.id, invoice.id],
    );
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      const pages = [
        ["/", "dashboard"],
        ["/customers", "customers"],
        ["/jobs?status=all", "jobs"],
        ["/quotes", "quotes"],
        ["/invoices", "invoices"],
        ["/schedule?view=week", "schedule"],
        ["/requests", "requests"],
        ["/reports", "reports"],
        ["/team", "team"],
        ["/settings/company", "settings"],
        [`/customers/${customer.id}`, "customer"],
        [`/jobs/${job.id}`, "job"],
        [`/quotes/${quote.id}`, "quote"],
        [`/invoices/${invoice.id}`, "invoice"],
      ];
      for (const [path, name] of pages) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1 }).waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        // A failure leaves a full-page screenshot showing what sticks out.
        if (width > PHONE.width) await screenshot(page, `phone-overflow-${name}`);
        assert.ok(
          width <= PHONE.width,
          `${path} scrolls sideways on a phone (${width} px wide; see phone-overflow-${name}.png)`,
        );
        if (name === "invoice" || name === "job" || name === "customer") await screenshot(page, `phone-record-${name}`);
      }
    } finally {
      await context.close();
    }
  });

  test("on a desktop the sidebar shows and the phone menu does not", async () => {
    const { t } = await seed();
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      await page.goto("/");
      assert.ok(await page.locator(".sidebar").isVisible());
      assert.equal(await page.locator("details.phone-menu").isVisible(), false);
    } finally {
      await context.close();
    }
  });
});
