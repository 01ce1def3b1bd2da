import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { one } from "../../db/index";
import { zonedToUtc } from "../../app/services/jobs/local-time";
import {
  newContext,
  phoneContext,
  PHONE,
  screenshot,
  seriousAxeViolations,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createCustomer, createJob, createTenantWithUsers, createUser, DEFAULT_PASSWORD } from "../helpers/fixtures";

// Timesheets in the browser (docs/decisions/385-timesheets.md): the team's week and a person's
// week at desktop width and on a 390 px phone (screenshots in tests/.artifacts), no serious
// axe finding, nothing wider than the phone, and a correction made with JavaScript off.

const ZONE = "America/Chicago";
const WEEK = "2026-11-02";
const at = (local: string) => zonedToUtc(local, ZONE);

async function seed() {
  const t = await createTenantWithUsers("Northside Plumbing & Drain");
  await one(`UPDATE tenants SET time_zone = $2, overtime_daily_minutes = 480 WHERE id = $1`, [t.id, ZONE]);
  const customer = await createCustomer(t.id, { name: "Margaret Okonkwo-Fitzgerald" });
  const people = [t.users.technician, await createUser(t.id, { role: "technician", name: "Priya Raman-Castellanos" })];
  for (const [n, person] of people.entries()) {
    for (const [d, day] of ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"].entries()) {
      const job = await createJob(t.id, {
        customerId: customer.id,
        title: `Replace corroded water heater venting ${d + 1}`,
        assigneeId: person.id,
        scheduledStart: at(`${day}T08:00`),
      });
      const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
        t.id,
        job.id,
      ]))!;
      const end = n === 0 && d === 4 ? "18:30" : "16:00";
      await one(
        `INSERT INTO time_entries (tenant_id, job_id, visit_id, user_id, started_at, on_site_at, ended_at, kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'work'), ($1, $2, $3, $4, $7, NULL, $8, 'break') RETURNING id`,
        [
          t.id,
          job.id,
          visit.id,
          person.id,
          at(`${day}T07:30`),
          at(`${day}T08:00`),
          at(`${day}T${end}`),
          at(`${day}T${end.replace(/:\d\d/, ":45")}`),
        ],
      );
    }
  }
  // A manual entry waiting for the office.
  await one(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, kind, state, origin)
     VALUES ($1, NULL, $2, $3, $4, 'work', 'pending', 'technician') RETURNING id`,
    [t.id, t.users.technician.id, at("2026-11-07T09:00"), at("2026-11-07T11:00")],
  );
  return t;
}

describe("browser: timesheets", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("the team's week and a person's week at desktop width and on a 390 px phone; a correction with JavaScript off", async () => {
    const t = await seed();
    for (const phone of [false, true]) {
      const context = phone
        ? await phoneContext(browser, { javaScript: false })
        : await newContext(browser, { javaScript: false });
      const tag = phone ? "phone" : "desktop";
      try {
        const page = await context.newPage();
        await signIn(page, t.users.owner.email, DEFAULT_PASSWORD);
        await page.goto(`/timesheets?week=${WEEK}`);
        await page.getByRole("heading", { name: "Timesheets", level: 1 }).waitFor();
        const row = page.getByRole("row", { name: new RegExp(t.users.technician.name) });
        assert.match(await row.innerText(), /45\.00/);
        assert.deepEqual(await seriousAxeViolations(page), []);
        if (phone) {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= PHONE.width, `the team's week fits the phone (${width} px)`);
        }
        await screenshot(page, `timesheets-team-${tag}`);

        await page.getByRole("link", { name: t.users.technician.name }).click();
        await page.getByRole("heading", { name: "Waiting for the office" }).waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        if (phone) {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= PHONE.width, `a person's week fits the phone (${width} px)`);
        }
        await screenshot(page, `timesheets-person-${tag}`);
      } finally {
        await context.close();
      }
    }

    // The office corrects Friday's entry with JavaScript off: 07:30-18:30 becomes 07:30-17:00.
    const context = await newContext(browser, { javaScript: false });
    try {
      const page = await context.newPage();
      await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
      await page.goto(`/timesheets?userId=${t.users.technician.id}&week=${WEEK}`);
      const friday = page.locator("section.ts-day", { hasText: "Friday, November 6" });
      await friday.locator("details.ts-correct summary").first().click();
      const form = friday.locator("details.ts-correct form").first();
      await form.getByLabel("End").fill("2026-11-06T17:00");
      await form.getByLabel("Reason for the change").fill("Clocked out late");
      await Promise.all([page.waitForURL(/userId=/), form.getByRole("button", { name: "Save correction" }).click()]);
      await page.getByText("corrected an entry").waitFor();
      assert.match(await page.locator(".ts-summary").innerText(), /Paid\s+43\.50 h/);
      await screenshot(page, "timesheets-person-corrected-desktop");
    } finally {
      await context.close();
    }
  });
});
