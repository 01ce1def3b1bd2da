import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one } from "../../db/index";
import { BASE_URL } from "../helpers/client";
import {
  expectNoSeriousAxeViolations,
  JS_MODES,
  screenshot,
  SKIP_BROWSER,
  withBrowser,
  phoneContext,
} from "../helpers/browser";
import { createInvoice, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";

const inAWeek = () => new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);

/** Clicks a submit button and waits for what the customer then sees (a new page, or the card's message with JavaScript). */
async function submit(page: Page, button: string, expect: RegExp) {
  await page.getByRole("button", { name: button }).click();
  await page.getByText(expect).first().waitFor();
}

describe("browser: the customer portal on a phone", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`open a link, approve a quote, pay part of an invoice, send a booking request (${mode.label})`, async () => {
      const tenant = await createTenantWithUsers("Northside Heating & Air");
      const s = await portalSetup({ tenant, customerName: "Jamie Rivera" });
      const quote = await createQuote(tenant.id, { customerId: s.customer.id });
      const invoice = await createInvoice(tenant.id, {
        customerId: s.customer.id,
        items: [
          { description: "Furnace tune-up", unitPriceCents: 18_900 },
          { description: "Replacement filter (MERV 13)", quantity: "2", unitPriceCents: 2_450, taxRate: "8.25" },
        ],
      });
      const context = await phoneContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();

      await page.goto(s.url);
      assert.match(await page.locator(".portal-business").innerText(), /Northside Heating & Air/);
      assert.match(await page.locator("body").innerText(), /Sandbox payment: no money moves/);
      await screenshot(page, `portal-hub-phone-${tag}`);

      // Approve: the signature is required and said beside the field; then approved once.
      await submit(page, "Approve and sign", /Type your full name to sign the quote/);
      assert.match(await page.locator("body").innerText(), /Tick the box to accept/);
      await screenshot(page, `portal-approve-errors-phone-${tag}`);
      await page.getByLabel("Your full name (your signature)").fill("Jamie Rivera");
      await page.getByLabel(/I accept this quote/).check();
      await submit(page, "Approve and sign", /Thank you! Quote .* is approved/);
      assert.equal(new URL(page.url()).searchParams.get("done"), "quote-approved");
      assert.match(await page.locator(`#quote-${quote.id}`).innerText(), /Approved by Jamie Rivera on/);
      const approved = await one<{ status: string; approved_name: string }>(
        `SELECT status, approved_name FROM quotes WHERE tenant_id = $1 AND id = $2`,
        [tenant.id, quote.id],
      );
      assert.deepEqual(approved, { status: "approved", approved_name: "Jamie Rivera" });
      await screenshot(page, `portal-approved-phone-${tag}`);

      // Pay part of the invoice ($189.00 + $49.00 + $4.04 tax = $242.04).
      const amount = page.getByLabel("Amount to pay (USD)");
      assert.equal(await amount.inputValue(), "242.04", "the balance is offered");
      await amount.fill("300");
      await submit(page, "Record sandbox payment", /The balance is \$242\.04/);
      await page.getByLabel("Amount to pay (USD)").fill("100.00");
      await submit(
        page,
        "Record sandbox payment",
        /Sandbox payment recorded on invoice .*Balance still due: \$142\.04/,
      );
      const paid = await one<{ status: string; amount_paid_cents: number }>(
        `SELECT status, amount_paid_cents FROM invoices WHERE tenant_id = $1 AND id = $2`,
        [tenant.id, invoice.id],
      );
      assert.deepEqual(paid, { status: "partial", amount_paid_cents: 10_000 });
      assert.match(await page.locator(`#invoice-${invoice.id}`).innerText(), /SBX-[0-9A-F]{12}/);
      // The form starts afresh: the new balance offered, the earlier error gone.
      assert.equal(await page.getByLabel("Amount to pay (USD)").inputValue(), "142.04");
      assert.equal(await page.locator(`#amount-${invoice.id}-error`).count(), 0);
      await page.locator(`#invoice-${invoice.id}`).scrollIntoViewIfNeeded();
      await screenshot(page, `portal-paid-part-phone-${tag}`);

      // Send a booking request.
      await page.getByLabel("What do you need?").fill("Annual furnace service");
      await page.getByLabel("Details (optional)").fill("Rattling noise at start-up.");
      await page.getByLabel("Preferred date (optional)").fill(inAWeek());
      await page.getByLabel("Time of day").selectOption("morning");
      await submit(page, "Send request", /Your request was sent to Northside Heating & Air/);
      assert.match(await page.locator(".portal-requests").innerText(), /Annual furnace service/);
      assert.equal(
        await page.getByLabel("What do you need?").inputValue(),
        "",
        "the booking form is ready for another request",
      );
      const request = await one<{ status: string; service: string; time_window: string }>(
        `SELECT status, service, time_window FROM booking_requests WHERE tenant_id = $1 AND customer_id = $2`,
        [tenant.id, s.customer.id],
      );
      assert.deepEqual(request, { status: "new", service: "Annual furnace service", time_window: "morning" });
      await screenshot(page, `portal-booked-phone-${tag}`);

      // A link that does not work says so, in the portal's own page.
      const bad = await page.goto(`/portal/${s.token.slice(0, -2)}xx`);
      assert.equal(bad?.status(), 404);
      assert.match(await page.locator("h1").innerText(), /This link is no longer valid/);
      await screenshot(page, `portal-invalid-link-phone-${tag}`);
      await context.close();
    });
  }

  test("the hub on a desktop screen, checked with axe-core", async () => {
    const s = await portalSetup({ businessName: "Rapid Rooter Plumbing", customerName: "Alex Chen" });
    await createQuote(s.tenant.id, { customerId: s.customer.id });
    await createQuote(s.tenant.id, {
      customerId: s.customer.id,
      validUntil: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
    });
    await createInvoice(s.tenant.id, { customerId: s.customer.id, amountPaidCents: 50_000 });
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const res = await page.goto(s.url);
    assert.equal(res?.status(), 200);
    assert.equal(res?.headers()["referrer-policy"], "no-referrer");
    assert.match(await page.locator("body").innerText(), /This quote has expired/);
    await screenshot(page, "portal-hub-desktop");
    await expectNoSeriousAxeViolations(page, "portal hub");
    await context.close();
  });
});
