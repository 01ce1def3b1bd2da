import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { deliver, nowSeconds, startBillingServer, stripeSubscriptionEvent } from "../helpers/billing";
import { JS_MODES, launch, newContext, screenshot, signIn, SKIP_BROWSER } from "../helpers/browser";
import { createTenantWithUsers } from "../helpers/fixtures";
import type { RunningServer } from "../helpers/server";

describe("browser: the owner's billing page", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  let server: RunningServer;
  before(async () => {
    [browser, server] = await Promise.all([launch(), startBillingServer()]);
  });
  after(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
  });

  test("without a configured provider (the shared server), the page says so", async () => {
    const t = await createTenantWithUsers("Lakeside Plumbing");
    const context = await newContext(browser, { javaScript: false });
    const page = await context.newPage();
    await signIn(page, t.users.owner.email, t.users.owner.password);
    await page.goto("/settings/billing");
    assert.match(await page.getByRole("status").innerText(), /Billing is not set up on this server/);
    assert.match(await page.locator("main").innerText(), /No billing events yet/);
    await screenshot(page, "billing-unconfigured-nojs");
    await context.close();
  });

  for (const mode of JS_MODES) {
    test(`with ${mode.label}`, async () => {
      const t = await createTenantWithUsers("Northside Heating & Air");
      const now = nowSeconds();
      const events = [
        stripeSubscriptionEvent("customer.subscription.created", {
          tenantId: t.id,
          price: "price_123",
          status: "trialing",
          created: now - 3 * 86400,
        }),
        stripeSubscriptionEvent("customer.subscription.updated", {
          tenantId: t.id,
          price: "price_456",
          status: "active",
          created: now - 3600,
        }),
        stripeSubscriptionEvent("customer.subscription.updated", {
          tenantId: t.id,
          price: "price_999",
          status: "active",
          created: now - 60,
        }),
        stripeSubscriptionEvent("customer.subscription.created", {
          tenantId: t.id,
          price: "price_123",
          status: "incomplete",
          created: now - 4 * 86400,
        }),
      ];
      for (const e of events)
        assert.equal((await deliver(server.url, "stripe", { body: JSON.stringify(e) })).status, 200);

      const context = await newContext(browser, { ...mode, base: server.url });
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, t.users.owner.password);
      await page.getByRole("link", { name: "Billing" }).click();
      await page.waitForURL((u) => u.pathname === "/settings/billing");
      // With JavaScript the URL changes before the new page has rendered.
      await page.locator("h1", { hasText: /^Billing$/ }).waitFor();
      const body = await page.locator("main").innerText();
      assert.match(body, /Pro/);
      assert.match(body, /Active/);
      assert.match(body, /Older than the last applied event/);
      assert.match(body, /Unknown price price_999/);
      await screenshot(page, `billing-owner-${mode.javaScript ? "js" : "nojs"}`);
      await context.close();
    });
  }
});
