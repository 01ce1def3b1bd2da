// Issue 20 (CONTRACT section 16) in a phone's browser, with JavaScript off and on: the customer
// picks "Better", ticks one optional item, sees the total change, approves; the office's quote
// page shows the choice.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one } from "../../db/index";
import { BASE_URL } from "../helpers/client";
import {
  expectNoSeriousAxeViolations,
  JS_MODES,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
  phoneContext,
  PHONE,
} from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";
import { BETTER_WITH_WARRANTY, quoteWithOptions, recordedChoice } from "../helpers/quote-options";

describe("browser: options and optional items in the portal, on a phone", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`pick "Better", tick one optional item, see the total change, approve; the office sees the choice (${mode.label})`, async () => {
      const tenant = await createTenantWithUsers("Northside Heating & Air");
      const s = await portalSetup({ tenant, customerName: "Jamie Rivera" });
      const q = await quoteWithOptions(tenant.id, s.customer.id);
      const context = await phoneContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();
      await page.goto(s.url);
      const card = page.locator(`#quote-${q.id}`);
      const total = card.getByTestId(`quote-total-${q.id}`);
      assert.match(await total.innerText(), /Total\s+\$289\.00/);
      // "Update total" is for the page without JavaScript; with it, the button goes once the page is live.
      if (mode.javaScript) await card.getByRole("button", { name: "Update total" }).waitFor({ state: "detached" });
      else assert.equal(await card.getByRole("button", { name: "Update total" }).count(), 1);

      await card.getByLabel(/^Better/).check();
      await card.getByLabel(/Extended 5-year warranty/).check();
      if (!mode.javaScript) {
        await card.getByRole("button", { name: "Update total" }).click();
        await page.waitForURL((u) => u.searchParams.get("option") === "Better");
        // The page came back with the choice kept.
        assert.ok(await card.getByLabel(/^Better/).isChecked());
        assert.ok(await card.getByLabel(/Extended 5-year warranty/).isChecked());
      }
      await total.getByText("$1,538.00").waitFor();
      assert.match(await total.innerText(), /Subtotal\s+\$1,439\.00\s+Tax 8\.25%\s+\$99\.00\s+Total\s+\$1,538\.00/);
      assert.match(await card.innerText(), /I accept this quote for \$1,538\.00/);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `portal-options-chosen-phone-${tag}`);
      await expectNoSeriousAxeViolations(page, "portal quote with options", { javaScript: mode.javaScript });

      await card.getByLabel("Your full name (your signature)").fill("Jamie Rivera");
      await card.getByLabel(/I accept this quote/).check();
      await card.getByRole("button", { name: "Approve and sign" }).click();
      await page.getByText(/Thank you! Quote .* is approved/).waitFor();
      const r = await recordedChoice(tenant.id, q.id);
      assert.equal(r.status, "approved");
      assert.equal(r.chosen_option, "Better");
      assert.deepEqual(r.selected, BETTER_WITH_WARRANTY);
      assert.equal(r.total_cents, 153_800);
      assert.match(
        await page.locator(`#quote-${q.id}`).innerText(),
        /Your choice: option Better, with Extended 5-year warranty/,
      );
      await screenshot(page, `portal-options-approved-phone-${tag}`);
      await context.close();

      // The office's quote page shows the choice.
      const office = await browser.newContext({
        javaScriptEnabled: mode.javaScript,
        baseURL: BASE_URL,
        viewport: PHONE,
      });
      const staff = await office.newPage();
      await signIn(staff, tenant.users.office.email, tenant.users.office.password);
      await staff.goto(`/quotes/${q.id}`);
      const choice = staff.getByRole("definition").filter({ hasText: "Better" });
      await choice.first().waitFor();
      const answer = await staff.locator('dl[aria-label="The customer\'s choice"]').innerText();
      assert.match(answer, /Chosen option\s+Better/);
      assert.match(answer, /Optional items\s+Extended 5-year warranty/);
      assert.match(await staff.locator("body").innerText(), /Approved in the portal for \$1,538\.00/);
      await screenshot(staff, `office-quote-choice-phone-${tag}`);
      await expectNoSeriousAxeViolations(staff, "office quote page with the customer's choice", {
        javaScript: mode.javaScript,
      });

      // The job made from it, and the job's invoice, carry exactly the chosen lines.
      await staff.getByRole("button", { name: "Convert to job" }).click();
      await staff.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
      const job = await staff.locator("main").innerText();
      assert.match(job, /Service call[\s\S]*New 50 gal standard water heater[\s\S]*Extended 5-year warranty/);
      // The work itself is another test's story: the job is marked done here directly.
      const jobId = new URL(staff.url()).pathname.split("/")[2];
      await one(
        `UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING id`,
        [tenant.id, jobId],
      );
      await staff.reload();
      await staff.getByRole("button", { name: "Create invoice" }).click();
      await staff.waitForURL(/\/invoices\/[0-9a-f-]{36}/);
      const lines = staff.getByRole("region", { name: "Line items table" });
      await lines.waitFor();
      const invoice = await lines.innerText();
      for (const chosen of ["Service call", "New 50 gal standard water heater", "Extended 5-year warranty"])
        assert.match(invoice, new RegExp(chosen));
      for (const not of [
        "Repair the burner assembly",
        "Tankless water heater",
        "Haul away the old unit",
        "Tankless descaling kit",
      ]) {
        assert.ok(!invoice.includes(not), `the invoice leaves out ${not}`);
      }
      assert.match(invoice, /\$1,538\.00/);
      await screenshot(staff, `office-invoice-from-choice-phone-${tag}`);
      await office.close();
    });
  }
});
