import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";

describe("browser: sign up, sign out, sign in", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    test(`with ${mode.label}`, async () => {
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      const email = `browser-${mode.javaScript ? "js" : "nojs"}-${Date.now()}@example.test`;
      await page.goto("/signup");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForSelector(".field-errors");
      assert.match(await page.locator("body").innerText(), /Enter your business name/);
      await screenshot(page, `signup-errors-${mode.javaScript ? "js" : "nojs"}`);
      await page.getByLabel("Business name").fill("Northside Heating & Air");
      await page.getByLabel("Your name").fill("Jordan Reyes");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("a-long-password-1");
      await Promise.all([
        page.waitForURL((u) => u.pathname === "/"),
        page.getByRole("button", { name: "Create account" }).click(),
      ]);
      // With JavaScript the URL changes before the new page renders: wait for its heading.
      await page.getByRole("heading", { name: /Welcome, Jordan/ }).waitFor();
      await screenshot(page, `dashboard-${mode.javaScript ? "js" : "nojs"}`);

      await Promise.all([
        page.waitForURL((u) => u.pathname === "/login"),
        page.getByRole("button", { name: "Sign out" }).click(),
      ]);
      await page.goto("/");
      assert.equal(new URL(page.url()).pathname, "/login", "the old session no longer opens the dashboard");

      await signIn(page, email, "a-long-password-1");
      assert.equal(new URL(page.url()).pathname, "/");
      await page.getByRole("heading", { name: /Welcome, Jordan/ }).waitFor();
      assert.match(await page.locator("body").innerText(), /Northside Heating & Air/);
      await context.close();
    });
  }
});
