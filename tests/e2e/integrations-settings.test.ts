import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one } from "../../db/index";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

const card = (page: Page, id: string) => page.locator("article", { has: page.locator(`#provider-${id}`) });

describe("browser: integration settings", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";

    test(`with ${mode.label}: an owner changes a calendar preference and sees it saved`, async () => {
      const t = await createTenantWithUsers();
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      // Reached through the settings navigation, as a user would.
      await page.getByRole("navigation").getByRole("link", { name: "Calendar" }).click();
      // With JavaScript the URL changes before the page renders: wait for its heading.
      await page.getByRole("heading", { level: 1, name: "Calendar integrations" }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/settings/calendar");
      await screenshot(page, `settings-calendar-${tag}`);

      const google = card(page, "google");
      assert.equal(await google.getByLabel("Sync with Google Calendar").isChecked(), false);
      await google.getByLabel("Sync with Google Calendar").check();
      await google.getByLabel("All jobs in this account").check();
      await card(page, "microsoft").getByLabel("Busy time blocks online booking").check();
      await page.getByRole("button", { name: "Save calendar preferences" }).click();
      await page.getByRole("status").filter({ hasText: "Calendar preferences saved." }).waitFor();
      await screenshot(page, `settings-calendar-saved-${tag}`);

      await page.reload();
      assert.equal(await page.getByRole("status").count(), 0, "the confirmation is shown once");
      assert.equal(await card(page, "google").getByLabel("Sync with Google Calendar").isChecked(), true);
      assert.equal(await card(page, "google").getByLabel("All jobs in this account").isChecked(), true);
      assert.equal(await card(page, "microsoft").getByLabel("Busy time blocks online booking").isChecked(), true);
      assert.equal(await card(page, "microsoft").getByLabel("Only jobs assigned to me").isChecked(), true);
      assert.match(await page.locator(".save-bar").innerText(), new RegExp(`Last saved .* by ${t.users.owner.name}`));

      const row = await one<{ value: any }>(
        `SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'calendar'`,
        [t.id],
      );
      assert.equal(row?.value.google.enabled, true);
      assert.equal(row?.value.google.jobs, "all");
      assert.equal(row?.value.microsoft.busyBlocksBooking, true);
      await context.close();
    });

    test(`with ${mode.label}: accounting and LLM pages save, refuse a bad model beside the field, and office sees calendar read-only`, async () => {
      const t = await createTenantWithUsers();
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.admin.email, DEFAULT_PASSWORD);

      await page.goto("/settings/accounting");
      assert.equal(await page.locator("article.provider-card").count(), 10);
      await page.getByLabel("Preferred accounting system").selectOption({ label: "Xero" });
      await page.getByLabel("Only once the invoice is paid").check();
      await page.getByRole("button", { name: "Save preferences" }).click();
      await page.getByRole("status").filter({ hasText: "Accounting preferences saved." }).waitFor();
      assert.equal(await page.getByLabel("Preferred accounting system").inputValue(), "xero");
      await screenshot(page, `settings-accounting-${tag}`);

      await page.goto("/settings/llm");
      assert.match(await page.locator("main").innerText(), /The assistant is local\./);
      assert.equal(await page.getByLabel("API key").isDisabled(), true);
      await page.getByLabel("Provider", { exact: true }).selectOption("openai");
      await page.getByLabel("Model", { exact: true }).selectOption("claude-haiku-4-5"); // not an OpenAI model
      await page.getByRole("button", { name: "Save preferences" }).click();
      await page.locator("#field-model-error").waitFor();
      assert.match(await page.locator("#field-model-error").innerText(), /not offered by OpenAI/);
      await screenshot(page, `settings-llm-error-${tag}`);
      await page.getByLabel("Model", { exact: true }).selectOption("gpt-4o");
      await page.getByRole("button", { name: "Save preferences" }).click();
      await page.getByRole("status").filter({ hasText: "Language-model preferences saved." }).waitFor();
      assert.equal(await page.getByLabel("Model", { exact: true }).inputValue(), "gpt-4o");
      await screenshot(page, `settings-llm-${tag}`);
      await context.close();

      const office = await newContext(browser, mode);
      const officePage = await office.newPage();
      await signIn(officePage, t.users.office.email, DEFAULT_PASSWORD);
      const nav = officePage.getByRole("navigation");
      assert.equal(await nav.getByRole("link", { name: "Accounting" }).count(), 0, "office has no accounting link");
      await officePage.goto("/settings/calendar");
      assert.match(await officePage.locator("main").innerText(), /only an owner or admin can change them/);
      assert.equal(await card(officePage, "google").getByLabel("Sync with Google Calendar").isDisabled(), true);
      assert.equal(await officePage.getByRole("button", { name: "Save calendar preferences" }).count(), 0);
      await screenshot(officePage, `settings-calendar-office-${tag}`);
      await office.close();
    });
  }
});
