// Issue 21 point 2 in a browser on a phone: photos taken offline are resized, queued, uploaded
// once when the connection is back (even when an answer is lost and the upload retried), and
// shown on the office's job page; a photo refused as too large is said so; without JavaScript a
// plain upload form works.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { rows } from "../../db/index";
import { expectNoSeriousAxeViolations, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { BASE_URL } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers } from "../helpers/fixtures";
import { testPng } from "../helpers/photos";

const PHONE = { width: 390, height: 844 };
const phone = (browser: Browser, javaScript = true): Promise<BrowserContext> =>
  browser.newContext({
    javaScriptEnabled: javaScript,
    baseURL: BASE_URL,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });

const card = (page: Page, title: string) =>
  page.locator("article.job-card", { has: page.getByRole("heading", { name: title }) });

const photosOf = (tenantId: string, jobId: string) =>
  rows<{ id: string; content_type: string; byte_size: number; bytes: Buffer; taken_by: string }>(
    `SELECT id, content_type, byte_size, bytes, taken_by FROM job_photos WHERE tenant_id = $1 AND job_id = $2 ORDER BY taken_at, id`,
    [tenantId, jobId],
  );

/** A JPEG's width and height, from its start-of-frame marker. */
function jpegSize(b: Buffer): { width: number; height: number } {
  let i = 2;
  while (i < b.length) {
    const marker = b[i + 1];
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  throw new Error("no SOF marker");
}

async function setup() {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id, {
    name: "Maria Gonzalez",
    phone: "555-0147",
    address_line1: "48 Alder Lane",
  });
  const job = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: t.users.technician.id,
    title: "Water heater replacement",
    status: "in_progress",
    scheduledStart: new Date(),
  });
  return { t, job };
}

