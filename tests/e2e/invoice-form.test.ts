import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one } from "../../db/index";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The invoice form in a browser, JavaScript off and on (CONTRACT section 12, decision 104):
// from the customer's page, lines added and removed with nothing typed lost, a refused save
// that keeps every value, live totals with JavaScript, then Send and its ready message.

describe("browser: invoice by hand", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    test(`new invoice from the customer's page, then Send (${mode.label})`, { timeout: 120_000 }, async () => {
      const tag = mode.javaScript ? "js" : "nojs";
      const t = await createTenantWithUsers(`Summit Plumbing ${tag}`);
      const customer = await createCustomer(t.id, { name: "Ivy Invoice", email: `ivy-${tag}@example.test` });
      const context = await newContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();
      try {
        await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
        await page.goto(`/customers/${customer.id}`);
        await page.getByRole("link", { name: "New invoice" }).click();
        await page.getByRole("heading", { name: "New invoice" }).waitFor();
        await page.locator("form.invoice-form").evaluate((f) => f.setAttribute("novalidate", ""));
        assert.match(
          await page.getByLabel("Due date").inputValue(),
          /^\d{4}-\d{2}-\d{2}$/,
          "a due date from the payment terms",
        );
        await page.getByLabel("Description, line 1").fill("Drain clearing");
        await page.getByLabel("Unit price, line 1").fill("189,00"); // refused: a comma
        await page.getByRole("button", { name: "Add line" }).click();
        await page.getByLabel("Description, line 2").waitFor();
        assert.equal(await page.getByLabel("Unit price, line 1").inputValue(), "189,00");
        await page.getByLabel("Description, line 2").fill("Camera inspection");
        await page.getByLabel("Qty, line 2").fill("2");
        await page.getByLabel("Unit price, line 2").fill("50");
        await page.getByLabel("Tax %, line 2").fill("10");
        await page.getByRole("button", { name: "Add line" }).click();
        await page.getByLabel("Description, line 3").fill("Remove me");
        await page.getByRole("button", { name: "Remove line 3" }).click();
        await page.getByLabel("Description, line 3").waitFor({ state: "detached" });
        assert.equal(await page.getByLabel("Optional, line 1").count(), 0, "an invoice has no optional items");

        await page.getByRole("button", { name: "Save invoice" }).click();
        await page.locator("#field-items-0-unitPrice-error").waitFor();
        assert.equal(await page.getByLabel("Description, line 2").inputValue(), "Camera inspection");
        assert.equal(await page.getByLabel("Unit price, line 2").inputValue(), "50");
        await page.getByLabel("Unit price, line 1").fill("189.00");
        if (mode.javaScript) {
          // In place: 189.00 + 100.00 + 10.00 tax.
          await page.locator(".totals-summary").getByText("$299.00").waitFor();
        }
        await screenshot(page, `invoice-form-${tag}`);
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, `invoice-form-${tag}-phone`);
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.getByRole("button", { name: "Save invoice" }).click();
        await page.getByRole("heading", { name: "Invoice INV-0001" }).waitFor();
        const saved = await one<{ total_cents: number; status: string }>(
          `SELECT total_cents, status FROM invoices WHERE tenant_id = $1`,
          [t.id],
        );
        assert.deepEqual(saved, { total_cents: 29_900, status: "draft" });

        await page.getByRole("link", { name: "Send", exact: true }).click();
        await page.getByRole("heading", { name: "Send invoice INV-0001" }).waitFor();
        assert.match(await page.locator(".message-preview").innerText(), /Here is your invoice INV-0001/);
        await page.getByRole("button", { name: "Send", exact: true }).click();
        await page.getByRole("heading", { name: "Send it to the customer" }).waitFor();
        assert.match(await page.locator("#share-url").inputValue(), /\/portal\//);
        assert.match(await page.locator("#share-text").inputValue(), /Invoice INV-0001 from Summit Plumbing/);
        await screenshot(page, `invoice-sent-${tag}`);
      } finally {
        await context.close();
      }
    });
  }
});
