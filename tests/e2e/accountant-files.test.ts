import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import {
  ARTIFACTS,
  expectNoSeriousAxeViolations,
  JS_MODES,
  newContext,
  phoneContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createCustomer, createInvoice, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The accountant's files from /settings/accounting in a browser, with JavaScript off and on:
// the download form downloads (a plain GET), the accounts-and-tax-codes form saves and refuses a
// bad value beside its field, on a desktop and on a 390 px phone. docs/decisions/365.

async function tenantWithInvoices() {
  const t = await createTenantWithUsers("Accountant Browser");
  await rows(`UPDATE tenants SET time_zone = 'America/Denver' WHERE id = $1`, [t.id]);
  const c = await createCustomer(t.id, { name: "Rita Ranch" });
  const inv = await createInvoice(t.id, { customerId: c.id, number: "RR-1001" });
  await rows(
    `UPDATE invoices SET issue_date = '2026-02-03', due_date = '2026-03-05' WHERE tenant_id = $1 AND id = $2`,
    [t.id, inv.id],
  );
  return t;
}

async function download(page: Page, button: string) {
  await page.getByLabel("First day").fill("2026-02-01");
  await page.getByLabel("Last day").fill("2026-02-28");
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, "utf8") };
}

describe("browser: files for the accountant", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";

    test(`with ${mode.label}: an owner downloads the three files and saves the tax codes`, async () => {
      const t = await tenantWithInvoices();
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      await page.goto("/settings/accounting");
      const section = page.locator("#accountant-files");
      await section.getByRole("heading", { name: "Files for your accountant" }).waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `accountant-files-desktop-${tag}`);
      await section.screenshot({ path: path.join(ARTIFACTS, `accountant-files-section-desktop-${tag}.png`) });
      await expectNoSeriousAxeViolations(page, `accounting page with the accountant's files (${tag})`, mode);

      const qbo = await download(page, "QuickBooks Online (CSV)");
      assert.equal(qbo.name, "quickbooks-online-invoices-2026-02-01-to-2026-02-28.csv");
      assert.match(qbo.text, /^InvoiceNo,Customer,InvoiceDate,/);
      assert.match(qbo.text, /\r\nRR-1001,Rita Ranch,02\/03\/2026,03\/05\/2026,Services,/);
      const xero = await download(page, "Xero (CSV)");
      assert.equal(xero.name, "xero-sales-invoices-2026-02-01-to-2026-02-28.csv");
      assert.match(xero.text, /^\*ContactName,/);
      const iif = await download(page, "QuickBooks Desktop (IIF)");
      assert.equal(iif.name, "quickbooks-desktop-invoices-payments-2026-02-01-to-2026-02-28.iif");
      assert.match(iif.text, /^!TRNS\t/);
      assert.match(iif.text, /\r\nTRNS\t\tINVOICE\t02\/03\/2026\tAccounts Receivable\tRita Ranch\t/);

      // A bad value is refused beside its field, nothing saved; then a good one saves.
      const form = page.locator("form", { has: page.getByRole("button", { name: "Save accounts and tax codes" }) });
      await form.getByLabel("Income account (QuickBooks Desktop)").fill("");
      await form.getByLabel("Xero account code").fill("4000");
      const rate = form.getByRole("group", { name: "8.25%" });
      await rate.getByLabel("Xero tax rate").fill("Colorado (8.25%)");
      await form.getByRole("button", { name: "Save accounts and tax codes" }).click();
      await form.getByText("Enter the income account.").waitFor();
      assert.equal(
        await one(`SELECT 1 FROM tenant_settings WHERE tenant_id = $1 AND key = 'accountant_files'`, [t.id]),
        undefined,
      );
      await form.screenshot({ path: path.join(ARTIFACTS, `accountant-files-refused-${tag}.png`) });

      await form.getByLabel("Income account (QuickBooks Desktop)").fill("Service Income");
      await page.getByRole("button", { name: "Save accounts and tax codes" }).click();
      await page.getByRole("status").filter({ hasText: "Accounts and tax codes saved." }).waitFor();
      const stored = await one<{ value: any }>(
        `SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'accountant_files'`,
        [t.id],
      );
      assert.equal(stored?.value.incomeAccount, "Service Income");
      assert.equal(stored?.value.xeroAccountCode, "4000");
      assert.equal(stored?.value.taxCodes.find((c: { rate: string }) => c.rate === "8.25")?.xero, "Colorado (8.25%)");
      assert.equal(
        await page.getByRole("group", { name: "8.25%" }).getByLabel("Xero tax rate").inputValue(),
        "Colorado (8.25%)",
      );
      const xeroAfter = await download(page, "Xero (CSV)");
      assert.match(xeroAfter.text, /,4000,Colorado \(8\.25%\),/);
      await context.close();
    });

    test(`with ${mode.label}: on a 390 px phone the section fits the screen and downloads`, async () => {
      const t = await tenantWithInvoices();
      const context = await phoneContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.admin.email, DEFAULT_PASSWORD);
      await page.goto("/settings/accounting");
      const section = page.locator("#accountant-files");
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `accountant-files-phone-${tag}`);
      await section.screenshot({ path: path.join(ARTIFACTS, `accountant-files-section-phone-${tag}.png`) });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
      const box = await section.boundingBox();
      assert.ok(box && box.width <= 390, "the section is within the phone's width");
      const iif = await download(page, "QuickBooks Desktop (IIF)");
      assert.match(iif.text, /RR-1001/);
      await context.close();
    });
  }
});
