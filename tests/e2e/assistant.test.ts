import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { generateGuidance } from "../../app/services/assistant/engine";
import { JS_MODES, newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { BASE_URL } from "../helpers/client";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

describe("browser: the assistant", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";
    test(`with ${mode.label}: submit the form and read the guidance on /ai-assistant`, async () => {
      const t = await createTenantWithUsers("Northside Plumbing & Electric");
      const context = await newContext(browser, mode);
      if (mode.javaScript) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
      const page = await context.newPage();
      await signIn(page, t.users.technician.email, DEFAULT_PASSWORD);
      await page.goto("/ai-assistant");
      assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Assistant");
      await screenshot(page, `assistant-empty-${tag}`);

      const title = "Replace 50 gallon gas water heater";
      const details = "In the garage, about 12 years old, two-story house.";
      const expected = generateGuidance({ mode: "schedule", jobTitle: title, details });
      await page.getByRole("radio", { name: "Schedule" }).check();
      await page.getByLabel("Job title").fill(title);
      await page.getByLabel("Details").fill(details);
      const heading = page.locator("#guidance-title");
      if (mode.javaScript) {
        // Rendered in place from the JSON answer: no navigation.
        let navigated = false;
        page.on("framenavigated", (f) => {
          if (f === page.mainFrame()) navigated = true;
        });
        await page.getByRole("button", { name: "Get guidance" }).click();
        await heading.waitFor();
        assert.equal(navigated, false, "no page load");
      } else {
        await Promise.all([
          page.waitForURL((u) => u.pathname === "/ai-assistant"),
          page.getByRole("button", { name: "Get guidance" }).click(),
        ]);
      }
      assert.equal(new URL(page.url()).pathname, "/ai-assistant");
      assert.equal(new URL(page.url()).search, "", "the guidance is not in the URL");
      assert.equal(await heading.innerText(), expected.guidance.title);
      const shown = await page.locator(".guidance-section h3").allInnerTexts();
      assert.deepEqual(
        shown,
        expected.guidance.sections.map((s) => s.heading),
      );
      const text = await page.locator("#guidance").innerText();
      for (const item of expected.guidance.sections[0].items) assert.ok(text.includes(item), item);
      // The form keeps what was typed.
      assert.equal(await page.getByLabel("Job title").inputValue(), title);
      assert.equal(await page.getByRole("radio", { name: "Schedule" }).isChecked(), true);

      const copy = page.getByRole("button", { name: "Copy" });
      if (mode.javaScript) {
        await copy.click();
        await page.getByRole("button", { name: "Copied" }).waitFor();
        const clipboard = await page.evaluate(() => navigator.clipboard.readText());
        assert.ok(
          clipboard.startsWith(`${expected.guidance.title}\n\n${expected.guidance.summary}\n\n`),
          clipboard.slice(0, 200),
        );
        assert.ok(clipboard.includes(`- ${expected.guidance.sections[1].items[0]}`));
      } else {
        assert.equal(await copy.count(), 0, "no Copy button that could not work");
      }
      await screenshot(page, `assistant-guidance-${tag}`);
      assert.equal(await page.locator(".guidance-asked").isVisible(), false, "on screen the form says it");
      await page.emulateMedia({ media: "print" });
      assert.equal(
        await page.locator("form[action='/ai-assistant/generate']").isVisible(),
        false,
        "the form is not printed",
      );
      assert.equal(await heading.isVisible(), true);
      assert.match(
        await page.locator(".guidance-asked").innerText(),
        new RegExp(`Job\\s+${title}`),
        "the printout says which job",
      );
      await screenshot(page, `assistant-print-${tag}`);
      await page.emulateMedia({ media: "screen" });

      // With JavaScript, a refused field comes back beside the field from the JSON answer (the
      // maxlength attribute is removed to get past the browser; the no-JS case is in the HTTP tests).
      if (mode.javaScript) {
        await page.getByLabel("Job title").evaluate((el) => el.removeAttribute("maxlength"));
        await page.getByLabel("Job title").fill("x".repeat(201));
        await page.getByRole("button", { name: "Get guidance" }).click();
        await page.locator("#field-job_title-error").waitFor();
        assert.match(await page.locator("#field-job_title-error").innerText(), /at most 200 characters/);
        assert.equal(await page.getByLabel("Job title").getAttribute("aria-invalid"), "true");
        await screenshot(page, `assistant-error-${tag}`);
      }
      await context.close();
    });
  }
});
