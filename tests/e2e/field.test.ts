import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { one, rows } from "../../db/index";
import {
  expectNoSeriousAxeViolations,
  newContext,
  screenshot,
  signIn,
  SKIP_BROWSER,
  withBrowser,
} from "../helpers/browser";
import { createCustomer, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";

/** A technician's day: a job under way, one later today, one tomorrow; and a colleague's job. */
async function day() {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id, {
    name: "Maria Gonzalez",
    phone: "555-0147",
    address_line1: "48 Alder Lane",
  });
  const tech = t.users.technician;
  const hour = 3600_000;
  const started = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: tech.id,
    title: "Water heater replacement",
    status: "en_route",
    scheduledStart: new Date(Date.now() - hour),
  });
  const later = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: tech.id,
    title: "Annual furnace tune-up",
    scheduledStart: new Date(Date.now() + 2 * hour),
    checklist: ["Replace the filter", "Clean the flame sensor"],
  });
  const tomorrow = await createJob(t.id, {
    customerId: customer.id,
    assigneeId: tech.id,
    title: "Kitchen faucet leak",
    scheduledStart: new Date(Date.now() + 26 * hour),
  });
  const colleague = await createUser(t.id, { role: "technician" });
  await createJob(t.id, { customerId: customer.id, assigneeId: colleague.id, title: "Someone else's boiler" });
  return { t, tech, started, later, tomorrow };
}

const card = (page: Page, title: string) =>
  page.locator("article.job-card", { has: page.getByRole("heading", { name: title }) });

async function field(tenantId: string, jobId: string) {
  const [job, events, notes, times] = await Promise.all([
    one<{ status: string }>(`SELECT status FROM jobs WHERE tenant_id = $1 AND id = $2`, [tenantId, jobId]),
    rows<{ to_status: string }>(
      `SELECT to_status FROM job_events WHERE tenant_id = $1 AND job_id = $2 ORDER BY occurred_at, created_at`,
      [tenantId, jobId],
    ),
    rows<{ body: string }>(`SELECT body FROM job_notes WHERE tenant_id = $1 AND job_id = $2`, [tenantId, jobId]),
    rows(`SELECT 1 FROM time_entries WHERE tenant_id = $1 AND job_id = $2`, [tenantId, jobId]),
  ]);
  return {
    status: job!.status,
    events: events.map((e) => e.to_status),
    notes: notes.map((n) => n.body),
    times: times.length,
  };
}

