// Issue 21's acceptance, in a browser on a phone (390 px): a technician works a job with no
// signal (starts it, ticks the checklist, gets the customer's signature, completes it), comes
// back online, and one sync delivers it all once; the office's job page then shows the time
// entry from the clock's start to the completion, both photos once, the signature and the ticked
// items. While a clock runs, the office's job page says "On site since ...".
//
// The steps on site are named blocks (`onSite`); the photos (issue 21 point 2) go between the
// checklist and the signature.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { one, rows } from "../../db/index";
import {
  expectNoSeriousAxeViolations,
  imageLoaded,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { BASE_URL } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers } from "../helpers/fixtures";
import { testPng } from "../helpers/photos";

const PHONE = { width: 390, height: 844 };
const ZONE = "America/Chicago";
const CHECKLIST = ["Drain the old tank", "Fit the new heater", "Test the relief valve"];

async function day() {
  const t = await createTenantWithUsers();
  await one(`UPDATE tenants SET time_zone = $2, checklist_required = true WHERE id = $1`, [t.id, ZONE]);
  const customer = await createCustomer(t.id, {
    name: "Maria Gonzalez",
    phone: "555-0147",
    address_line1: "48 Alder Lane",
  });
  const tech = t.users.technician;
  const soon = new Date(Date.now() + 3600_000);
  const heater = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: tech.id,
    title: "Water heater replacement",
    scheduledStart: soon,
    checklist: CHECKLIST,
  });
  const furnace = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: tech.id,
    title: "Annual furnace tune-up",
    scheduledStart: new Date(Date.now() + 4 * 3600_000),
  });
  return { t, tech, heater, furnace };
}

const card = (page: Page, title: string) =>
  page.locator("article.job-card", { has: page.getByRole("heading", { name: title }) });

/** A phone: small screen, touch, JavaScript on. */
const phone = (browser: Browser) =>
  browser.newContext({
    baseURL: BASE_URL,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
    javaScriptEnabled: true,
  });

/** The pushes the page sends, with their mutations (to prove one sync carried everything). */
function recordPushes(page: Page) {
  const pushes: Array<Array<{ id: number; type: string; occurredAt: string; args: Record<string, unknown> }>> = [];
  page.on("request", (r: Request) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/offline-sync")
      pushes.push(r.postDataJSON().mutations);
  });
  return pushes;
}

/** Draws a signature with the pointer: two strokes across the pad. */
async function sign(page: Page, pad: ReturnType<Page["locator"]>) {
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  const stroke = async (points: Array<[number, number]>) => {
    await page.mouse.move(box.x + points[0][0] * box.width, box.y + points[0][1] * box.height);
    await page.mouse.down();
    for (const [x, y] of points.slice(1))
      await page.mouse.move(box.x + x * box.width, box.y + y * box.height, { steps: 6 });
    await page.mouse.up();
  };
  await stroke([
    [0.1, 0.65],
    [0.2, 0.3],
    [0.3, 0.7],
    [0.42, 0.35],
    [0.5, 0.66],
    [0.6, 0.4],
  ]);
  await stroke([
    [0.62, 0.55],
    [0.75, 0.5],
    [0.9, 0.45],
  ]);
}

const officeTime = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: ZONE }).format(new Date(iso));
const clockTime = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: ZONE }).format(new Date(iso));

