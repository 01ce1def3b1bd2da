import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import {
  consoleErrors,
  JS_MODES,
  newContext,
  phoneContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createCustomer, createJob, createQuote, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";
import { portalSetup } from "../helpers/portal";

// The pages' stylesheets come inline on the first answer (app/components/page-links.tsx): the
// pages look as styled as before, with JavaScript on and off, on a desktop and a 390 px phone;
// the inline styles pass the CSP (no violation); and a client-side navigation to a page with a
// stylesheet of its own brings it as a link, and drops the one of the page it leaves.

/** CSP violations the page reports (an inline style without its nonce would be one). */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** The sidebar or the portal's frame is laid out by the app's stylesheet (not the browser's defaults). */
const styled = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).margin === "0px" && !!document.querySelector("style[data-href]"));

describe("browser: the first answer's inline stylesheets", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    test(`six pages styled on a desktop and a 390 px phone, no CSP violation (${mode.label})`, async () => {
      const t = await createTenantWithUsers("Inline Styles Plumbing");
      const customer = await createCustomer(t.id, { name: "Ana García" });
      const quote = await createQuote(t.id, { customerId: customer.id });
      await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
      const portal = await portalSetup({ tenant: t });
      const tag = mode.javaScript ? "js" : "nojs";
      for (const [size, open] of [
        ["desktop", () => newContext(browser, { javaScript: mode.javaScript })],
        ["phone", () => phoneContext(browser, { javaScript: mode.javaScript })],
      ] as const) {
        for (const [who, paths] of [
          [
            t.users.owner,
            [
              ["dashboard", "/"],
              ["customers", "/customers"],
              ["quote", `/quotes/${quote.id}`],
              ["schedule", "/schedule"],
              ["portal", portal.url],
            ],
          ],
          [t.users.technician, [["field", "/field"]]],
        ] as const) {
          const context = await open();
          try {
            const page = await context.newPage();
            const errors = consoleErrors(page);
            await watchViolations(page);
            await signIn(page, who.email, DEFAULT_PASSWORD);
            for (const [name, path] of paths) {
              await page.goto(path);
              await page.getByRole("heading", { level: 1 }).first().waitFor();
              assert.ok(await styled(page), `${name}: styled by the inline stylesheet`);
              assert.equal(await page.locator('link[rel="stylesheet"]').count(), 0, `${name}: no stylesheet link`);
              if (mode.javaScript) assert.deepEqual(await violations(page), [], `${name}: CSP violations`);
              await screenshot(page, `first-paint-${name}-${size}-${tag}`, { fullPage: false });
            }
            assert.deepEqual(errors, [], "no console errors");
          } finally {
            await context.close();
          }
        }
      }
    });
  }

  test("no layout shift on a 390 px phone while the six pages load and hydrate (the field app's sync bar has its place)", async () => {
    const t = await createTenantWithUsers("Steady Plumbing");
    const customer = await createCustomer(t.id, { name: "Ana García" });
    const quote = await createQuote(t.id, { customerId: customer.id });
    await createJob(t.id, { customerId: customer.id, assigneeId: t.users.technician.id });
    const portal = await portalSetup({ tenant: t });
    for (const [who, paths] of [
      [
        t.users.owner,
        [
          ["dashboard", "/"],
          ["customers", "/customers"],
          ["quote", `/quotes/${quote.id}`],
          ["schedule", "/schedule"],
          ["portal", portal.url],
        ],
      ],
      [t.users.technician, [["field", "/field"]]],
    ] as const) {
      const context = await phoneContext(browser, { javaScript: true });
      // The scripts come late, as on a phone on slow 4G: the page paints from its HTML first, then
      // hydrates (on localhost they would land before the first paint and hide any shift).
      await context.route("**/build/**/*.js", async (route) => {
        await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      });
      try {
        const page = await context.newPage();
        // Every layout shift from the start of each document, as Lighthouse's CLS counts them.
        await page.addInitScript(() => {
          const w = window as unknown as { __shifts: Array<{ value: number; nodes: string[] }> };
          w.__shifts = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as Array<{
              value: number;
              hadRecentInput: boolean;
              sources?: Array<{ node?: Node | null }>;
            }>) {
              if (e.hadRecentInput) continue;
              const nodes = (e.sources ?? []).map((s) => {
                const el = s.node as Element | null | undefined;
                return el?.nodeType === 1 ? `${el.tagName.toLowerCase()}.${el.className}` : String(el?.nodeName);
              });
              w.__shifts.push({ value: e.value, nodes });
            }
          }).observe({ type: "layout-shift", buffered: true });
        });
        await signIn(page, who.email, DEFAULT_PASSWORD);
        for (const [name, path] of paths) {
          await page.goto(path, { waitUntil: "load" });
          await page.waitForFunction(() => (window as unknown as { __remixRouter?: unknown }).__remixRouter);
          // The field app: its outbox opened and its first push answered (the bar says so).
          if (name === "field")
            await page.locator(".sync-bar:not(.sync-placeholder)", { hasText: "Last synced" }).waitFor();
          await page.waitForTimeout(300);
          const shifts = await page.evaluate(
            () => (window as unknown as { __shifts: Array<{ value: number; nodes: string[] }> }).__shifts,
          );
          const cls = shifts.reduce((sum, s) => sum + s.value, 0);
          assert.ok(cls < 0.01, `${name}: layout shift ${cls.toFixed(3)} (${JSON.stringify(shifts)})`);
        }
      } finally {
        await context.close();
      }
    }
  });

  test("a client-side navigation brings the next page's stylesheet as a link and drops the last one's", async () => {
    const t = await createTenantWithUsers("Navigating Plumbing");
    const context = await newContext(browser, { javaScript: true });
    try {
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await watchViolations(page);
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      await page.goto("/schedule");
      await page.locator(".schedule-page").waitFor();
      // Hydrated: the sidebar's links navigate without a new document.
      await page.waitForFunction(() => (window as unknown as { __remixRouter?: unknown }).__remixRouter);
      const board = () => page.locator(".content").evaluate((e) => getComputedStyle(e).maxWidth);
      assert.equal(await board(), "none", "the schedule's own stylesheet (inline) widens the content");
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

      await page.locator(".sidebar").getByRole("link", { name: "Customers", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/customers");
      await page.getByRole("heading", { name: "Customers", level: 1 }).waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), true);
      assert.equal(await page.locator('style[data-href*="schedule"]').count(), 0, "the schedule's styles are gone");
      assert.notEqual(await board(), "none");

      await page.locator(".sidebar").getByRole("link", { name: "Schedule", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/schedule");
      await page.locator(".schedule-page").waitFor();
      assert.equal(await page.locator('link[rel="stylesheet"][href*="schedule"]').count(), 1, "as a link");
      await page.waitForFunction(() => getComputedStyle(document.querySelector(".content")!).maxWidth === "none");
      assert.equal(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), true);
      await screenshot(page, "first-paint-schedule-after-navigation");
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