describe("browser: the field page", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("offline: a technician starts a job and adds a note, sees them waiting, and they sync once when back online", async () => {
    const { t, tech, started } = await day();
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    await signIn(page, tech.email, tech.password);
    assert.equal(new URL(page.url()).pathname, "/field", "a technician starts on their day");
    await page.getByText("All changes synced").waitFor();
    const body = await page.locator("main").innerText();
    assert.match(body, /Water heater replacement/);
    assert.match(body, /Annual furnace tune-up/);
    assert.match(body, /Kitchen faucet leak/);
    assert.doesNotMatch(body, /Someone else's boiler/, "only the technician's own jobs");
    // The service worker has kept the page for offline use.
    await page.waitForFunction(
      async () => (await navigator.serviceWorker.getRegistration("/field"))?.active && !!(await caches.match("/field")),
    );
    await screenshot(page, "field-online");
    await expectNoSeriousAxeViolations(page, "my day");

    await context.setOffline(true);
    const job = card(page, "Water heater replacement");
    await job.getByRole("button", { name: "Start work" }).click();
    await job.getByLabel("Add a note").fill("Old tank corroded at the base; replacing with a 50 gal unit.");
    await job.getByRole("button", { name: "Save note" }).click();
    await page.getByText("2 actions waiting to sync").waitFor();
    assert.match(await job.innerText(), /In progress/);
    assert.match(await job.innerText(), /Waiting to sync/);
    assert.match(await page.locator(".sync-bar").innerText(), /You are offline/);
    await screenshot(page, "field-offline-waiting");

    // With no network at all, the page still opens (from the service worker) and still knows what waits.
    await page.reload();
    await page.getByText("2 actions waiting to sync").waitFor();
    assert.match(await card(page, "Water heater replacement").innerText(), /Old tank corroded/);
    const whileOffline = await field(t.id, started.id);
    assert.equal(whileOffline.status, "en_route", "nothing reached the server while offline");
    assert.deepEqual(whileOffline.notes, []);
    await screenshot(page, "field-offline-reloaded");

    await context.setOffline(false);
    await page.getByText("All changes synced").waitFor({ timeout: 30_000 });
    const synced = await field(t.id, started.id);
    assert.equal(synced.status, "in_progress");
    assert.deepEqual(synced.events, ["in_progress"], "one status change");
    assert.deepEqual(
      synced.notes,
      ["Old tank corroded at the base; replacing with a 50 gal unit."],
      "exactly one note",
    );
    await screenshot(page, "field-synced");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "field-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // A fresh load from the server shows the same, with nothing waiting.
    await page.reload();
    await page.getByText("All changes synced").waitFor();
    const after = card(page, "Water heater replacement");
    assert.match(await after.innerText(), /In progress/);
    assert.match(await after.innerText(), /Old tank corroded/);
    assert.doesNotMatch(await after.innerText(), /Waiting to sync/);
    assert.deepEqual((await field(t.id, started.id)).notes.length, 1);

    // The job's one clock runs since Start work (the server's record), and stops into a time entry.
    assert.match(await after.innerText(), /On site since/);
    await after.getByRole("button", { name: "Stop clock" }).click();
    // The stop is queued asynchronously (IndexedDB), so "All changes synced" may still show from
    // before it: wait for the entry to reach the server rather than for the bar.
    for (let i = 0; i < 100 && (await field(t.id, started.id)).times === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    await page.getByText("All changes synced").waitFor();
    await page.waitForFunction(() => !document.querySelector(".sync-waiting"));
    assert.equal((await field(t.id, started.id)).times, 1);
    assert.match(await after.innerText(), /Time logged: (\d+ min|under a minute)/);
    assert.doesNotMatch(await after.innerText(), /On site since/);
    await context.close();
  });

  test("an action the server refuses (the office cancelled the job meanwhile) is shown, not lost silently", async () => {
    const { t, tech, later } = await day();
    const context = await newContext(browser, { javaScript: true });
    const page = await context.newPage();
    await signIn(page, tech.email, tech.password);
    await page.getByText("All changes synced").waitFor();
    await context.setOffline(true);
    await card(page, "Annual furnace tune-up").getByRole("button", { name: "On my way" }).click();
    await page.getByText("1 action waiting to sync").waitFor();
    await rows(`UPDATE jobs SET status = 'cancelled' WHERE tenant_id = $1 AND id = $2`, [t.id, later.id]);
    await context.setOffline(false);
    const alert = page.locator(".field-rejection");
    await alert.waitFor();
    assert.match(
      await alert.innerText(),
      /“On my way” for “Annual furnace tune-up” could not be applied: A job that is cancelled cannot become on the way\./,
    );
    await page.getByText("All changes synced").waitFor();
    assert.equal(await card(page, "Annual furnace tune-up").count(), 0, "the cancelled job left the day");
    await screenshot(page, "field-rejected");
    await alert.getByRole("button", { name: "Dismiss" }).click();
    assert.equal(await alert.count(), 0);
    assert.equal((await field(t.id, later.id)).status, "cancelled");
    await context.close();
  });

  test("without JavaScript the same actions work through plain forms", async () => {
    const { t, tech, later } = await day();
    const context = await newContext(browser, { javaScript: false });
    const page = await context.newPage();
    await signIn(page, tech.email, tech.password);
    await page.goto("/field");
    const job = () => card(page, "Annual furnace tune-up");

    await job().getByRole("button", { name: "On my way" }).click();
    await page.getByText("Job marked on the way.").waitFor();
    assert.match(await job().innerText(), /On the way/);
    await job().getByRole("button", { name: "Start work" }).click();
    await page.getByText("Job marked in progress.").waitFor();

    await job().getByLabel("Add a note").fill("Replaced the filter; flame sensor cleaned.");
    await job().getByRole("button", { name: "Save note" }).click();
    await page.getByText("Note saved.").waitFor();
    assert.match(await job().innerText(), /Replaced the filter; flame sensor cleaned\./);

    assert.match(await job().innerText(), /On site since/, "On my way and Start work run the job's clock");
    await screenshot(page, "field-nojs-clock");
    // The checklist: each item a button that ticks it; the signature: the customer's typed name.
    for (const item of ["Replace the filter", "Clean the flame sensor"]) {
      await job().getByRole("button", { name: item }).click();
      await page.getByText("Checklist item ticked.").waitFor();
      assert.equal(await job().getByRole("button", { name: item }).getAttribute("aria-pressed"), "true");
    }
    await job().getByLabel("Customer's name (typed as their signature)").fill("Maria Gonzalez");
    await job().getByRole("button", { name: "Complete job" }).click();
    await page.getByText("Job marked completed, signed by Maria Gonzalez.").waitFor();
    assert.match(await page.locator(".field-section", { hasText: "Done today" }).innerText(), /Annual furnace tune-up/);
    await screenshot(page, "field-nojs-done");

    const stored = await field(t.id, later.id);
    assert.equal(stored.status, "completed");
    assert.deepEqual(stored.events, ["en_route", "in_progress", "completed"]);
    assert.deepEqual(stored.notes, ["Replaced the filter; flame sensor cleaned."]);
    assert.equal(stored.times, 1, "Complete stopped the clock into one time entry");
    const [signed] = await rows<{ signer_name: string; drawn: boolean }>(
      `SELECT signer_name, image IS NOT NULL AS drawn FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
      [t.id, later.id],
    );
    assert.deepEqual(signed, { signer_name: "Maria Gonzalez", drawn: false }, "a typed name, without JavaScript");
    const ticked = await rows(
      `SELECT 1 FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 AND done_at IS NOT NULL`,
      [t.id, later.id],
    );
    assert.equal(ticked.length, 2);
    await context.close();
  });
});
