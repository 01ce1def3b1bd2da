import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one } from "../../db/index";
import { PAGES, refuseLlmSave } from "../helpers/a11y-pages";
import {
  expectNoSeriousAxeViolations,
  JS_MODES,
  newContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// Every page of the app is checked with axe-core in tests/e2e/accessibility-pages-*.test.ts
// (four files, each page its own test). Here: that the page list names every page route, the
// forms by keyboard alone, and validation errors tied to their fields so a screen reader
// announces them.

describe("browser: accessibility of the forms, and the page list", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("the page list names every page route of the app", () => {
    const routes = fs
      .readdirSync(path.resolve("app/routes"))
      .filter((f) => /export default/.test(fs.readFileSync(path.resolve("app/routes", f), "utf8")));
    // Pages that only ever render a 404 or an action's answer are reached through the cases named here.
    const coveredBy: Record<string, string> = {
      "$.tsx": "page not found",
      "_index.tsx": "dashboard",
      "ai-assistant._index.tsx": "assistant",
      "customers.$id.tsx": "customer",
      "customers.$id_.portal-links.tsx": "new portal link",
      "customers._index.tsx": "customers",
      "customers.new.tsx": "new customer",
      "customers.$id_.edit.tsx": "edit customer",
      "quotes.new.tsx": "quote builder",
      "quotes.$id_.edit.tsx": "edit quote",
      "settings.price-book.tsx": "price book",
      "settings.taxes.tsx": "tax rates",
      // Its GET goes to the rates page's form for that rate.
      "settings.taxes_.$id.tsx": "tax rates",
      "settings.messages.tsx": "messages outbox",
      "unsubscribe.$token.tsx": "stop reminders",
      "field.tsx": "my day",
      "import-data._index.tsx": "import",
      "import-data.commit.tsx": "import commit page",
      "import-data.map.tsx": "import column mapping refused",
      "import-data.preview.tsx": "import upload refused",
      "import-data.undo.tsx": "import undo page",
      "invite.$token.tsx": "invite",
      "invoices.$id.tsx": "invoice",
      "invoices.$id_.payments.tsx": "record payment",
      "invoices.$id_.void.tsx": "void invoice",
      "invoices.$id_.send.tsx": "send invoice",
      "quotes.$id_.send.tsx": "send quote again",
      "invoices.new.tsx": "new invoice",
      "invoices.$id_.edit.tsx": "edit invoice",
      "invoices._index.tsx": "invoices",
      "jobs.$id.tsx": "job",
      "jobs.$id_.edit.tsx": "edit job",
      "jobs.new.tsx": "new job",
      "jobs._index.tsx": "jobs",
      "login.tsx": "sign in",
      "login_.business.tsx": "choose a business",
      "portal-links.$id.revoke.tsx": "page not found",
      "portal.$token.tsx": "portal hub",
      "quotes.$id.tsx": "quote",
      "quotes._index.tsx": "quotes",
      "reports._index.tsx": "reports",
      "requests.tsx": "booking requests",
      "requests_.$id.convert.tsx": "booking requests",
      "settings.accounting.tsx": "accounting settings",
      "settings.billing.tsx": "billing settings",
      "settings.company.tsx": "company settings",
      "settings.calendar.tsx": "calendar settings",
      "settings.calendar_.feeds.tsx": "page not found",
      "settings.calendar_.feeds.$id.revoke.tsx": "page not found",
      "schedule.tsx": "schedule week",
      "jobs.$id_.schedule.tsx": "schedule a job",
      "jobs.$id_.items.tsx": "job items and billing",
      "jobs.$id_.visits.tsx": "add a visit",
      "visits.$id_.schedule.tsx": "schedule a visit",
      "visits.$id_.edit.tsx": "edit visit",
      "settings.export.tsx": "export settings",
      "settings.llm.tsx": "language model settings",
      "signup.tsx": "sign up",
      "team.$id.invite.tsx": "team invite",
      "team._index.tsx": "team",
      "timesheets._index.tsx": "team timesheets",
    };
    assert.deepEqual(
      routes.filter((r) => !coveredBy[r]),
      [],
      "a page route without an accessibility case",
    );
    const names = new Set(PAGES.map((p) => p.name));
    for (const [route, name] of Object.entries(coveredBy))
      assert.ok(names.has(name), `${route}: no case named ${name}`);
  });

  test("the sign-in form by keyboard alone: Tab reaches each field, Enter submits", async () => {
    const t = await createTenantWithUsers();
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    await page.goto("/login");
    const focused = () =>
      page.evaluate(
        () => document.activeElement?.getAttribute("name") ?? document.activeElement?.textContent?.trim() ?? "",
      );
    const order: string[] = [];
    for (let i = 0; i < 8 && !order.includes("password"); i++) {
      await page.keyboard.press("Tab");
      order.push(await focused());
    }
    assert.ok(
      order.indexOf("email") >= 0 && order.indexOf("email") < order.indexOf("password"),
      `tab order: ${order.join(" > ")}`,
    );
    // The focused element shows where it is.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, "none", "the focused field has a visible focus outline");
    await page.keyboard.press("Shift+Tab");
    assert.equal(await focused(), "email");
    await page.keyboard.type(t.users.office.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DEFAULT_PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === "/"), page.keyboard.press("Enter")]);
    // The URL changes before the new page is drawn (a client-side navigation): wait for the
    // dashboard itself, whose absence fails the test when the wait runs out.
    await page.locator("main", { hasText: /Open jobs/i }).waitFor();
    assert.match(await page.locator("main").innerText(), /Open jobs/i, "signed in and on the dashboard");
    await context.close();
  });

  for (const mode of JS_MODES) {
    test(`a settings form by keyboard alone: Tab to a choice, change it, Enter saves (${mode.label})`, async () => {
      const t = await createTenantWithUsers();
      const context = await newContext(browser, mode);
      const page = await context.newPage();
      await signIn(page, t.users.admin.email, DEFAULT_PASSWORD);
      await page.goto("/settings/accounting");
      // The skip link comes first and jumps to the content.
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
      let reached = "";
      for (let i = 0; i < 60 && reached !== "preferred_provider"; i++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate(() => document.activeElement?.getAttribute("name") ?? "");
      }
      assert.equal(reached, "preferred_provider", "Tab reaches the first settings field");
      await page.keyboard.press("ArrowDown"); // the next option: the first accounting system
      const chosen = await page.getByLabel("Preferred accounting system").inputValue();
      assert.notEqual(chosen, "none");
      // Tab on to the push-payments checkbox, untick it with Space, then Enter on it submits the form.
      for (let i = 0; i < 10 && reached !== "push_payments"; i++) {
        await page.keyboard.press("Tab");
        reached = await page.evaluate(() => document.activeElement?.getAttribute("name") ?? "");
      }
      assert.equal(reached, "push_payments", "Tab reaches the checkbox");
      await page.keyboard.press("Space");
      await Promise.all([page.getByText("Accounting preferences saved").waitFor(), page.keyboard.press("Enter")]);
      const saved = await one<{ prefs: Record<string, unknown> }>(
        `SELECT value AS prefs FROM tenant_settings WHERE tenant_id = $1 AND key = 'accounting'`,
        [t.id],
      );
      assert.equal(saved?.prefs.preferredProvider, chosen);
      assert.equal(saved?.prefs.pushPayments, false);
      await context.close();
    });
  }

  /** The field's error is announced with it: aria-invalid, and aria-describedby naming the element with the message. */
  async function errorTiedToField(page: Page, label: string, message: RegExp) {
    const field = page.getByLabel(label, { exact: true });
    assert.equal(await field.getAttribute("aria-invalid"), "true", `${label}: aria-invalid`);
    const ids = (await field.getAttribute("aria-describedby"))?.split(/\s+/) ?? [];
    const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
    assert.ok(
      described.some((d) => message.test(d)),
      `${label}: described by ${JSON.stringify(described)}, expected ${message}`,
    );
    // And the accessible description a screen reader reads out holds the message.
    const description = await field.evaluate((el) => {
      const byId = (el.getAttribute("aria-describedby") ?? "")
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "");
      return byId.join(" ");
    });
    assert.match(description, message);
  }

  for (const mode of JS_MODES) {
    test(`validation errors sit beside their fields and are tied to them (${mode.label})`, async () => {
      const t = await createTenantWithUsers();
      const context = await newContext(browser, mode);
      const page = await context.newPage();

      await page.goto("/login");
      await page.getByLabel("Email").fill("not-an-email");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("#field-email-error").waitFor();
      await errorTiedToField(page, "Email", /email/i);
      await errorTiedToField(page, "Password", /password/i);
      await expectNoSeriousAxeViolations(page, "sign in with errors", mode);

      await page.goto("/signup");
      await page.getByLabel("Business name").fill("Summit Plumbing");
      await page.getByLabel("Your name").fill("Rosa");
      await page.getByLabel("Email").fill(`rosa-${randomUUID().slice(0, 8)}@example.test`);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.locator("#field-password-error").waitFor();
      await errorTiedToField(page, "Password", /12/);
      // The hint stays part of the description next to the error.
      assert.match((await page.getByLabel("Password").getAttribute("aria-describedby")) ?? "", /field-password-hint/);
      assert.equal(
        await page.getByLabel("Business name").getAttribute("aria-invalid"),
        null,
        "a good field is not marked",
      );
      await screenshot(page, `a11y-signup-errors-${mode.javaScript ? "js" : "nojs"}`);

      await signIn(page, t.users.admin.email, DEFAULT_PASSWORD);
      await page.goto("/settings/llm");
      await refuseLlmSave(page);
      await errorTiedToField(page, "Model", /model/i);
      await expectNoSeriousAxeViolations(page, "language model settings with errors", mode);
      await screenshot(page, `a11y-settings-llm-errors-${mode.javaScript ? "js" : "nojs"}`);
      await context.close();
    });
  }
});