describe("browser: job photos from the field", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("offline on a phone: two photos queue, upload once when back online (a lost answer retried), and the job page shows both", async () => {
    const { t, job } = await setup();
    const context = await phone(browser);
    const page = await context.newPage();
    await signIn(page, t.users.technician.email, t.users.technician.password);
    await page.getByText("All changes synced").waitFor();
    const jobCard = card(page, "Water heater replacement");
    await jobCard.getByText("Add photo").waitFor();
    // The first push has answered (going offline before it does would leave the bar on its answer).
    await page.getByText("Last synced at").waitFor();
    await expectNoSeriousAxeViolations(page, "my day with photo controls");

    // Every upload goes through; the first one's answer is lost on the way back (stored, but the
    // phone does not know), so the phone sends it again.
    const puts: number[] = [];
    await page.route("**/api/field/jobs/**", async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const response = await route.fetch();
      puts.push(response.status());
      if (puts.length === 1) return route.abort("connectionreset");
      return route.fulfill({ response });
    });

    await context.setOffline(true);
    // The camera (capture=environment), then the gallery; both larger than 1600 px.
    await jobCard
      .locator('input[type="file"][capture="environment"]')
      .setInputFiles({ name: "boiler.png", mimeType: "image/png", buffer: testPng(2400, 1800, [220, 90, 30]) });
    await page.getByText("1 photo waiting to sync").waitFor();
    await jobCard
      .locator('input[type="file"]:not([capture])')
      .setInputFiles({ name: "valve.png", mimeType: "image/png", buffer: testPng(1200, 2000, [30, 90, 220]) });
    await page.getByText("2 photos waiting to sync").waitFor();
    assert.equal(await jobCard.getByText("Waiting to upload").count(), 2);
    assert.match(await page.locator(".sync-bar").innerText(), /You are offline/);
    await screenshot(page, "field-photos-offline");
    assert.deepEqual(
      await page.evaluate(() =>
        [...document.querySelectorAll("main *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
          .map((e) => e.outerHTML.slice(0, 80)),
      ),
      [],
      "nothing wider than the phone",
    );
    assert.equal((await photosOf(t.id, job.id)).length, 0, "nothing reached the server while offline");

    // Still there after a reload (IndexedDB), then back online.
    await page.reload();
    await page.getByText("2 photos waiting to sync").waitFor();
    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    await page.getByText("All changes synced").waitFor({ timeout: 30_000 });
    assert.equal(await jobCard.getByText("Uploaded").count(), 2);
    await screenshot(page, "field-photos-uploaded");

    const stored = await photosOf(t.id, job.id);
    assert.equal(stored.length, 2, "both photos, once each");
    assert.equal(puts.filter((s) => s === 201).length, 2, "each stored by one PUT");
    assert.ok(
      puts.length >= 3 && puts.slice(1).includes(200),
      `the lost answer's photo was sent again and answered 200 (answers: ${puts.join(", ")})`,
    );
    for (const p of stored) {
      assert.equal(p.content_type, "image/jpeg");
      assert.equal(p.taken_by, t.users.technician.id);
      const { width, height } = jpegSize(Buffer.from(p.bytes));
      assert.equal(Math.max(width, height), 1600, "resized so its longest side is 1600 px");
    }

    // The office sees both on the job page, once each, with who took them.
    const office = await phone(browser);
    const officePage = await office.newPage();
    await signIn(officePage, t.users.office.email, t.users.office.password);
    await officePage.goto(`/jobs/${job.id}`);
    const gallery = officePage.locator("section", { has: officePage.getByRole("heading", { name: "Photos" }) });
    assert.equal(await gallery.locator("img").count(), 2);
    assert.match(await gallery.innerText(), /2 photos/);
    assert.equal(await gallery.getByText(t.users.technician.name).count(), 2);
    await gallery.locator("img").first().scrollIntoViewIfNeeded();
    await officePage.waitForFunction(() =>
      [...document.querySelectorAll(".photo-grid img")].every(
        (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    await screenshot(officePage, "job-page-photos");
    const full = await officePage.request.get(`/jobs/${job.id}/photos/${stored[0].id}`);
    assert.equal(full.status(), 200);
    assert.equal(full.headers()["content-type"], "image/jpeg");
    await office.close();
    await context.close();
  });

  test("a photo the server refuses as too large (413) is said so on the card, and can be dismissed", async () => {
    const { t, job } = await setup();
    const context = await phone(browser);
    const page = await context.newPage();
    await signIn(page, t.users.technician.email, t.users.technician.password);
    await page.getByText("All changes synced").waitFor();
    // A resized photo is far below 5 MiB; the server's 413 is what this checks the page for.
    await page.route("**/api/field/jobs/**", (route) =>
      route.fulfill({
        status: 413,
        contentType: "application/json",
        body: JSON.stringify({
          success: false,
          error: {
            code: "PAYLOAD_TOO_LARGE",
            message: "The photo is larger than 5 MiB, even after resizing.",
            fields: {},
          },
          meta: { requestId: "x" },
        }),
      }),
    );
    const jobCard = card(page, "Water heater replacement");
    await jobCard
      .locator('input[type="file"][capture="environment"]')
      .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: testPng(800, 600, [10, 160, 60]) });
    const alert = jobCard.getByRole("alert").filter({ hasText: "too large" });
    await alert.waitFor();
    assert.match(await alert.innerText(), /This photo is too large to upload \(over 5 MiB\)/);
    assert.match(await jobCard.innerText(), /Not uploaded/);
    await page.getByText("All changes synced").waitFor();
    await screenshot(page, "field-photos-too-large");
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await alert.waitFor({ state: "detached" });
    assert.equal((await photosOf(t.id, job.id)).length, 0);
    await context.close();
  });

  test("without JavaScript: a plain upload form adds the photo", async () => {
    const { t, job } = await setup();
    const context = await phone(browser, false);
    const page = await context.newPage();
    await signIn(page, t.users.technician.email, t.users.technician.password);
    await page.goto("/field");
    const jobCard = card(page, "Water heater replacement");
    await jobCard
      .getByLabel("Add a photo")
      .setInputFiles({ name: "meter.png", mimeType: "image/png", buffer: testPng(640, 480, [120, 120, 20]) });
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/field"),
      jobCard.getByRole("button", { name: "Upload photo" }).click(),
    ]);
    await page.getByText("Photo added.").waitFor();
    await screenshot(page, "field-photos-no-js");
    const stored = await photosOf(t.id, job.id);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].content_type, "image/png");
    await context.close();
  });
});
