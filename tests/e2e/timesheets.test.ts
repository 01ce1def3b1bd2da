import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { one } from "../../db/index";
import { zonedToUtc } from "../../app/services/jobs/local-time";
import {
  JS_MODES,
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

// Timesheets in the browser (docs/decisions/385-timesheets.md), with JavaScript on and off:
// the office opens the team's week, then a person's week, corrects an entry with a reason,
// approves the week and finds it locked; a technician sees only their own week. Screenshots at
// desktop width and on a 390 px phone go to tests/.artifacts. Every wait is bounded (the page's
// default timeout below) and each browser context is closed in `finally`.

const ZONE = "America/Chicago";
const WEEK = "2026-11-02"; // a Monday
const WAIT_MS = 20_000;
const at = (local: string) => zonedToUtc(local, ZONE);

/**
 * A Chicago business with an 8 h daily overtime rule and two technicians, each clocked Monday to
 * Friday (30 minutes' travel, then work to 16:00, then a break). Dana's Friday runs to 18:30, so
 * her week is 45 paid hours. Priya also has a manual entry on Saturday waiting for the office.
 */
async function seed() {
  const t = await createTenantWithUsers("Northside Plumbing & Drain");
  await one(`UPDATE tenants SET time_zone = $2, overtime_daily_minutes = 480 WHERE id = $1 RETURNING id`, [t.id, ZONE]);
  const dana = t.users.technician;
  const priya = await createUser(t.id, { role: "technician", name: "Priya Raman-Castellanos" });
  const customer = await createCustomer(t.id, { name: "Margaret Okonkwo-Fitzgerald" });
  for (const [n, person] of [dana, priya].entries()) {
    for (const [d, day] of ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"].entries()) {
      const job = await createJob(t.id, {
        customerId: customer.id,
        title: `Replace corroded water heater venting, unit ${d + 1}`,
        assigneeId: person.id,
        scheduledStart: at(`${day}T08:00`),
      });
      const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
        t.id,
        job.id,
      ]))!;
      const [end, breakEnd] = n === 0 && d === 4 ? ["18:30", "18:50"] : ["16:00", "16:20"];
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
          at(`${day}T${breakEnd}`),
        ],
      );
    }
  }
  await one(
    `INSERT INTO time_entries (tenant_id, user_id, started_at, ended_at, kind, state, origin)
     VALUES ($1, $2, $3, $4, 'work', 'pending', 'technician') RETURNING id`,
    [t.id, priya.id, at("2026-11-07T09:00"), at("2026-11-07T11:00")],
  );
  return { t, dana, priya };
}

/** A page whose every wait and navigation gives up after WAIT_MS instead of hanging. */
async function boundedPage(context: BrowserContext): Promise<Page> {
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return context.newPage();
}

/** The page is no wider than the phone (nothing to scroll sideways but the tables' own wrappers). */
async function fitsPhone(page: Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `${what} fits the phone (${width} px)`);
}

const summaryOf = (page: Page) => page.locator(".ts-summary").innerText();

