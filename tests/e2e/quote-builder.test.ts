import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one, rows } from "../../db/index";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The quote builder in a browser, JavaScript off and on (CONTRACT section 12): a new customer,
// then a quote with three lines (one optional, one picked from the price book), a refused
// save that keeps every value, Add line and Remove, and the saved quote's totals.

describe("browser: customer and quote builder", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES.filter(
    (m) => process.env.QB_MODE === undefined || String(m.javaScript) === process.env.QB_MODE,
  )) {
    test(
      `new customer, then a quote with lines from the price book (${mode.label})`,
      { timeout: 120_000 },
      async () => {
        const t = await createTenantWithUsers(`Summit Plumbing ${mode.javaScript ? "js" : "nojs"}`);
        await one(
          `INSERT INTO price_book_items (tenant_id, name, unit_price_cents, tax_rate) VALUES ($1, 'Water heater flush', 14900, 8.25)`,
          [t.id],
        );
        const tag = mode.javaScript ? "js" : "nojs";
        const context = await newContext(browser, { javaScript: mode.javaScript });
        const page = await context.newPage();
        try {
          await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
          await page.goto("/customers");
          await page.getByRole("link", { name: "New customer" }).click();
          await page.getByLabel("Name").fill("Ann Customer");
          await page.getByLabel("Email").fill(`ann-${tag}@example.test`);
          await page.getByLabel("Phone").fill("555-0199");
          await page.getByLabel("Street address").fill("12 Elm Street");
          await page.getByRole("button", { name: "Create customer" }).click();
          await page.getByRole("heading", { name: "Ann Customer" }).waitFor();
          assert.match(await page.locator("body").innerText(), /Created by/);

          await page.getByRole("link", { name: "New quote" }).click();
          await page.getByRole("heading", { name: "New quote" }).waitFor();
          await page.locator("form.quote-form").evaluate((f) => f.setAttribute("novalidate", ""));
          await page.getByLabel("Title").fill("Water heater service");
          await page.getByLabel("Description, line 1").fill("Labour");
          await page.getByLabel("Qty, line 1").fill("2");
          await page.getByLabel("Unit price, line 1").fill("95,00"); // refused: a comma
          // Add line: with JavaScript in place, without it through the server; nothing typed is lost.
          await page.getByRole("button", { name: "Add line" }).click();
          await page.getByLabel("Description, line 2").waitFor();
          assert.equal(await page.getByLabel("Description, line 1").inputValue(), "Labour");
          assert.equal(await page.getByLabel("Unit price, line 1").inputValue(), "95,00");
          await page.getByLabel("Description, line 2").fill("Haul away the old tank");
          await page.getByLabel("Unit price, line 2").fill("40");
          await page.getByLabel("Optional, line 2").check();
          await page.getByLabel("Item from the price book").selectOption({ label: "Water heater flush · $149.00" });
          await page.getByRole("button", { name: "Add item" }).click();
          await page.getByLabel("Description, line 3").waitFor();
          assert.equal(await page.getByLabel("Unit price, line 3").inputValue(), "149.00");
          assert.equal(await page.getByLabel("Tax %, line 3").inputValue(), "8.25");
          // One more line, then remove it.
          await page.getByRole("button", { name: "Add line" }).click();
          await page.getByLabel("Description, line 4").fill("Remove me");
          await page.getByRole("button", { name: "Remove line 4" }).click();
          await page.getByLabel("Description, line 4").waitFor({ state: "detached" });

          await page.getByRole("button", { name: "Save quote" }).click();
          await page.locator("#field-items-0-unitPrice-error").waitFor();
          assert.match(await page.locator("#field-items-0-unitPrice-error").innerText(), /Must be an amount/);
          assert.equal(await page.getByLabel("Description, line 2").inputValue(), "Haul away the old tank");
          assert.equal(await page.getByLabel("Optional, line 2").isChecked(), true);
          assert.equal(await page.getByLabel("Description, line 3").inputValue(), "Water heater flush");
          assert.equal(await page.getByLabel("Title").inputValue(), "Water heater service");
          await screenshot(page, `quote-builder-errors-${tag}`);
          await page.setViewportSize({ width: 390, height: 844 });
          await screenshot(page, `quote-builder-errors-${tag}-phone`);
          await page.setViewportSize({ width: 1280, height: 900 });

          await page.getByLabel("Unit price, line 1").fill("95.00");
          if (mode.javaScript) {
            // Totals update in place: 190.00 + 149.00 + 12.29 tax (the optional line is not counted).
            await page.locator(".totals-summary").getByText("$351.29").waitFor();
          }
          await page.getByRole("button", { name: "Save quote" }).click();
          await page.getByRole("heading", { name: /Quote Q-0001/ }).waitFor();
          const body = await page.locator("body").innerText();
          assert.match(body, /\$351\.29/);
          assert.match(body, /Optional/);
          await screenshot(page, `quote-saved-${tag}`);
          const q = await one<{ total_cents: number }>(`SELECT total_cents FROM quotes WHERE tenant_id = $1`, [t.id]);
          assert.equal(q!.total_cents, 35_129);
          const lines = await rows<{ description: string; optional: boolean }>(
            `SELECT description, optional FROM quote_items WHERE tenant_id = $1 ORDER BY position`,
            [t.id],
          );
          assert.deepEqual(
            lines.map((l) => [l.description, l.optional]),
            [
              ["Labour", false],
              ["Haul away the old tank", true],
              ["Water heater flush", false],
            ],
          );

          // Send: the link and a ready message.
          // Send shows the message first (recipient, subject, text); the quote stays a draft until confirmed.
          await page.getByRole("link", { name: "Send", exact: true }).click();
          await page.getByRole("heading", { name: /^Send quote Q-\d+$/ }).waitFor();
          const preview = await page.locator("main").innerText();
          assert.match(preview, /Subject\s+Quote Q-\d+ from /);
          assert.match(preview, /Here is your quote Q-\d+/);
          assert.equal(
            (await one<{ status: string }>(`SELECT status FROM quotes WHERE tenant_id = $1`, [t.id]))!.status,
            "draft",
          );
          await screenshot(page, `quote-send-confirm-${tag}`);
          await page.getByRole("button", { name: "Send", exact: true }).click();
          await page.getByRole("heading", { name: "Send it to the customer" }).waitFor();
          assert.match(await page.getByLabel("Portal link", { exact: true }).inputValue(), /\/portal\//);
          // "Send again" asks first; "Don't send" goes back and sends nothing.
          await page.getByRole("link", { name: "Send again", exact: true }).click();
          await page.getByRole("heading", { name: /^Send quote Q-\d+ again\?$/ }).waitFor();
          await page.getByRole("link", { name: "Don't send" }).click();
          await page.getByRole("heading", { name: /^Quote Q-\d+$/ }).waitFor();
          assert.equal(
            (await one<{ n: number }>(
              `SELECT count(*)::int AS n FROM record_history WHERE tenant_id = $1 AND action = 'resent'`,
              [t.id],
            ))!.n,
            0,
          );
          await page.getByRole("link", { name: "Send again", exact: true }).click();
          await page.getByRole("button", { name: "Send again", exact: true }).click();
          await page.getByRole("heading", { name: "Send it to the customer" }).waitFor();
          assert.equal(
            (await one<{ n: number }>(
              `SELECT count(*)::int AS n FROM record_history WHERE tenant_id = $1 AND action = 'resent'`,
              [t.id],
            ))!.n,
            1,
          );
          await page.setViewportSize({ width: 390, height: 844 });
          await screenshot(page, `quote-sent-${tag}-phone`);
        } finally {
          await context.close();
        }
      },
    );
  }
});
