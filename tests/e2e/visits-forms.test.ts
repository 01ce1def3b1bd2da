import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { one, rows } from "../../db/index";
import {
  expectNoSeriousAxeViolations,
  newContext,
  phoneContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createCustomer, createTenantWithUsers, DEFAULT_PASSWORD } from "../helpers/fixtures";

// The job form's repeat section and the visit edit page in a browser
// (docs/decisions/315-recurring-visits.md, 316-visit-edit.md): both work with JavaScript off;
// with it on, the repeat section shows only what applies. Screenshots on a desktop and a phone.

const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function seed() {
  const t = await createTenantWithUsers();
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
  const customer = await createCustomer(t.id, { name: "Rosa Recurring" });
  return { t, customer };
}

describe("browser: recurring jobs and the visit edit page", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  const withContext = async (make: () => Promise<BrowserContext>, run: (c: BrowserContext) => Promise<void>) => {
    const context = await make();
    try {
      await run(context);
    } finally {
      await context.close();
    }
  };

  test("JavaScript off: a weekly job on Monday and Thursday, 4 visits; then this and following moves visits 3 and 4", async () => {
    const s = await seed();
    await withContext(
      () => newContext(browser, { javaScript: false }),
      async (context) => {
        const page = await context.newPage();
        await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
        await page.goto(`/jobs/new?customerId=${s.customer.id}`);
        await page.getByLabel("Title").fill("Lawn care");
        const first = dayAhead(7);
        await page.getByLabel("Start").fill(`${first}T09:00`);
        await page.getByLabel("End", { exact: true }).fill(`${first}T10:00`);
        await page.getByLabel("Repeats").selectOption("weekly");
        await page.getByLabel("Monday").check();
        await page.getByLabel("Thursday").check();
        await page.getByLabel("Ends after (visits)").fill("4");
        await screenshot(page, "visits-job-form-repeat-desktop");
        await expectNoSeriousAxeViolations(page, "job form with repeat (no JavaScript)", { javaScript: false });
        await page.getByRole("button", { name: "Create job" }).click();
        await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
        const jobId = page.url().split("/").pop()!;
        const visits = await rows<{ id: string; dow: number; local: string }>(
          `SELECT id, extract(isodow FROM starts_at AT TIME ZONE 'America/Chicago')::int AS dow,
                  to_char(starts_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD"T"HH24:MI') AS local
             FROM visits WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
          [s.t.id, jobId],
        );
        assert.equal(visits.length, 4);
        assert.ok(visits.every((v) => [1, 4].includes(v.dow) && v.local.endsWith("09:00")));

        await page.goto(`/visits/${visits[2]!.id}/edit`);
        await screenshot(page, "visits-edit-desktop");
        await expectNoSeriousAxeViolations(page, "visit edit (no JavaScript)", { javaScript: false });
        const date = visits[2]!.local.slice(0, 10);
        await page.getByLabel("Start").fill(`${date}T13:00`);
        await page.getByLabel("End", { exact: true }).fill(`${date}T14:00`);
        await page.getByLabel(/This and following visits/).check();
        await page.getByRole("button", { name: "Save visit" }).click();
        await page.waitForURL(new RegExp(`/jobs/${jobId}$`));
        const after = await rows<{ local: string }>(
          `SELECT to_char(starts_at AT TIME ZONE 'America/Chicago', 'HH24:MI') AS local FROM visits
            WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
          [s.t.id, jobId],
        );
        assert.deepEqual(
          after.map((v) => v.local),
          ["09:00", "09:00", "13:00", "13:00"],
        );

        // A new rule from visit 4 on: every 2 weeks on its own weekday, 2 visits, at 15:00.
        await page.goto(`/visits/${visits[3]!.id}/edit`);
        const fourth = visits[3]!.local.slice(0, 10);
        await page.getByLabel("Start").fill(`${fourth}T15:00`);
        await page.getByLabel("End", { exact: true }).fill(`${fourth}T16:00`);
        await page.getByLabel("Repeats").selectOption("weekly");
        await page.getByLabel(/^Every/).fill("2");
        await page.getByLabel("Ends after (visits)").fill("2");
        await page.getByLabel(/This and following visits/).check();
        await page.getByRole("button", { name: "Save visit" }).click();
        await page.waitForURL(new RegExp(`/jobs/${jobId}$`));
        const ruled = await rows<{ local: string }>(
          `SELECT to_char(starts_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD HH24:MI') AS local FROM visits
            WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
          [s.t.id, jobId],
        );
        const twoWeeks = new Date(Date.parse(`${fourth}T12:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10);
        assert.deepEqual(
          ruled.slice(3).map((v) => v.local),
          [`${fourth} 15:00`, `${twoWeeks} 15:00`],
        );
        assert.equal(ruled.length, 5);
      },
    );
  });

  test("JavaScript on: the section shows what applies (monthly: “the 2nd Tuesday” from the start); a 390 px phone", async () => {
    const s = await seed();
    await withContext(
      () => phoneContext(browser, { javaScript: true }),
      async (context) => {
        const page = await context.newPage();
        await signIn(page, s.t.users.office.email, DEFAULT_PASSWORD);
        await page.goto(`/jobs/new?customerId=${s.customer.id}`);
        await page.getByLabel("Start").fill("2027-10-12T09:00");
        await page.getByLabel("Repeats").selectOption("monthly");
        await page.getByText("On the 2nd Tuesday").waitFor();
        assert.equal(await page.getByLabel("Monday").isVisible(), false, "weekdays are for a weekly repeat");
        await page.getByLabel("Repeats").selectOption("weekly");
        await page.getByLabel("Monday").waitFor();
        await screenshot(page, "visits-job-form-repeat-phone");
        await expectNoSeriousAxeViolations(page, "job form with repeat (phone)", { javaScript: true });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `no sideways scrolling: ${width}`);

        await page.getByLabel("Title").fill("Pool service");
        await page.getByLabel("Ends after (visits)").fill("2");
        await page.getByRole("button", { name: "Create job" }).click();
        await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
        const jobId = page.url().split("/").pop()!;
        const visit = await one<{ id: string }>(
          `SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at LIMIT 1`,
          [s.t.id, jobId],
        );
        await page.goto(`/visits/${visit!.id}/edit`);
        await page
          .getByLabel(/Office/)
          .first()
          .waitFor();
        await page.getByLabel("Repeats").selectOption("weekly");
        await page.getByLabel("Ends after (visits)").fill("3");
        await page.getByLabel(/This and following visits/).check();
        await screenshot(page, "visits-edit-phone");
        await expectNoSeriousAxeViolations(page, "visit edit (phone)", { javaScript: true });
        const editWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(editWidth <= 390, `no sideways scrolling: ${editWidth}`);
        // With JavaScript the same form changes the rule: the monthly job is weekly from here, 3 visits.
        await page.getByRole("button", { name: "Save visit" }).click();
        await page.waitForURL(new RegExp(`/jobs/${jobId}$`));
        const weekly = await rows<{ local: string }>(
          `SELECT to_char(starts_at AT TIME ZONE 'America/Chicago', 'YYYY-MM-DD HH24:MI') AS local FROM visits
            WHERE tenant_id = $1 AND job_id = $2 ORDER BY starts_at`,
          [s.t.id, jobId],
        );
        assert.deepEqual(
          weekly.map((v) => v.local),
          ["2027-10-12 09:00", "2027-10-19 09:00", "2027-10-26 09:00"],
        );
      },
    );
  });
});
