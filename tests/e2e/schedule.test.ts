import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { newContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { createCustomer, createJob, createTenantWithUsers, createUser, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The dispatch board in a browser (CONTRACT section 13): the no-JavaScript form on each card,
// and drag and drop with JavaScript on, which moves the card at once and puts it back with
// the server's message when the move is refused.

const ZONE = "America/Chicago";

async function seed() {
  const t = await createTenantWithUsers("Summit Plumbing & Heating");
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  await rows(`UPDATE users SET name = 'Olive Office' WHERE tenant_id = $1 AND id = $2`, [t.id, t.users.office.id]);
  const dana = await createUser(t.id, { role: "technician", name: "Dana Diaz" });
  const eli = await createUser(t.id, { role: "technician", name: "Eli Moreau" });
  const sam = await createUser(t.id, { role: "technician", name: "Sam Okafor" });
  const monday = addDays(weekStart(zonedToday(ZONE)), 7);
  const day = (n: number) => addDays(monday, n);
  const customers = await Promise.all(
    [
      ["Rosa Marquez", "48 Oak Lane"],
      ["Ben Whitaker", "1207 Maple Ave"],
      ["Priya Natarajan", "9 Harbor View Rd"],
      ["Hector Alvarez", "300 Pine St, Apt 4"],
      ["Grace Liu", "77 Orchard Ct"],
      ["Tom Becker", "15 Lakeside Dr"],
    ].map(([name, street]) => createCustomer(t.id, { name, address_line1: street, city: "Naperville" })),
  );
  const at = async (
    title: string,
    c: number,
    assigneeId: string | null,
    dayIndex: number | null,
    from: string,
    to: string,
    status?: string,
  ) => {
    const job = await createJob(t.id, {
      customerId: customers[c].id,
      title,
      assigneeId,
      status,
      scheduledStart: dayIndex === null ? null : zonedToUtc(`${day(dayIndex)}T${from}`, ZONE),
    });
    if (dayIndex !== null)
      await rows(`UPDATE jobs SET scheduled_end = $3 WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        job.id,
        zonedToUtc(`${day(dayIndex)}T${to}`, ZONE),
      ]);
    return job;
  };
  const heater = await at("Replace water heater", 0, dana.id, 1, "09:00", "11:00");
  await at("Drain cleaning", 1, dana.id, 1, "13:00", "14:30");
  await at("Furnace tune-up", 2, dana.id, 1, "10:30", "12:00");
  await at("Leaking faucet", 3, eli.id, 1, "08:00", "09:00", "en_route");
  await at("Sump pump install", 4, eli.id, 2, "10:00", "13:00");
  await at("Gas line inspection", 5, sam.id, 1, "15:00", "16:30", "completed");
  await at("Boiler service", 1, sam.id, 3, "09:30", "11:00");
  const cancelled = await at("Annual AC check", 2, dana.id, 1, "16:00", "17:00", "cancelled");
  const waiting = await at("Install smart thermostat", 5, null, null, "", "");
  await at("Replace garbage disposal", 3, null, null, "", "");
  return { t, dana, eli, sam, tuesday: day(1), wednesday: day(2), heater, cancelled, waiting };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

async function signedIn(
  browser: Browser,
  s: Seeded,
  javaScript: boolean,
  viewport?: { width: number; height: number },
) {
  const context = await newContext(browser, { javaScript });
  if (viewport) await context.pages()[0]?.setViewportSize(viewport);
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
  return { context, page };
}

const card = (page: Page, jobId: string) => page.locator(`article[data-job-id="${jobId}"]`);

/** Where the time `minute` (since midnight) falls on a technician's day track, relative to the track. */
async function slot(page: Page, assigneeId: string, minute: number) {
  const track = page.locator(`.day-row[data-assignee="${assigneeId}"] .track`);
  const [from, to] = await track.evaluate((el) => [
    Number(el.getAttribute("data-from")),
    Number(el.getAttribute("data-to")),
  ]);
  const box = (await track.boundingBox())!;
  return { track, position: { x: ((minute - from) / (to - from)) * box.width + 2, y: box.height - 6 } };
}

describe("browser: the dispatch board", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("JavaScript off: the week shows the Tuesday 09:00 job in its technician's Tuesday column; the card's form moves it to another technician on Wednesday", async () => {
    const s = await seed();
    const { context, page } = await signedIn(browser, s, false);
    try {
      await page.goto(`/schedule?view=week&date=${s.tuesday}`);
      const tuesday = page.locator(`tr[data-assignee="${s.dana.id}"] td[data-date="${s.tuesday}"]`);
      await assert.doesNotReject(tuesday.locator(`article[data-job-id="${s.heater.id}"]`).waitFor());
      assert.match(
        await tuesday.locator(`article[data-job-id="${s.heater.id}"]`).innerText(),
        /9:00–11:00 AM[\s\S]*Replace water heater[\s\S]*Rosa Marquez/,
      );
      await screenshot(page, "schedule-week-desktop");

      await card(page, s.heater.id).getByRole("link", { name: /Move/ }).click();
      // The visit's form: its crew as checkboxes.
      await page.getByLabel("Dana Diaz", { exact: true }).uncheck();
      await page.getByLabel("Eli Moreau", { exact: true }).check();
      await page.getByLabel("Start", { exact: true }).fill(`${s.wednesday}T13:30`);
      await page.getByLabel("End", { exact: true }).fill(`${s.wednesday}T15:30`);
      await page.getByRole("button", { name: "Save schedule" }).click();
      await page.waitForURL((u) => u.pathname === "/schedule");
      assert.match(await page.getByRole("status").first().innerText(), /booked .*1:30–3:30 PM, with Eli Moreau/);
      const moved = page.locator(
        `tr[data-assignee="${s.eli.id}"] td[data-date="${s.wednesday}"] article[data-job-id="${s.heater.id}"]`,
      );
      assert.match(await moved.innerText(), /1:30–3:30 PM/);
      assert.equal(
        await page.locator(`tr[data-assignee="${s.dana.id}"] article[data-job-id="${s.heater.id}"]`).count(),
        0,
      );
      // The job's history says who moved it.
      await moved.getByRole("link", { name: "Replace water heater", exact: true }).click();
      await page.getByRole("heading", { name: "History" }).waitFor();
      assert.match(
        await page.getByRole("list", { name: /History/ }).innerText(),
        /Moved to Wednesday, .*1:30–3:30 PM, with Eli Moreau by Olive Office/,
      );
      await screenshot(page, "schedule-job-history");

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await screenshot(page, "schedule-week-phone");
      await page.goto(`/schedule?view=day&date=${s.tuesday}`);
      await screenshot(page, "schedule-day-phone");
    } finally {
      await context.close();
    }
  });

  test("JavaScript on: a job dragged from Unscheduled to a technician's 10:00 slot is there after a reload; a cancelled job's move is refused and snaps back with the message", async () => {
    const s = await seed();
    const { context, page } = await signedIn(browser, s, true);
    try {
      await page.goto(`/schedule?view=day&date=${s.tuesday}`);
      await page.locator(`article[data-job-id="${s.waiting.id}"][draggable="true"]`).waitFor();
      await screenshot(page, "schedule-day-desktop");

      const target = await slot(page, s.dana.id, 10 * 60);
      await card(page, s.waiting.id).dragTo(target.track, { targetPosition: target.position });
      // Shown at once where it was dropped, then saved.
      await page.locator(`.day-row[data-assignee="${s.dana.id}"] article[data-job-id="${s.waiting.id}"]`).waitFor();
      await page
        .getByRole("status")
        .filter({ hasText: /is booked/ })
        .waitFor();
      await page.reload();
      const placed = page.locator(`.day-row[data-assignee="${s.dana.id}"] article[data-job-id="${s.waiting.id}"]`);
      assert.equal(await placed.getAttribute("data-start"), `${s.tuesday}T10:00`);
      assert.match(await placed.innerText(), /10:00–11:00 AM/);
      assert.equal(await page.locator(`.unscheduled article[data-job-id="${s.waiting.id}"]`).count(), 0);

      // A cancelled job cannot be moved: the card goes back and the server's message shows.
      const before = await card(page, s.cancelled.id).getAttribute("data-start");
      const elsewhere = await slot(page, s.eli.id, 14 * 60);
      await card(page, s.cancelled.id).dragTo(elsewhere.track, { targetPosition: elsewhere.position });
      const alert = page.getByRole("alert").filter({ hasText: /cancelled/ });
      await alert.waitFor();
      assert.match(await alert.innerText(), /“Annual AC check” is cancelled\. Reopen it before scheduling it\./);
      await screenshot(page, "schedule-day-refused");
      const back = page.locator(`.day-row[data-assignee="${s.dana.id}"] article[data-job-id="${s.cancelled.id}"]`);
      await back.waitFor();
      assert.equal(await back.getAttribute("data-start"), before);
      assert.equal(
        await page.locator(`.day-row[data-assignee="${s.eli.id}"] article[data-job-id="${s.cancelled.id}"]`).count(),
        0,
      );
      await page.reload();
      assert.equal(await card(page, s.cancelled.id).getAttribute("data-start"), before);
    } finally {
      await context.close();
    }
  });
});
