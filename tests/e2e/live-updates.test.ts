// Live updates in the browser (CONTRACT section 17): with JavaScript on, /requests shows a
// booking request made through ANOTHER app server without a reload; with JavaScript off the
// page stays as loaded (a reload shows it).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { clientFor } from "../helpers/client";
import { createCustomer, createJob, createUser, DEFAULT_PASSWORD } from "../helpers/fixtures";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";
import { startServer, type RunningServer } from "../helpers/server";

describe("browser: live updates", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));
  let second: RunningServer;
  before(async () => {
    second = await startServer();
  });
  after(async () => {
    await second?.stop();
  });

  test("/requests shows a booking request made through a second app server without a reload (JavaScript on)", async () => {
    const s = await portalSetup({ businessName: "Live Gutters", customerName: "Noor Haddad" });
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    try {
      await signIn(page, s.tenant.users.office.email, DEFAULT_PASSWORD);
      const events = page.waitForResponse((r) => new URL(r.url()).pathname === "/events");
      await page.goto("/requests");
      assert.equal((await events).status(), 200, "the page listens to /events");
      await page.getByRole("heading", { level: 1 }).waitFor();
      assert.doesNotMatch(await page.locator("main").innerText(), /Gutter overflowing onto the porch/);
      // A mark on this document: a reload would make a new one without it.
      await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));

      const res = await portalRequest("POST", "/api/portal/booking-request", {
        base: second.url,
        ip: randomLoopback(),
        form: { token: s.token, service: "Gutter overflowing onto the porch", timeWindow: "morning" },
      });
      assert.equal(res.status, 303);
      await page.getByText("Gutter overflowing onto the porch").first().waitFor({ timeout: 10_000 });
      assert.equal(
        await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark),
        1,
        "the same document: no reload",
      );
      await screenshot(page, "live-requests-desktop-js");
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, "live-requests-phone-js");
    } finally {
      await context.close();
    }
  });
  test("/schedule shows a move made by another member without a reload (JavaScript on)", async () => {
    const s = await portalSetup({ businessName: "Live Dispatch" });
    const tech = await createUser(s.tenant.id, { role: "technician", name: "Tariq Field" });
    const customer = await createCustomer(s.tenant.id, { name: "Wen Zhao" });
    const job = await createJob(s.tenant.id, {
      customerId: customer.id,
      title: "Service the boiler",
      scheduledStart: null,
    });
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    try {
      await signIn(page, s.tenant.users.admin.email, DEFAULT_PASSWORD);
      const events = page.waitForResponse((r) => new URL(r.url()).pathname === "/events");
      await page.goto("/schedule?view=day");
      assert.equal((await events).status(), 200, "the board listens to /events");
      const card = page.locator(`article[data-job-id="${job.id}"]`);
      await card.waitFor();
      assert.equal(await card.getAttribute("data-start"), "", "unscheduled at first");
      await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
      // Another member moves it, through the other app server, to today 10:00 with the technician.
      const today = (await page.locator("[data-date]").first().getAttribute("data-date"))!;
      const office = await clientFor(s.tenant.users.office, second.url);
      const moved = await office.post(`/jobs/${job.id}/schedule`, {
        assigneeId: tech.id,
        scheduledStart: `${today}T10:00`,
        scheduledEnd: `${today}T11:00`,
      });
      assert.equal(moved.status, 303);
      await page
        .locator(`[data-assignee="${tech.id}"] article[data-job-id="${job.id}"][data-start="${today}T10:00"]`)
        .waitFor({ timeout: 10_000 });
      assert.equal(
        await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark),
        1,
        "the same document: no reload",
      );
    } finally {
      await context.close();
    }
  });
});
