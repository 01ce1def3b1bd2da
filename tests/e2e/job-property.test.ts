import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one } from "../../db/index";
import { newContext, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The job form's service property in a browser (CONTRACT section 14, docs/decisions/221): with
// JavaScript on, choosing a customer lists that customer's properties; the job is saved with
// the chosen one and its page shows the property's address.

async function seed() {
  const t = await createTenantWithUsers();
  const add = async (name: string, props: [string, string][]) => {
    const c = await createCustomer(t.id, { name });
    for (const [i, [label, line1]] of props.entries()) {
      await one(
        `INSERT INTO customer_properties (tenant_id, customer_id, position, label, address_line1, city) VALUES ($1, $2, $3, $4, $5, 'Austin')`,
        [t.id, c.id, i + 1, label, line1],
      );
    }
    return c;
  };
  return {
    t,
    maria: await add("Maria Okafor", [
      ["Home", "4410 Barton Springs Rd"],
      ["Rental", "915 Maple Ave"],
    ]),
    james: await add("James Lindqvist", [["Office", "77 Cedar Ln"]]),
  };
}

describe("browser: the job form's service property", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("JavaScript on: choosing a customer lists its properties, another customer's replace them; the job keeps the chosen one", async () => {
    const s = await seed();
    const context = await newContext(browser, { javaScript: true });
    try {
      const page = await context.newPage();
      await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
      await page.goto("/jobs/new");
      const property = page.getByLabel("Service property");
      assert.deepEqual(await property.locator("option").allInnerTexts(), ["None: the customer's own address"]);
      await page.getByLabel("Customer").selectOption({ label: "James Lindqvist" });
      await property.locator("option", { hasText: "77 Cedar Ln" }).waitFor({ state: "attached" });
      await page.getByLabel("Customer").selectOption({ label: "Maria Okafor" });
      await property.locator("option", { hasText: "915 Maple Ave" }).waitFor({ state: "attached" });
      assert.equal(await property.locator("option", { hasText: "77 Cedar Ln" }).count(), 0, "James's property is gone");
      await property.selectOption({ label: "Rental · 915 Maple Ave, Austin" });
      await page.getByLabel("Title").fill("Gutter repair");
      await page.getByRole("button", { name: "Create job" }).click();
      await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
      assert.match(await page.locator("main").innerText(), /Rental · 915 Maple Ave, Austin/);
    } finally {
      await context.close();
    }
  });
});
