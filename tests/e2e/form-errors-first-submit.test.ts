// Every error of a form shows on its first submit, JavaScript on and off: a form refused for one
// field must not hide another field's error (an empty name, a check across two fields) until
// the next submit.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { consoleErrors, JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

type Case = {
  name: string;
  path: (customerId: string) => string;
  /** Fills the form wrongly in several ways at once. */
  fill: (page: Page) => Promise<void>;
  button: string;
  /** The names of the fields the first submit must mark invalid, all of them. */
  invalid: string[];
};

const CASES: Case[] = [
  {
    name: "price book item",
    path: () => "/settings/price-book",
    fill: async (page) => {
      await page.getByLabel("Unit price").fill("abc");
      await page.getByLabel("Tax rate (%)").fill("lots");
    },
    button: "Add to price book",
    invalid: ["name", "taxRate", "unitPrice"],
  },
  {
    name: "service property",
    path: (id) => `/customers/${id}`,
    fill: async (page) => {
      await page.getByText("Add a service property").click();
      await page.locator(".property-add").getByLabel("Postal code").fill("9".repeat(30));
    },
    button: "Add property",
    invalid: ["addressLine1", "postalCode"],
  },
  {
    name: "team member",
    path: () => "/team",
    fill: async (page) => {
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add member" }) });
      await form.getByLabel("Email").fill("nia@");
    },
    button: "Add member",
    invalid: ["email", "name"],
  },
  {
    name: "job",
    path: (id) => `/jobs/new?customerId=${id}`,
    fill: async (page) => {
      await page.getByLabel("Start", { exact: true }).fill("2030-06-16T11:00");
      await page.getByLabel("End", { exact: true }).fill("2030-06-16T09:00");
    },
    button: "Create job",
    invalid: ["scheduledEnd", "title"],
  },
  {
    name: "customer",
    path: () => "/customers/new",
    fill: async (page) => {
      await page.getByLabel("Email").fill("not-an-email");
    },
    button: "Create customer",
    invalid: ["email", "name"],
  },
];

/** The names of the form's fields marked invalid. */
async function invalidFields(page: Page, button: string): Promise<string[]> {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: button }) });
  const names = await form
    .locator("[aria-invalid='true']")
    .evaluateAll((els) => els.map((e) => e.getAttribute("name") ?? ""));
  return [...new Set(names)].sort();
}

describe("browser: every error of a form shows on the first submit", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    for (const c of CASES) {
      test(`${c.name} (${mode.label})`, async () => {
        const tenant = await createTenantWithUsers();
        const customer = await createCustomer(tenant.id, { name: "Cleo Errors" });
        const context = await newContext(browser, { javaScript: mode.javaScript });
        try {
          const page = await context.newPage();
          const errors = consoleErrors(page);
          await signIn(page, tenant.users.admin.email, DEFAULT_PASSWORD);
          await page.goto(c.path(customer.id));
          await c.fill(page);
          await page.getByRole("button", { name: c.button }).click();
          const form = page.locator("form").filter({ has: page.getByRole("button", { name: c.button }) });
          await form.locator("[aria-invalid='true']").first().waitFor();
          await page.waitForLoadState("networkidle");
          assert.deepEqual(await invalidFields(page, c.button), c.invalid, "every error at once");
          await screenshot(page, `form-errors-${c.name.replace(/\W+/g, "-")}-${mode.javaScript ? "js" : "nojs"}`);
          // Without JavaScript the refused form is a page answered 422, which the console notes.
          assert.deepEqual(
            errors.filter((e) => !/status of 422/.test(e)),
            [],
          );
        } finally {
          await context.close();
        }
      });
    }
  }
});
