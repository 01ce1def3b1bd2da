import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one } from "../../db/index";
import { draftLinesOf } from "../../app/services/assistant/draft-lines";
import { generateGuidance } from "../../app/services/assistant/engine";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

const TITLE = "replace 50 gallon gas water heater in garage, existing venting corroded";

async function quoteCount(tenantId: string): Promise<number> {
  const r = await one<{ n: string }>(`SELECT count(*)::text AS n FROM quotes WHERE tenant_id = $1`, [tenantId]);
  return Number(r!.n);
}

describe("browser: start a quote from the assistant's guidance", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`with ${mode.label}: "Start a quote from this" opens the quote builder with the checklist's lines, storing nothing`, async () => {
      const t = await createTenantWithUsers("Garage & Vent Plumbing");
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
      await page.goto("/ai-assistant");
      await page.getByRole("radio", { name: "Quote checklist" }).check();
      await page.getByLabel("Job title").fill(TITLE);
      await page.getByRole("button", { name: "Get guidance" }).click();
      await page.locator("#guidance-title").waitFor();

      const expected = draftLinesOf(generateGuidance({ mode: "quote", jobTitle: TITLE }));
      assert.ok(expected.some((l) => l.name === "Vent replacement allowance"));
      const form = page.locator("form.start-quote");
      assert.equal(await form.getAttribute("method"), "get");
      assert.equal(await form.getAttribute("action"), "/quotes/new");
      const button = page.getByRole("button", { name: "Start a quote from this" });
      assert.equal(await button.isVisible(), true);
      await screenshot(page, `assistant-start-quote-${tag}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `assistant-start-quote-phone-${tag}`);
      await page.setViewportSize({ width: 1280, height: 900 });

      const before = await quoteCount(t.id);
      await Promise.all([page.waitForURL((u) => u.pathname === "/quotes/new"), button.click()]);
      const url = new URL(page.url());
      assert.deepEqual(
        url.searchParams.getAll("item"),
        expected.map((l) => l.name),
      );
      assert.deepEqual(
        url.searchParams.getAll("qty"),
        expected.map((l) => String(l.qty)),
      );
      assert.equal(await quoteCount(t.id), before, "nothing stored until the builder is saved");
      await context.close();
    });
  }

  test("schedule guidance, and a role that cannot create quotes, show no button", async () => {
    const t = await createTenantWithUsers();
    const context = await newContext(browser, { javaScript: false });
    const page = await context.newPage();
    await signIn(page, t.users.technician.email, DEFAULT_PASSWORD);
    await page.goto("/ai-assistant");
    await page.getByLabel("Job title").fill(TITLE);
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/ai-assistant"),
      page.getByRole("button", { name: "Get guidance" }).click(),
    ]);
    await page.locator("#guidance-title").waitFor();
    assert.equal(await page.getByRole("button", { name: "Start a quote from this" }).count(), 0, "technician");
    await context.close();

    const office = await newContext(browser, { javaScript: false });
    const officePage = await office.newPage();
    await signIn(officePage, t.users.office.email, DEFAULT_PASSWORD);
    await officePage.goto("/ai-assistant");
    await officePage.getByRole("radio", { name: "Schedule" }).check();
    await officePage.getByLabel("Job title").fill(TITLE);
    await Promise.all([
      officePage.waitForURL((u) => u.pathname === "/ai-assistant"),
      officePage.getByRole("button", { name: "Get guidance" }).click(),
    ]);
    await officePage.locator("#guidance-title").waitFor();
    assert.equal(
      await officePage.getByRole("button", { name: "Start a quote from this" }).count(),
      0,
      "schedule guidance",
    );
    await office.close();
  });
});
