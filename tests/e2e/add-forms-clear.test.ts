// "Add" forms start empty after a save, with JavaScript on (the page does not reload, so the
// typed values used to stay and a second click made a duplicate or an error) and off.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { rows } from "../../db/index";
import { consoleErrors, JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

/** Clicks the button and waits for the saved record to appear in the page. */
async function save(page: Page, button: string, shown: string) {
  await page.getByRole("button", { name: button }).click();
  await page.getByText(shown).first().waitFor();
  await page.waitForLoadState("networkidle");
}

describe("browser: add forms clear after a save", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`price book item, service property and team member (${mode.label})`, async () => {
      const tenant = await createTenantWithUsers();
      const customer = await createCustomer(tenant.id, { name: "Cleo Clear" });
      const context = await newContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await signIn(page, tenant.users.admin.email, DEFAULT_PASSWORD);

      await page.goto("/settings/price-book");
      await page.getByLabel("Name").fill("Drain snaking");
      await page.getByLabel("Unit price").fill("149.00");
      await save(page, "Add to price book", "Drain snaking");
      assert.equal(await page.getByLabel("Name").inputValue(), "", "the price book form is empty again");
      assert.equal(await page.getByLabel("Unit price").inputValue(), "");
      await screenshot(page, `add-forms-price-book-${tag}`);

      await page.goto(`/customers/${customer.id}`);
      await page.getByText("Add a service property").click();
      const add = page.locator(".property-add");
      await add.getByLabel("Label").fill("Lake cabin");
      await add.getByLabel("Address line 1").fill("9 Shore Road");
      await save(page, "Add property", "Lake cabin");
      if (!(await add.getByLabel("Label").isVisible())) await page.getByText("Add a service property").click();
      assert.equal(await add.getByLabel("Label").inputValue(), "", "the property form is empty again");
      assert.equal(await add.getByLabel("Address line 1").inputValue(), "");

      await page.goto("/team");
      const member = page.locator("form").filter({ has: page.getByRole("button", { name: "Add member" }) });
      await member.getByLabel("Name").fill("Nia New");
      await member.getByLabel("Email").fill(`nia.${Date.now()}@example.com`);
      await save(page, "Add member", "Nia New was added");
      assert.equal(await member.getByLabel("Name").inputValue(), "", "the team form is empty again");
      assert.equal(await member.getByLabel("Email").inputValue(), "");
      await screenshot(page, `add-forms-team-${tag}`);

      const counts = await rows<{ n: number }>(
        `SELECT (SELECT count(*) FROM price_book_items WHERE tenant_id = $1)::int
              + (SELECT count(*) FROM customer_properties WHERE tenant_id = $1)::int AS n`,
        [tenant.id],
      );
      assert.equal(counts[0].n, 2, "one item and one property saved");
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
