// A refused portal form on a 390 px phone, with JavaScript off and on: the customer stays at
// the form with its message in the window (never the top of a page reloaded elsewhere), a GET
// of the address a refused post left them on is the portal page again (not a 405), the form
// ids of the server's page are the ones the browser uses after a reload (no "submit event is
// dispatched by form#… instead of form#…"), and without JavaScript the acceptance sentence
// never states another total than the one approved.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import {
  consoleErrors,
  inWindow,
  JS_MODES,
  screenshot,
  SKIP_BROWSER,
  withBrowser,
  phoneContext,
} from "../helpers/browser";
import { createInvoice, createQuote, createTenantWithUsers } from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";
import { quoteWithOptions } from "../helpers/quote-options";

/** Waits for the message, then checks that it is in the window and that the page stayed the portal's. */
async function refusedInView(page: Page, message: Locator, javaScript: boolean, anchor: string, name: string) {
  await message.waitFor();
  const url = new URL(page.url());
  if (javaScript) assert.match(url.pathname, /^\/portal\//, "with JavaScript the page does not change");
  else assert.equal(url.hash, `#${anchor}`, "without JavaScript the answer opens at the form's anchor");
  // Scrolling to a fragment or an element settles over a frame or two.
  for (let i = 0; i < 20 && !(await inWindow(page, message)); i++) await page.waitForTimeout(50);
  await screenshot(page, name, { fullPage: false });
  assert.ok(await inWindow(page, message), `${name}: the message is in the window`);
}

describe("browser: a refused portal form keeps the customer at the form, on a phone", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`payment, approval and booking refused, then done (${mode.label})`, async () => {
      const tenant = await createTenantWithUsers("Northside Heating & Air");
      const s = await portalSetup({ tenant, customerName: "Jamie Rivera" });
      const options = await quoteWithOptions(tenant.id, s.customer.id);
      const taken = await createQuote(tenant.id, { customerId: s.customer.id });
      const invoice = await createInvoice(tenant.id, {
        customerId: s.customer.id,
        items: [{ description: "Furnace tune-up", unitPriceCents: 18_900 }],
      });
      const context = await phoneContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await page.goto(s.url);

      // A first request succeeds; the reload that follows keeps the browser's history entry
      // (with JavaScript, its key is no longer the server's "default").
      await page.getByLabel("What do you need?").fill("Annual furnace service");
      await page.getByRole("button", { name: "Send request" }).click();
      await page.getByText(/Your request was sent/).waitFor();
      await page.reload();
      await page.getByText(/Your request was sent/).waitFor();
      if (mode.javaScript)
        await page
          .locator(`#quote-${options.id}`)
          .getByRole("button", { name: "Update total" })
          .waitFor({ state: "detached" });

      // The payment: more than the balance.
      const invoiceCard = page.locator(`#invoice-${invoice.id}`);
      await invoiceCard.getByLabel("Amount to pay (USD)").fill("500");
      await invoiceCard.getByRole("button", { name: "Record sandbox payment" }).click();
      await refusedInView(
        page,
        invoiceCard.locator(".portal-anchor").getByText("The balance is $189.00. Enter that amount or less."),
        mode.javaScript,
        `invoice-${invoice.id}-pay`,
        `portal-refused-payment-phone-${tag}`,
      );
      assert.match(await invoiceCard.locator(`#amount-${invoice.id}-error`).innerText(), /The balance is \$189\.00/);
      if (!mode.javaScript) {
        // A GET of where the refused post left the customer (a reload, a restored tab) is the portal page again.
        const refused = page.url();
        await page.goto("about:blank");
        const again = await page.goto(refused);
        assert.equal(again?.status(), 200);
        assert.equal(new URL(page.url()).pathname, s.url);
        assert.equal(new URL(page.url()).hash, `#invoice-${invoice.id}-pay`);
        assert.ok(await inWindow(page, page.locator(`#invoice-${invoice.id}-pay`)), "the page opens at the form");
      }

      // The approval: "Better" and the warranty ticked ($1,538.00), not the total shown first ($289.00).
      const quoteCard = page.locator(`#quote-${options.id}`);
      await quoteCard.getByLabel(/^Better/).check();
      await quoteCard.getByLabel(/Extended 5-year warranty/).check();
      await quoteCard.getByLabel("Your full name (your signature)").fill("Jamie Rivera");
      await quoteCard.getByLabel(/I accept this quote/).check();
      if (mode.javaScript) {
        assert.match(
          await quoteCard
            .getByLabel(/I accept this quote/)
            .locator("..")
            .innerText(),
          /for \$1,538\.00/,
        );
      } else {
        await quoteCard.getByRole("button", { name: "Approve and sign" }).click();
        const message = quoteCard
          .locator(".portal-anchor")
          .getByText(/With your choice the total is \$1,538\.00, not \$289\.00/);
        await refusedInView(
          page,
          message,
          false,
          `quote-${options.id}-answer`,
          `portal-refused-approve-total-phone-nojs`,
        );
        // Nothing was approved; the sentence now states the choice's total, to be ticked again.
        assert.equal(
          (await one<{ status: string }>(`SELECT status FROM quotes WHERE id = $1`, [options.id]))!.status,
          "sent",
        );
        const sentence = quoteCard.getByLabel(/I accept this quote/);
        assert.equal(await sentence.isChecked(), false);
        assert.match(await sentence.locator("..").innerText(), /for \$1,538\.00/);
        assert.ok(await quoteCard.getByLabel(/Extended 5-year warranty/).isChecked(), "the choice is kept");
        await sentence.check();
      }
      await quoteCard.getByRole("button", { name: "Approve and sign" }).click();
      await page.getByText(/Thank you! Quote .* is approved/).waitFor();
      const approved = await one<{ status: string; total_cents: string }>(
        `SELECT status, total_cents FROM quotes WHERE id = $1`,
        [options.id],
      );
      assert.deepEqual(
        { ...approved, total_cents: Number(approved!.total_cents) },
        { status: "approved", total_cents: 153_800 },
      );

      // An approval of a quote declined meanwhile (the other tab): 409, said at the form.
      await rows(`UPDATE quotes SET status = 'declined', declined_at = now() WHERE tenant_id = $1 AND id = $2`, [
        tenant.id,
        taken.id,
      ]);
      const takenCard = page.locator(`#quote-${taken.id}`);
      await takenCard.getByLabel("Your full name (your signature)").fill("Jamie Rivera");
      await takenCard.getByLabel(/I accept this quote/).check();
      await takenCard.getByRole("button", { name: "Approve and sign" }).click();
      await refusedInView(
        page,
        takenCard.locator(".portal-anchor").getByText(/This quote was already declined/),
        mode.javaScript,
        `quote-${taken.id}-answer`,
        `portal-refused-approve-phone-${tag}`,
      );

      // The booking: a request without what is needed (without JavaScript the server says so;
      // with it, the browser does, so a character the server alone refuses is sent).
      const booking = page.locator("#book");
      if (mode.javaScript) {
        await booking.getByLabel("What do you need?").fill("Leaking tap");
        await booking.getByLabel("Details (optional)").fill("Gate code\u0000 4412");
      }
      await booking.getByRole("button", { name: "Send request" }).click();
      const bookingMessage = mode.javaScript
        ? /character that cannot be stored \(U\+0000\)/
        : /Tell us what you need done/;
      await refusedInView(
        page,
        booking.locator(".portal-anchor").getByText(bookingMessage).first(),
        mode.javaScript,
        "booking-answer",
        `portal-refused-booking-phone-${tag}`,
      );
      const requests = await one<{ n: number }>(
        `SELECT count(*)::int AS n FROM booking_requests WHERE tenant_id = $1 AND customer_id = $2`,
        [tenant.id, s.customer.id],
      );
      assert.equal(requests!.n, 1, "only the first request was stored");

      // Chromium logs each 4xx answer as "Failed to load resource"; 422 and 409 are the refusals
      // the portal answers by design. Anything else (a script error, conform's form-id check) fails.
      const refusal = /^Failed to load resource: the server responded with a status of (422|409) /;
      assert.deepEqual(
        errors.filter((e) => !refusal.test(e)),
        [],
        "no console error",
      );
      await context.close();
    });
  }
});
