// The mapping step in a browser (CONTRACT section 14, issue 19), JavaScript off and on: a file
// with an ambiguous header stops at the mapping step; a required field left unmapped is
// refused beside the columns; the choice is used, and the next file with the same headers goes
// straight to the preview. A Jobber export previews with no step at all.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";
import { countOf } from "../helpers/import";
import { jobberClients } from "../helpers/product-exports";

function fileWith(name: string, content: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "import-map-e2e-")), name);
  fs.writeFileSync(file, content);
  return file;
}

async function uploadFile(page: Page, file: string, lands: "upload" | "preview") {
  const before = page.url();
  await page.setInputFiles("#import-file", file);
  await Promise.all([
    page.waitForURL((u) => u.href !== before && u.searchParams.has(lands)),
    page.getByRole("button", { name: "Upload and preview" }).click(),
  ]);
}

async function phoneShot(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, name);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("browser: importing another product's export", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const suffix = mode.javaScript ? "js" : "nojs";
    test(`the mapping step with ${mode.label}`, async () => {
      const t = await createTenantWithUsers("Halvorsen Lawn & Snow");
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, t.users.owner.password);
      await page.goto("/import-data?type=customers");

      const headers = "Client Name,Email Address,Contact,Favourite Colour\r\n";
      await uploadFile(
        page,
        fileWith(
          "contacts.csv",
          `${headers}Ingrid Halvorsen,ingrid@example.com,(612) 555-0101,green\r\nTeo Marchetti,teo@example.com,(612) 555-0102,blue\r\n`,
        ),
        "upload",
      );
      await page.getByRole("heading", { name: "Match your columns: customers" }).waitFor();
      const body = await page.locator("body").innerText();
      assert.match(body, /Check: could be several fields/);
      assert.match(body, /Ingrid Halvorsen/);
      assert.equal(await page.getByLabel("Client Name").inputValue(), "name", "chosen in advance");
      assert.equal(await page.getByLabel("Favourite Colour").inputValue(), "ignore");
      await screenshot(page, `import-mapping-${suffix}`);
      await phoneShot(page, `import-mapping-phone-${suffix}`);

      // The required name left without a column: refused beside the columns, nothing stored.
      await page.getByLabel("Contact").selectOption("phone");
      await page.getByLabel("Client Name").selectOption("ignore");
      await page.getByRole("button", { name: "Continue to the preview" }).click();
      await page.locator("#field-column-error").waitFor();
      assert.match(
        await page.locator("#field-column-error").innerText(),
        /Choose a column for the required field name/,
      );
      assert.equal(await page.getByLabel("Client Name").inputValue(), "ignore", "the choice kept");
      assert.equal(await countOf(t.id, "import_runs"), 0);
      await screenshot(page, `import-mapping-refused-${suffix}`);

      assert.equal(await page.getByLabel("Contact").inputValue(), "phone", "the choice kept");
      await page.getByLabel("Client Name").selectOption("name");
      await Promise.all([
        page.waitForURL((u) => u.searchParams.has("preview")),
        page.getByRole("button", { name: "Continue to the preview" }).click(),
      ]);
      await page.getByRole("heading", { name: "Preview: contacts.csv" }).waitFor();
      assert.match(await page.locator("body").innerText(), /Contact → phone/);

      // The same headers again: straight to the preview with that choice.
      await uploadFile(
        page,
        fileWith("more-contacts.csv", `${headers}Amara Nwosu,amara@example.com,(612) 555-0103,red\r\n`),
        "preview",
      );
      await page.getByRole("heading", { name: "Preview: more-contacts.csv" }).waitFor();
      assert.match(await page.locator("body").innerText(), /Contact → phone/);

      // A Jobber client export: recognised, no step.
      await uploadFile(
        page,
        fileWith("jobber-clients.csv", jobberClients(12, { twoProperties: 3, threeProperties: 1 }).csv),
        "preview",
      );
      await page.getByRole("heading", { name: "Preview: jobber-clients.csv" }).waitFor();
      assert.match(await page.locator("body").innerText(), /Recognised: Jobber client export/);
      await screenshot(page, `import-jobber-preview-${suffix}`);
      await phoneShot(page, `import-jobber-preview-phone-${suffix}`);
      await context.close();
    });
  }
});
