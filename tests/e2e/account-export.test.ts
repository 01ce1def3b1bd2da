// The account export's page in the browser (docs/decisions/360-account-export.md), with
// JavaScript off and on, on a desktop and a 390 px phone: "Export everything", the progress
// (the page reloads itself while the export runs), then the download and the history.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import {
  expectNoSeriousAxeViolations,
  JS_MODES,
  launch,
  newContext,
  phoneContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
} from "../helpers/browser";
import { createCustomer, createInvoice, createJob, createTenantWithUsers } from "../helpers/fixtures";

describe("browser: /settings/export", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  /** Waits for the export's download link, reloading as a person would if the page did not. */
  async function waitForDownload(page: Page) {
    const link = page.getByRole("link", { name: /Download the ZIP/ });
    for (let i = 0; i < 120 && !(await link.count()); i++) {
      await page.waitForTimeout(500);
      // The page's own refresh may start a navigation at the same moment, aborting this one.
      if (!(await link.count()))
        await page.goto("/settings/export").catch((e: unknown) => {
          if (!String(e).includes("net::ERR_ABORTED")) throw e;
        });
    }
    await link.waitFor();
    return link;
  }

  for (const mode of JS_MODES) {
    test(`with ${mode.label}: export everything, see it written, download it`, async () => {
      const t = await createTenantWithUsers(`Riverside Electric ${mode.javaScript ? "js" : "nojs"}`);
      const customer = await createCustomer(t.id, { name: "Zoë Kowalski" });
      await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
      await createInvoice(t.id, { customerId: customer.id });

      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, t.users.owner.password);
      await page.goto("/settings/export");
      await page.locator("h1", { hasText: /^Export your data$/ }).waitFor();
      assert.match(await page.locator("main").innerText(), /No exports yet/);
      await expectNoSeriousAxeViolations(page, `export settings (${mode.label})`, mode);
      await page.getByRole("button", { name: "Export everything" }).click();
      const link = await waitForDownload(page);
      const main = await page.locator("main").innerText();
      assert.match(main, /customers: 1, team members: 3, jobs: 1/);
      assert.ok(main.includes(t.users.owner.name));
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      assert.match(download.suggestedFilename(), /^fieldwork-export-\d{4}-\d\d-\d\d\.zip$/);
      await screenshot(page, `settings-export-desktop-${mode.javaScript ? "js" : "nojs"}`);

      const phone = await phoneContext(browser, mode);
      const small = await phone.newPage();
      await signIn(small, t.users.owner.email, t.users.owner.password);
      await small.goto("/settings/export");
      await small.getByRole("link", { name: /Download the ZIP/ }).waitFor();
      const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page fits a 390 px phone (overflows by ${overflow} px)`);
      await screenshot(small, `settings-export-phone-${mode.javaScript ? "js" : "nojs"}`);
      await Promise.all([context.close(), phone.close()]);
    });
  }
});
