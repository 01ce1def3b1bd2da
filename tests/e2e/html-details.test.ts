// What the HTML checks of issue 32 (item 15) leave to a browser: the field app's "Sign in" link
// in the sync bar is told apart by more than its colour (underlined), and the outbox shows each
// e-mail in a sandboxed frame (its table layout is no longer part of the page's HTML).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { newContext, phoneContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createJob, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";
import { one } from "../../db/index";
import { renderEmail } from "../../app/services/messages/templates.server";

describe("browser: HTML details", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("the sync bar's Sign in link, once the session is gone, is underlined (not told apart by colour alone)", async () => {
    const t = await createTenantWithUsers();
    const customer = await createCustomer(t.id, { name: "Maria Gonzalez" });
    await createJob(t.id, {
      customerId: customer.id,
      assigneeId: t.users.technician.id,
      title: "Water heater replacement",
      status: "scheduled",
      scheduledStart: new Date(Date.now() + 3600_000),
    });
    const context = await phoneContext(browser, { javaScript: true });
    try {
      const page = await context.newPage();
      await signIn(page, t.users.technician.email, DEFAULT_PASSWORD);
      await page.goto("/field");
      await page.getByRole("heading", { name: "Water heater replacement" }).waitFor();
      await context.clearCookies();
      // Back online: the app syncs at once, and the server answers 401.
      await page.evaluate(() => window.dispatchEvent(new Event("online")));
      const link = page.locator(".sync-bar").getByRole("link", { name: "Sign in" });
      await link.waitFor();
      const style = await link.evaluate((a) => {
        const s = getComputedStyle(a);
        return { line: s.textDecorationLine, color: s.color, text: getComputedStyle(a.parentElement!).color };
      });
      assert.match(style.line, /underline/, JSON.stringify(style));
      await screenshot(page, "field-sync-signed-out-phone");
    } finally {
      await context.close();
    }
  });

  test("the outbox shows an e-mail as sent inside a sandboxed frame", async () => {
    const t = await createTenantWithUsers("Summit Plumbing");
    const email = renderEmail({
      business: { name: t.name, email: "office@summit.test", phone: "555-0100", address: null, color: "#1d4ed8" },
      preview: "Your quote",
      greeting: "Hi Rosa,",
      paragraphs: ["Here is your quote Q-0001."],
      facts: [["Quote", "Q-0001"]],
      action: { label: "Review and approve", url: "https://example.test/portal/x" },
    });
    await one(
      `INSERT INTO messages (tenant_id, kind, status, to_address, from_name, subject, text_body, html_body, message_id)
       VALUES ($1, 'quote_sent', 'local', 'rosa@example.test', $2, 'Quote Q-0001 from Summit', $3, $4, '<' || gen_random_uuid() || '@html.test>') RETURNING id`,
      [t.id, t.name, email.text, email.html],
    );
    const context = await newContext(browser, { javaScript: false });
    try {
      const page = await context.newPage();
      await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
      await page.goto("/settings/messages");
      await page.getByText("Read the message").first().click();
      const frame = page.frameLocator("iframe.email-preview");
      await frame.getByText("Here is your quote Q-0001.").waitFor();
      assert.equal(await page.locator("iframe.email-preview").getAttribute("sandbox"), "");
      const box = await page.locator("iframe.email-preview").boundingBox();
      assert.ok(box && box.height > 300, "tall enough to read the message");
      await screenshot(page, "outbox-email-frame");
    } finally {
      await context.close();
    }
  });
});
