import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { consoleErrors, newContext, PHONE, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import {
  createCustomer,
  createJob,
  createQuote,
  createTenantWithUsers,
  createUser,
  DEFAULT_PASSWORD,
} from "../helpers/fixtures";

// The board places visits (CONTRACT section 20): a crew visit in each member's row, dragged
// from X's row to Y's (JavaScript on) or moved with the card's form (JavaScript off) so that Y
// takes X's place; a multi-day visit on each of its days; a job from a quote dropped with the
// quote's labour hours; a card resized by its edge.

const ZONE = "America/Chicago";

async function seed() {
  const t = await createTenantWithUsers("Summit Electric");
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, ZONE]);
  const dana = await createUser(t.id, { role: "technician", name: "Dana Diaz" });
  const eli = await createUser(t.id, { role: "technician", name: "Eli Moreau" });
  const sam = await createUser(t.id, { role: "technician", name: "Sam Okafor" });
  const monday = addDays(weekStart(zonedToday(ZONE)), 7);
  const day = (n: number) => addDays(monday, n);
  const customer = await createCustomer(t.id, {
    name: "Rosa Marquez",
    address_line1: "48 Oak Lane",
    city: "Naperville",
  });
  const other = await createCustomer(t.id, {
    name: "Ben Whitaker",
    address_line1: "1207 Maple Ave",
    city: "Naperville",
  });
  const visit = async (jobId: string, start: string, end: string, crew: string[]) => {
    const v = (await one<{ id: string }>(
      `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id`,
      [t.id, jobId, zonedToUtc(start, ZONE), zonedToUtc(end, ZONE)],
    ))!;
    for (const [i, id] of crew.entries())
      await rows(
        `INSERT INTO visit_assignees (tenant_id, visit_id, user_id, created_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
        [t.id, v.id, id, i],
      );
    return v.id;
  };
  // A panel upgrade for two electricians on Tuesday 9-12.
  const panel = await createJob(t.id, { customerId: customer.id, title: "Panel upgrade", scheduledStart: null });
  const panelVisit = await visit(panel.id, `${day(1)}T09:00`, `${day(1)}T12:00`, [dana.id, eli.id]);
  // A three-day rewiring, Monday 08:00 to Wednesday 17:00, Sam alone.
  const rewire = await createJob(t.id, { customerId: other.id, title: "Whole-house rewire", scheduledStart: null });
  const rewireVisit = await visit(rewire.id, `${monday}T08:00`, `${day(2)}T17:00`, [sam.id]);
  // A one-hour visit on Tuesday.
  const outlet = await createJob(t.id, { customerId: other.id, title: "Replace GFCI outlet", scheduledStart: null });
  const outletVisit = await visit(outlet.id, `${day(1)}T14:00`, `${day(1)}T15:00`, [eli.id]);
  // A job converted from a quote with 3 hours of labour, waiting to be scheduled.
  const quote = await createQuote(t.id, {
    customerId: customer.id,
    items: [
      { description: "EV charger, 48 A", unitPriceCents: 69_900 },
      { description: "Labour, electrical (person-hours)", quantity: "3", unitPriceCents: 11_000 },
    ],
  });
  const charger = await createJob(t.id, { customerId: customer.id, title: "Install EV charger", scheduledStart: null });
  await rows(`UPDATE jobs SET quote_id = $3 WHERE tenant_id = $1 AND id = $2`, [t.id, charger.id, quote.id]);
  return { t, dana, eli, sam, monday, day, panel, panelVisit, rewireVisit, outletVisit, charger };
}
type Seeded = Awaited<ReturnType<typeof seed>>;

async function crewOf(s: Seeded, visitId: string) {
  return (
    await rows<{ user_id: string }>(
      `SELECT user_id FROM visit_assignees WHERE tenant_id = $1 AND visit_id = $2 ORDER BY user_id`,
      [s.t.id, visitId],
    )
  ).map((r) => r.user_id);
}

async function timesOf(s: Seeded, visitId: string) {
  return one<{ start: string; end: string }>(
    `SELECT to_char(starts_at AT TIME ZONE $3, 'YYYY-MM-DD"T"HH24:MI') AS start, to_char(ends_at AT TIME ZONE $3, 'YYYY-MM-DD"T"HH24:MI') AS end
       FROM visits WHERE tenant_id = $1 AND id = $2`,
    [s.t.id, visitId, ZONE],
  );
}

const inRow = (page: Page, assigneeId: string, visitId: string) =>
  page.locator(`.day-row[data-assignee="${assigneeId}"] article[data-visit-id="${visitId}"]`);

/** Where the time `minute` falls on a technician's day track, relative to the track. */
async function slot(page: Page, assigneeId: string, minute: number) {
  const track = page.locator(`.day-row[data-assignee="${assigneeId}"] .track`);
  await track.scrollIntoViewIfNeeded();
  const [from, to] = await track.evaluate((el) => [
    Number(el.getAttribute("data-from")),
    Number(el.getAttribute("data-to")),
  ]);
  const box = (await track.boundingBox())!;
  return {
    track,
    box,
    x: ((minute - from) / (to - from)) * box.width,
    position: { x: ((minute - from) / (to - from)) * box.width + 2, y: box.height - 6 },
  };
}

describe("browser: visits on the board", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("JavaScript on: a crew visit dragged from Dana's row to Sam's makes the crew Sam and Eli; a quoted job drops with its 3 labour hours; a card resized by its edge keeps its new end", async () => {
    const s = await seed();
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    try {
      await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
      await page.goto(`/schedule?view=day&date=${s.day(1)}`);
      const card = inRow(page, s.dana.id, s.panelVisit);
      await page.locator(`article[data-visit-id="${s.panelVisit}"][draggable="true"]`).first().waitFor();
      assert.match(await card.innerText(), /Crew[\s\S]*with Eli Moreau/);
      assert.match(await inRow(page, s.eli.id, s.panelVisit).innerText(), /with Dana Diaz/);
      await screenshot(page, "visits-day-desktop");

      // Drag Dana's copy onto Sam's row at the same time.
      const target = await slot(page, s.sam.id, 9 * 60);
      await card.dragTo(target.track, { targetPosition: target.position });
      await inRow(page, s.sam.id, s.panelVisit).waitFor();
      await page
        .getByRole("status")
        .filter({ hasText: /is booked/ })
        .waitFor();
      assert.deepEqual(await crewOf(s, s.panelVisit), [s.eli.id, s.sam.id].sort());
      await page.reload();
      await inRow(page, s.sam.id, s.panelVisit).waitFor();
      assert.equal(await inRow(page, s.dana.id, s.panelVisit).count(), 0);
      assert.match(await inRow(page, s.sam.id, s.panelVisit).innerText(), /with Eli Moreau/);
      assert.match(await inRow(page, s.eli.id, s.panelVisit).innerText(), /with Sam Okafor/);
      assert.equal(await inRow(page, s.sam.id, s.panelVisit).getAttribute("data-start"), `${s.day(1)}T09:00`);

      // The quoted job: dropped on Dana's 13:00, booked for its 3 labour hours.
      const waiting = page.locator(`.unscheduled article[data-job-id="${s.charger.id}"]`);
      assert.equal(await waiting.getAttribute("data-minutes"), "180");
      const one3 = await slot(page, s.dana.id, 13 * 60);
      await waiting.dragTo(one3.track, { targetPosition: one3.position });
      await page
        .getByRole("status")
        .filter({ hasText: /Install EV charger.*is booked/ })
        .waitFor();
      await page.reload();
      const placed = page.locator(`.day-row[data-assignee="${s.dana.id}"] article[data-job-id="${s.charger.id}"]`);
      assert.equal(await placed.getAttribute("data-start"), `${s.day(1)}T13:00`);
      assert.equal(await placed.getAttribute("data-end"), `${s.day(1)}T16:00`);

      // Resize Eli's one-hour outlet visit from 15:00 to 16:00 by its right edge.
      const outlet = inRow(page, s.eli.id, s.outletVisit);
      // The day scrolls sideways at this width (each hour has room for a one-hour card): the afternoon.
      await page.locator(".board-scroll").evaluate((el) => (el.scrollLeft = el.scrollWidth));
      await outlet.scrollIntoViewIfNeeded();
      await screenshot(page, "visits-day-afternoon", { fullPage: false });
      const handle = outlet.locator(".job-resize");
      const hb = (await handle.boundingBox())!;
      const at16 = await slot(page, s.eli.id, 16 * 60);
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(at16.box.x + at16.x - 2, hb.y + hb.height / 2, { steps: 8 });
      await page.mouse.up();
      await page
        .getByRole("status")
        .filter({ hasText: /Replace GFCI outlet.*is booked/ })
        .waitFor();
      assert.deepEqual(await timesOf(s, s.outletVisit), { start: `${s.day(1)}T14:00`, end: `${s.day(1)}T16:00` });

      // The week: the three-day rewire on Monday, Tuesday and Wednesday of Sam's row.
      await page.goto(`/schedule?view=week&date=${s.day(1)}`);
      for (const d of [s.monday, s.day(1), s.day(2)])
        await page
          .locator(`tr[data-assignee="${s.sam.id}"] td[data-date="${d}"] article[data-visit-id="${s.rewireVisit}"]`)
          .waitFor();
      assert.equal(
        await page
          .locator(
            `tr[data-assignee="${s.sam.id}"] td[data-date="${s.day(3)}"] article[data-visit-id="${s.rewireVisit}"]`,
          )
          .count(),
        0,
      );
      await screenshot(page, "visits-week-desktop");

      // The week's grid comes from the server's kept markup (docs/decisions/465): loaded as a
      // page (twice, the second kept), it hydrates without a mismatch and its cards drag:
      // Eli's outlet visit onto Dana's Thursday keeps its time and makes Dana its crew.
      const errors = consoleErrors(page);
      await page.reload();
      const outletWeek = page.locator(
        `tr[data-assignee="${s.eli.id}"] td[data-date="${s.day(1)}"] article[data-visit-id="${s.outletVisit}"][draggable="true"]`,
      );
      await outletWeek.waitFor();
      await outletWeek.dragTo(page.locator(`tr[data-assignee="${s.dana.id}"] td[data-date="${s.day(3)}"]`));
      await page
        .getByRole("status")
        .filter({ hasText: /Replace GFCI outlet.*is booked/ })
        .waitFor();
      assert.deepEqual(await timesOf(s, s.outletVisit), { start: `${s.day(3)}T14:00`, end: `${s.day(3)}T16:00` });
      assert.deepEqual(await crewOf(s, s.outletVisit), [s.dana.id]);
      await page
        .locator(
          `tr[data-assignee="${s.dana.id}"] td[data-date="${s.day(3)}"] article[data-visit-id="${s.outletVisit}"]`,
        )
        .waitFor();
      // A day's heading is a plain link the board follows in the app: the day view, no reload.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.locator(`.week-grid thead a[href="/schedule?view=day&date=${s.day(3)}"]`).click();
      await page.waitForURL(new RegExp(`view=day&date=${s.day(3)}`));
      await page.locator(".day-grid").waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true);
      assert.deepEqual(errors, [], "no hydration mismatch or other error on the week board");
      await page.goto(`/schedule?view=week&date=${s.day(1)}`);

      await page.setViewportSize(PHONE);
      await page.reload();
      await screenshot(page, "visits-week-phone");
      await page.goto(`/schedule?view=day&date=${s.day(1)}`);
      await screenshot(page, "visits-day-phone");
    } finally {
      await context.close();
    }
  });

  test("JavaScript off: the card's form in Dana's row does the same: uncheck Dana, check Sam, and the crew is Sam and Eli", async () => {
    const s = await seed();
    const context = await newContext(browser, { javaScript: false });
    const page = await context.newPage();
    try {
      await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
      const week = `/schedule?view=week&date=${s.day(1)}`;
      await page.goto(week);
      const card = page.locator(
        `tr[data-assignee="${s.dana.id}"] td[data-date="${s.day(1)}"] article[data-visit-id="${s.panelVisit}"]`,
      );
      assert.match(await card.innerText(), /Crew[\s\S]*with Eli Moreau/);
      await card.getByRole("link", { name: /Move/ }).click();
      await page.getByRole("heading", { name: /Schedule a visit of “Panel upgrade”/ }).waitFor();
      assert.equal(await page.getByLabel("Dana Diaz", { exact: true }).isChecked(), true);
      assert.equal(await page.getByLabel("Eli Moreau", { exact: true }).isChecked(), true);
      await screenshot(page, "visit-schedule-form");
      await page.getByLabel("Dana Diaz", { exact: true }).uncheck();
      await page.getByLabel("Sam Okafor", { exact: true }).check();
      await page.getByRole("button", { name: "Save schedule" }).click();
      await page.waitForURL((u) => u.pathname === "/schedule");
      assert.match(
        await page.getByRole("status").first().innerText(),
        /booked .*9:00 AM–12:00 PM, with (Eli Moreau and Sam Okafor|Sam Okafor and Eli Moreau)/,
      );
      assert.deepEqual(await crewOf(s, s.panelVisit), [s.eli.id, s.sam.id].sort());
      assert.equal(
        await page.locator(`tr[data-assignee="${s.dana.id}"] article[data-visit-id="${s.panelVisit}"]`).count(),
        0,
      );
      assert.match(
        await page
          .locator(
            `tr[data-assignee="${s.sam.id}"] td[data-date="${s.day(1)}"] article[data-visit-id="${s.panelVisit}"]`,
          )
          .innerText(),
        /with Eli Moreau/,
      );
    } finally {
      await context.close();
    }
  });
});