describe("browser: a technician's day on a phone, offline", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("offline: start the job, tick the checklist, sign, complete; one sync; the office sees the time entry, the signature and the ticked items", async () => {
    const { t, tech, heater, furnace } = await day();
    const contexts: BrowserContext[] = [];
    try {
      const field = await phone(browser);
      contexts.push(field);
      const page = await field.newPage();
      const pushes = recordPushes(page);
      await signIn(page, tech.email, tech.password);
      await page.getByText("All changes synced").waitFor();

      // Directions and call: the address opens the maps app, the phone number calls.
      const heaterCard = card(page, "Water heater replacement");
      assert.match(
        (await heaterCard.getByRole("link", { name: /^Directions/ }).getAttribute("href"))!,
        /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=48%20Alder%20Lane/,
      );
      assert.equal(
        await heaterCard.getByRole("link", { name: "Call Maria Gonzalez" }).getAttribute("href"),
        "tel:5550147",
      );

      // Online, another job: the office sees its clock run ("On site since").
      const furnaceCard = card(page, "Annual furnace tune-up");
      await furnaceCard.getByRole("button", { name: "On my way" }).click();
      await furnaceCard.getByRole("button", { name: "Start work" }).click();
      await page.getByText("All changes synced").waitFor();
      await page.waitForFunction(() => !document.querySelector(".sync-waiting"));
      const office = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
      contexts.push(office);
      const desk = await office.newPage();
      await signIn(desk, t.users.office.email, t.users.office.password);
      await desk.goto(`/jobs/${furnace.id}`);
      const [furnaceClock] = await rows<{ on_site_at: Date }>(
        `SELECT on_site_at FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`,
        [t.id, furnace.id],
      );
      assert.match(
        (await desk.locator(".clock-banner").innerText()).replace(/\s+/g, " "),
        new RegExp(`On site since ${clockTime(furnaceClock.on_site_at.toISOString())}`),
      );
      await screenshot(desk, "field-day-office-on-site");

      // No signal from here on.
      await field.setOffline(true);
      const before = pushes.length;
      const onSite = {
        async start() {
          await heaterCard.getByRole("button", { name: "On my way" }).click();
          await heaterCard.getByRole("button", { name: "Start work" }).click();
          await heaterCard.locator(".clock-line", { hasText: "On site since" }).waitFor();
        },
        async checklist() {
          assert.match(await heaterCard.locator(".warning-text").innerText(), /3 items are not ticked/);
          assert.equal(
            await heaterCard.getByRole("button", { name: "Complete job" }).isDisabled(),
            true,
            "the business requires the checklist",
          );
          for (const item of CHECKLIST) {
            await heaterCard.getByRole("button", { name: item }).click();
            await heaterCard.getByRole("button", { name: item, pressed: true }).waitFor();
          }
          await heaterCard.locator(".warning-text").waitFor({ state: "detached" });
          assert.equal(await heaterCard.getByRole("button", { name: "Complete job" }).isEnabled(), true);
        },
        async photos() {
          // Two photos (a camera shot and one from the gallery), resized and queued on the phone.
          await heaterCard
            .locator('input[type="file"][capture="environment"]')
            .setInputFiles({ name: "old-tank.png", mimeType: "image/png", buffer: testPng(2000, 1500, [200, 90, 40]) });
          await heaterCard.locator('input[type="file"]:not([capture])').setInputFiles({
            name: "new-heater.png",
            mimeType: "image/png",
            buffer: testPng(1500, 2000, [40, 90, 200]),
          });
          await page.waitForFunction(
            (id) => document.querySelectorAll(`#job-${id} .job-photo-waiting`).length === 2,
            heater.id,
          );
        },
        async signature() {
          const pad = heaterCard.locator("canvas.signature-canvas");
          await sign(page, pad);
          await page.waitForFunction(
            (id) => document.querySelector(`#signature-${id}`)?.getAttribute("data-empty") === "false",
            heater.id,
          );
          await heaterCard.getByLabel("Customer's name").fill("Maria Gonzalez");
          await screenshot(page, "field-day-phone-signed");
        },
        async complete() {
          await heaterCard.getByRole("button", { name: "Complete job" }).click();
        },
      };
      await onSite.start();
      await onSite.checklist();
      await onSite.photos();
      await onSite.signature();
      await onSite.complete();

      await page.getByText("7 actions and 2 photos waiting to sync").waitFor();
      assert.match(await page.locator(".sync-bar").innerText(), /You are offline/);
      assert.equal(pushes.length, before, "nothing was sent while offline");
      const [stillScheduled] = await rows<{ status: string }>(
        `SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`,
        [t.id, heater.id],
      );
      assert.equal(stillScheduled.status, "scheduled", "nothing reached the server");
      assert.equal(
        (await rows(`SELECT 1 FROM job_photos WHERE tenant_id = $1`, [t.id])).length,
        0,
        "no photo reached the server",
      );
      await expectNoSeriousAxeViolations(page, "the field page on a phone, offline");
      await screenshot(page, "field-day-phone-offline");

      // Back online: one push carries the seven actions, each applied once.
      await field.setOffline(false);
      await page.getByText("All changes synced").waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => !document.querySelector(".sync-waiting"));
      const sent = pushes.slice(before).filter((m) => m.length);
      assert.equal(sent.length, 1, "one sync");
      assert.deepEqual(
        sent[0].map((m) => m.type),
        ["job.status", "job.status", "job.checklist", "job.checklist", "job.checklist", "job.signature", "job.status"],
      );
      assert.match(
        String(sent[0][5].args.image),
        /^data:image\/png;base64,iVBORw0KGgo/,
        "the drawing travels as a PNG",
      );
      await screenshot(page, "field-day-phone-synced");
      assert.match(
        await page.locator(".field-section", { hasText: "Done today" }).innerText(),
        /Water heater replacement[\s\S]*Signed by Maria Gonzalez/,
      );

      const started = sent[0][0].occurredAt;
      const completed = sent[0][6].occurredAt;
      const entries = await rows<{ started_at: Date; ended_at: Date }>(
        `SELECT started_at, ended_at FROM time_entries WHERE tenant_id = $1 AND job_id = $2`,
        [t.id, heater.id],
      );
      assert.deepEqual(
        entries.map((e) => [e.started_at.toISOString(), e.ended_at.toISOString()]),
        [[started, completed]],
        "one time entry, from the device's times",
      );
      assert.equal(
        (await rows(`SELECT 1 FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`, [t.id, heater.id])).length,
        0,
        "completing left no clock",
      );
      const events = await rows<{ to_status: string }>(
        `SELECT to_status FROM job_events WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at`,
        [t.id, heater.id],
      );
      assert.deepEqual(
        events.map((e) => e.to_status),
        ["en_route", "in_progress", "completed"],
      );
      const [signature] = await rows<{ signer_name: string; bytes: number }>(
        `SELECT signer_name, octet_length(image) AS bytes FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
        [t.id, heater.id],
      );
      assert.equal(signature.signer_name, "Maria Gonzalez");
      assert.ok(signature.bytes > 1000, `a drawn signature (${signature.bytes} bytes)`);
      const photos = await rows<{ id: string; taken_by: string; content_type: string }>(
        `SELECT id, taken_by, content_type FROM job_photos WHERE tenant_id = $1 AND job_id = $2`,
        [t.id, heater.id],
      );
      assert.equal(photos.length, 2, "both photos, once each");
      assert.ok(photos.every((p) => p.taken_by === tech.id && p.content_type === "image/jpeg"));

      // The office's job page.
      await desk.goto(`/jobs/${heater.id}`);
      const main = desk.locator("main");
      const text = await main.innerText();
      assert.doesNotMatch(text, /On site since/, "the clock stopped with Complete");
      const row = desk.locator("section[aria-labelledby='time-title'] tbody tr");
      assert.equal(await row.count(), 1);
      assert.match(
        await row.innerText(),
        new RegExp(
          `${officeTime(started).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+${officeTime(completed).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
        ),
      );
      assert.match(text, /3 of 3 ticked/);
      const gallery = desk.locator("section[aria-labelledby='photos-title']");
      assert.match(await gallery.innerText(), /2 photos/);
      assert.deepEqual(
        (await gallery.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).sort(),
        photos.map((p) => `/jobs/${heater.id}/photos/${p.id}`).sort(),
        "each photo once",
      );
      assert.equal(await gallery.getByText(tech.name).count(), 2, "who took them");
      for (const item of CHECKLIST)
        assert.match(await desk.locator(".checklist-view").innerText(), new RegExp(`${item}[\\s\\S]*?\\(ticked\\)`));
      const img = desk.getByRole("img", { name: "Signature of Maria Gonzalez" });
      assert.ok(await imageLoaded(img, 101), "the drawing is shown");
      assert.match(
        await desk.locator(".signature-view figcaption").innerText(),
        /Signed by Maria Gonzalez, .*; collected by/,
      );
      await screenshot(desk, "field-day-office-job");

      // The furnace's clock still runs; its page still says so, on the office's list too.
      await desk.goto("/jobs");
      assert.match((await desk.locator("main").innerText()).replace(/\s+/g, " "), /On site since/);
    } finally {
      for (const c of contexts) await c.close();
    }
  });
});
