// The import in a browser, with JavaScript off (plain forms, 303s) and on (upload with a
// progress bar): upload, preview with errors, upload a good file, commit, undo.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { countOf } from "../helpers/import";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/import");

function goodFile(tag: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "import-e2e-")), `customers-${tag}.csv`);
  const lines = ["name,company,email,phone,city,external_id,notes"];
  // Notes long enough (about 150 KB in all) that the upload takes a moment on a throttled connection.
  const notes = `"Gate code 4412, dog in the yard.\n${"Prefers morning visits; call 30 minutes ahead. ".repeat(100)}"`;
  for (let i = 1; i <= 30; i++)
    lines.push(
      `Customer ${i} ${tag},"Plumbing, Inc.",c${i}-${tag}@example.com,+1 512 555 01${String(i).padStart(2, "0")},Austin,${tag}-${i},${notes}`,
    );
  fs.writeFileSync(file, lines.join("\r\n") + "\r\n");
  return file;
}

/** Submits the upload form and waits for this file's preview to render (with JavaScript the
 * URL changes before the new page is drawn, so wait for its heading). */
async function uploadFile(page: Page, file: string) {
  const before = page.url();
  await page.setInputFiles("#import-file", file);
  await Promise.all([
    page.waitForURL((u) => u.href !== before && u.searchParams.has("preview")),
    page.getByRole("button", { name: "Upload and preview" }).click(),
  ]);
  await page.getByRole("heading", { name: `Preview: ${path.basename(file)}` }).waitFor();
}

describe("browser: import customers", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const suffix = mode.javaScript ? "js" : "nojs";
    test(`upload, preview, commit and undo with ${mode.label}`, async () => {
      const t = await createTenantWithUsers("Duarte Home Services");
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      const uploads: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/import-data/preview")) uploads.push(r.resourceType());
      });
      await signIn(page, t.users.owner.email, t.users.owner.password);

      await page.goto("/import-data");
      await page.getByRole("heading", { name: "Import data" }).waitFor();
      await screenshot(page, `import-landing-${suffix}`);
      await Promise.all([
        page.waitForURL(/type=customers/),
        page.getByRole("link", { name: "Import customers" }).click(),
      ]);
      await page.getByRole("heading", { name: "Import customers" }).waitFor();
      assert.match(await page.locator("body").innerText(), /external_id\s+Optional\s+Your own ID for the customer/);

      // A file with errors: every error listed, bad cells marked, no import button.
      await uploadFile(page, path.join(FIXTURES, "customers-mixed.csv"));
      const errors = page.locator("#errors tbody tr");
      assert.equal(await errors.count(), 7);
      assert.match(await errors.nth(1).innerText(), /4\s+email\s+Not a valid email address/);
      assert.equal(await page.locator("td.import-cell-bad").count(), 5);
      assert.equal(await page.getByRole("button", { name: /^Import \d+ customers/ }).count(), 0);
      await screenshot(page, `import-preview-errors-${suffix}`);

      // A good file: commit, then undo. With JavaScript, a slow upload shows its progress.
      const tag = `${suffix}${Date.now().toString(36)}`;
      const file = goodFile(tag);
      if (mode.javaScript) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: 64 * 1024,
        });
        await page.setInputFiles("#import-file", file);
        await page.getByRole("button", { name: "Upload and preview" }).click();
        const status = page.getByRole("status").filter({ hasText: "Uploading" });
        await status.waitFor();
        assert.match(await status.innerText(), /Uploading… [\d.]+ [KM]B of [\d.]+ [KM]B \(\d+%\)/);
        await screenshot(page, "import-upload-progress-js");
        await page.getByRole("heading", { name: `Preview: ${path.basename(file)}` }).waitFor({ timeout: 60_000 });
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: -1,
        });
      } else {
        await uploadFile(page, file);
      }
      assert.match(await page.locator(".import-stats").innerText(), /Rows\s+30\s+Valid\s+30\s+With errors\s+0/);
      await screenshot(page, `import-preview-valid-${suffix}`);
      await Promise.all([page.waitForURL(/run=/), page.getByRole("button", { name: "Import 30 customers" }).click()]);
      await page.getByRole("heading", { name: "Imported 30 customers" }).waitFor();
      assert.equal(await countOf(t.id, "customers"), 30);
      await screenshot(page, `import-result-${suffix}`);

      await page.getByRole("button", { name: "Undo this import" }).click();
      await page.getByRole("heading", { name: "Import undone" }).waitFor();
      assert.equal(await countOf(t.id, "customers"), 0);
      await screenshot(page, `import-undone-${suffix}`);

      // With JavaScript the file goes up by XMLHttpRequest (upload progress); without, as a form.
      assert.deepEqual(uploads, mode.javaScript ? ["xhr", "xhr"] : ["document", "document"]);
      await context.close();
    });
  }
});