describe("browser: timesheets", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  for (const mode of JS_MODES) {
    const tag = mode.javaScript ? "js" : "nojs";

    test(
      `the office: team week, a person's week, a correction with a reason, approval that locks the week (${mode.label})`,
      { timeout: 180_000 },
      async () => {
        const { t, dana } = await seed();
        const context = await newContext(browser, { javaScript: mode.javaScript });
        try {
          const page = await boundedPage(context);
          await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
          await page.goto(`/timesheets?week=${WEEK}`);
          await page.getByRole("heading", { name: "Timesheets", level: 1 }).waitFor();
          const danaRow = page.getByRole("row", { name: new RegExp(dana.name) });
          assert.match(await danaRow.innerText(), /45\.00/);
          assert.match(await danaRow.innerText(), /Open/);
          const priyaRow = page.getByRole("row", { name: /Priya Raman-Castellanos/ });
          assert.match(await priyaRow.innerText(), /1 pending/);
          // The office does not export payroll (owner and admin do).
          assert.equal(await page.getByRole("link", { name: /Export for payroll/ }).count(), 0);
          assert.deepEqual(await seriousAxeViolations(page, { javaScript: mode.javaScript }), []);
          await screenshot(page, `timesheets-team-desktop-${tag}`);

          // Dana's week.
          await Promise.all([page.waitForURL(/userId=/), danaRow.getByRole("link", { name: dana.name }).click()]);
          await page.getByRole("heading", { name: `Timesheet: ${dana.name}`, level: 1 }).waitFor();
          assert.match(await summaryOf(page), /Paid\s+45\.00 h/i);
          assert.match(await summaryOf(page), /Overtime\s+5\.00 h/i);
          assert.deepEqual(await seriousAxeViolations(page, { javaScript: mode.javaScript }), []);
          await screenshot(page, `timesheets-person-desktop-${tag}`);

          // Friday's entry corrected: 07:30-18:30 becomes 07:30-17:00, with a reason. One
          // correction per entry: the field clock's entry (travel, then work) is corrected whole.
          const friday = page.locator("section.ts-day", { hasText: "Friday, November 6" });
          assert.equal(await friday.locator("details.ts-correct").count(), 2, "the work entry and the break");
          const correct = friday.locator("details.ts-correct").first();
          assert.match(await correct.locator("summary").innerText(), /travel and work, 07:30–18:30/);
          await correct.locator("summary").click();
          const form = correct.locator("form.entry-form");
          await form.getByLabel("End").fill("2026-11-06T17:00");
          await form.getByLabel("Reason for the change").fill("Clocked out late");
          await form.getByRole("button", { name: "Save correction" }).click();
          await page.getByText("The entry was changed; the history keeps what it was.").waitFor();
          assert.match(await summaryOf(page), /Paid\s+43\.50 h/i);
          const history = await page.locator(".ts-history").innerText();
          assert.match(history, /corrected an entry \(07:30–18:30 → 07:30–17:00\): “Clocked out late”/);
          // Still travel until "Start work", then work.
          const lines = await page
            .locator("section.ts-day", { hasText: "Friday, November 6" })
            .locator(".ts-line-main");
          assert.match(await lines.nth(0).innerText(), /07:30–08:00\s+Travel/i);
          assert.match(await lines.nth(1).innerText(), /08:00–17:00\s+Work/i);

          // Approve: the week is locked (no corrections, no new entry), and says so.
          await page.getByRole("button", { name: "Approve week" }).click();
          await page.getByText("Week approved. It is locked until reopened.").waitFor();
          assert.match(await summaryOf(page), /Approved\s+by/i);
          await page.getByRole("button", { name: "Reopen week" }).waitFor();
          assert.equal(await page.locator("details.ts-correct").count(), 0, "no correction forms once approved");
          assert.equal(await page.getByText("Add an entry").count(), 0, "no new entry once approved");
          assert.match(await summaryOf(page), /Paid\s+43\.50 h/i);
          await screenshot(page, `timesheets-approved-desktop-${tag}`);

          // Back on the team's week: Dana approved, with the corrected hours.
          await page.goto(`/timesheets?week=${WEEK}`);
          const row = page.getByRole("row", { name: new RegExp(dana.name) });
          await row.waitFor();
          assert.match(await row.innerText(), /43\.50/);
          assert.match(await row.innerText(), /Approved/);
          assert.doesNotMatch(await page.getByRole("row", { name: /Priya Raman-Castellanos/ }).innerText(), /Approved/);
        } finally {
          await context.close();
        }
      },
    );

    test(
      `on a 390 px phone: the team's week, a person's week and a technician's own week fit (${mode.label})`,
      {
        timeout: 180_000,
      },
      async () => {
        const { t, dana, priya } = await seed();
        const office = await phoneContext(browser, { javaScript: mode.javaScript });
        try {
          const page = await boundedPage(office);
          await signIn(page, t.users.office.email, DEFAULT_PASSWORD);
          await page.goto(`/timesheets?week=${WEEK}`);
          await page.getByRole("heading", { name: "Timesheets", level: 1 }).waitFor();
          await fitsPhone(page, "the team's week");
          await screenshot(page, `timesheets-team-phone-${tag}`);
          await page.goto(`/timesheets?userId=${priya.id}&week=${WEEK}`);
          await page.getByRole("heading", { name: "Waiting for the office" }).waitFor();
          await fitsPhone(page, "a person's week");
          await screenshot(page, `timesheets-person-phone-${tag}`);
        } finally {
          await office.close();
        }

        // Dana, a technician: her own week only.
        const phone = await phoneContext(browser, { javaScript: mode.javaScript });
        try {
          const page = await boundedPage(phone);
          await signIn(page, dana.email, DEFAULT_PASSWORD);
          await page.goto(`/timesheets?week=${WEEK}`);
          await page.getByRole("heading", { name: "My timesheet", level: 1 }).waitFor();
          assert.match(await summaryOf(page), /Paid\s+45\.00 h/i);
          const main = await page.locator("main").innerText();
          assert.doesNotMatch(main, /Priya/, "no colleague on her page");
          assert.equal(await page.getByRole("button", { name: "Approve week" }).count(), 0);
          assert.equal(await page.locator("details.ts-correct").count(), 0, "no corrections for a technician");
          await page.getByText("Add a manual entry").waitFor();
          await fitsPhone(page, "a technician's own week");
          assert.deepEqual(await seriousAxeViolations(page, { javaScript: mode.javaScript }), []);
          await screenshot(page, `timesheets-mine-phone-${tag}`);
          // Another person's week is refused.
          const refused = await page.goto(`/timesheets?userId=${priya.id}&week=${WEEK}`);
          assert.equal(refused?.status(), 403);
          assert.match(await page.locator("main").innerText(), /only your own timesheet/);
          assert.doesNotMatch(await page.locator("main").innerText(), /Priya Raman-Castellanos/);
          await screenshot(page, `timesheets-refused-phone-${tag}`);
        } finally {
          await phone.close();
        }
      },
    );
  }
});
