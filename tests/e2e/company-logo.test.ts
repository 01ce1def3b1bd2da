// The company logo in a browser, JavaScript off and on: the owner uploads it on
// /settings/company (a refused file says why beside the field), sees it there, and the customer
// sees it in the portal's header on a 390 px phone. Screenshots in tests/.artifacts.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import {
  consoleErrors,
  expectNoSeriousAxeViolations,
  imageLoaded,
  JS_MODES,
  phoneContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";
import { testPng } from "../helpers/photos";
import { portalSetup } from "../helpers/portal";

/** Whether an <img> has loaded a picture (not a broken image), once it has finished loading. */
const loaded = (page: Page, selector: string) => imageLoaded(page.locator(selector));

/** Whether the page is wider than the window (a horizontal scroll on the phone). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("browser: the company logo, uploaded and shown", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "logo-"));
  const logoFile = path.join(dir, "summit-logo.png");
  fs.writeFileSync(logoFile, testPng(360, 120, [20, 80, 180], { alpha: true }));
  const textFile = path.join(dir, "not-a-logo.png");
  fs.writeFileSync(textFile, "Only text, named like a picture.\n");

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`upload on a phone, refused text file, then the portal's header (${mode.label})`, async () => {
      const tenant = await createTenantWithUsers("Summit Plumbing & Heating");
      const s = await portalSetup({ tenant, customerName: "Jamie Rivera" });
      const context = await phoneContext(browser, { javaScript: mode.javaScript });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await signIn(page, tenant.users.owner.email, tenant.users.owner.password);
      await page.goto("/settings/company");

      // A text file named .png: the message beside the field, nothing stored.
      const field = page.getByLabel("Logo image");
      await field.setInputFiles(textFile);
      await page.getByRole("button", { name: "Upload logo" }).click();
      await page.locator("#field-logo-error").getByText("This file is not a PNG or JPEG image.").waitFor();
      assert.equal(await page.locator(".company-logo-preview").count(), 0);
      await screenshot(page, `company-logo-refused-phone-${tag}`, { fullPage: false });

      await page.getByLabel("Logo image").setInputFiles(logoFile);
      await page.getByRole("button", { name: "Upload logo" }).click();
      await page.getByText(/Logo saved/).waitFor();
      await page.locator(".company-logo-preview").waitFor();
      assert.ok(await loaded(page, ".company-logo-preview"), "the preview shows the picture");
      assert.equal(await overflows(page), false, "the settings page fits the phone");
      await page.locator("#company-logo").scrollIntoViewIfNeeded();
      await screenshot(page, `company-logo-settings-phone-${tag}`, { fullPage: false });
      await expectNoSeriousAxeViolations(page, `settings/company with a logo (${mode.label})`, mode);

      const portal = await phoneContext(browser, { javaScript: mode.javaScript });
      const customer = await portal.newPage();
      const customerErrors = consoleErrors(customer);
      await customer.goto(s.url);
      await customer.locator(".portal-top .portal-logo").waitFor();
      assert.ok(await loaded(customer, ".portal-top .portal-logo"), "the portal's header shows the logo");
      assert.equal(await customer.locator(".portal-top h1").innerText(), "Summit Plumbing & Heating");
      assert.equal(await overflows(customer), false, "the portal fits the phone");
      await screenshot(customer, `company-logo-portal-phone-${tag}`, { fullPage: false });

      // Remove: back to the name alone.
      await page.getByRole("button", { name: "Remove logo" }).click();
      await page.getByText("Logo removed.").waitFor();
      assert.equal(await page.locator(".company-logo-preview").count(), 0);
      // The one refused upload answers 422 on purpose; the browser logs that response, nothing else.
      assert.deepEqual(
        errors.filter((e) => !/status of 422/.test(e)),
        [],
      );
      assert.deepEqual(customerErrors, []);
      await portal.close();
      await context.close();
    });
  }
});
