// A refused upload in a browser (CONTRACT section 5, issue 15: the import forms on conform): a
// file without a required column shows its message above the upload form, JavaScript off (the
// page again, conform's reply) and on (the XMLHttpRequest upload reads the same reply as JSON);
// nothing is stored.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { countOf } from "../helpers/import";
import { JS_MODES, newContext, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";

describe("browser: a refused import upload", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    test(`a file missing the name column shows the message beside the form, ${mode.label}`, async () => {
      const t = await createTenantWithUsers();
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "import-refused-")), "no-name.csv");
      fs.writeFileSync(file, "email,phone\r\nada@example.com,555-0100\r\n");
      const context = await newContext(browser, mode);
      try {
        const page = await context.newPage();
        await signIn(page, t.users.owner.email, t.users.owner.password);
        await page.goto("/import-data?type=customers");
        await page.setInputFiles("#import-file", file);
        await page.getByRole("button", { name: "Upload and preview" }).click();
        const alert = page.locator(".import-upload [role=alert], .import-upload .alert").first();
        await alert.waitFor();
        assert.match(await alert.innerText(), /Missing required column: name/);
        assert.equal(
          await page.getByRole("heading", { name: "Import customers" }).count(),
          1,
          "still the customers import page",
        );
        assert.equal(await countOf(t.id, "import_runs"), 0, "nothing stored");
      } finally {
        await context.close();
      }
    });
  }
});
