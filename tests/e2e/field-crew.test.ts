// A crew's visit on a phone (390 px, JavaScript on): the second member sees the visit with the
// crew named, joins it with their own clock from the card, and the sync sends the visit's id;
// the first member's "Complete" then stops that clock (docs/decisions/320-crews-and-visit-sync.md).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Browser, Request } from "playwright-core";
import { one, rows } from "../../db/index";
import { consoleErrors, phoneContext, screenshot, signIn, SKIP_BROWSER, withBrowser } from "../helpers/browser";
import { clientFor } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";

describe("field app: a crew's visit", { skip: SKIP_BROWSER }, () => {
  let browser: Browser;
  withBrowser((b) => (browser = b));

  test("the second member sees the crew on the card, starts their own clock with the visit's id, and the first Complete stops it", async () => {
    const t = await createTenantWithUsers();
    await one(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
    const ann = await createUser(t.id, { role: "technician", name: "Annika Berg" });
    const ben = await createUser(t.id, { role: "technician", name: "Ben Okafor" });
    const customer = await createCustomer(t.id, {
      name: "Priya Raman",
      phone: "555-0188",
      address_line1: "12 Elm Court",
    });
    const job = await createJob(t.id, {
      customerId: customer.id,
      assigneeId: ann.id,
      title: "Panel upgrade",
      scheduledStart: new Date(Date.now() - 30 * 60_000),
    });
    const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
      t.id,
      job.id,
    ]))!;
    await rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
      t.id,
      visit.id,
      ben.id,
    ]);
    // Annika is already at work on it.
    const annPhone = await clientFor(ann);
    const started = await annPhone.postJson("/api/offline-sync", {
      clientId: crypto.randomUUID(),
      mutations: [
        {
          id: 1,
          type: "job.status",
          occurredAt: new Date(Date.now() - 20 * 60_000).toISOString(),
          args: { jobId: job.id, status: "en_route" },
        },
        {
          id: 2,
          type: "job.status",
          occurredAt: new Date(Date.now() - 10 * 60_000).toISOString(),
          args: { jobId: job.id, status: "in_progress" },
        },
      ],
    });
    assert.equal(started.status, 200);

    const context = await phoneContext(browser, { javaScript: true });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const pushes: Array<Record<string, unknown>> = [];
    page.on("request", (r: Request) => {
      if (r.url().endsWith("/api/offline-sync") && r.method() === "POST") pushes.push(r.postDataJSON());
    });
    await signIn(page, ben.email, ben.password);
    await page.goto("/field");
    const card = page.locator("article.job-card", { has: page.getByRole("heading", { name: "Panel upgrade" }) });
    await card.waitFor();
    assert.match(await card.innerText(), /Crew\s+Annika Berg, Ben Okafor/);
    assert.match(await card.innerText(), /In progress/);
    await card.getByRole("button", { name: "Start clock" }).click();
    await card.getByText(/since/).first().waitFor();
    await page.waitForFunction(() => !document.body.innerText.includes("Waiting to sync"), undefined, {
      timeout: 15_000,
    });
    await screenshot(page, "field-crew-visit-390", { fullPage: false });
    const sent = pushes.flatMap((p) => p.mutations as Array<{ type: string; args: Record<string, unknown> }>);
    assert.deepEqual(
      sent.filter((m) => m.type === "job.clock").map((m) => m.args),
      [{ jobId: job.id, visitId: visit.id, action: "start" }],
      "the outbox names the card's visit",
    );
    const clocks = await rows<{ user_id: string }>(
      `SELECT user_id FROM job_clocks WHERE tenant_id = $1 AND job_id = $2 ORDER BY started_at`,
      [t.id, job.id],
    );
    assert.deepEqual(
      clocks.map((k) => k.user_id),
      [ann.id, ben.id],
    );

    // Annika completes: Ben's clock stops with it; his page shows the visit done after a sync.
    const done = await annPhone.postJson("/api/offline-sync", {
      clientId: crypto.randomUUID(),
      mutations: [
        {
          id: 1,
          type: "job.status",
          occurredAt: new Date().toISOString(),
          args: { jobId: job.id, status: "completed" },
        },
      ],
    });
    assert.equal(done.status, 200);
    assert.equal(
      (await rows(`SELECT 1 FROM job_clocks WHERE tenant_id = $1 AND job_id = $2`, [t.id, job.id])).length,
      0,
    );
    await page.reload();
    await page.getByRole("heading", { name: /Done today/ }).waitFor();
    await screenshot(page, "field-crew-visit-done-390", { fullPage: false });
    const entries = await rows<{ user_id: string }>(
      `SELECT user_id FROM time_entries WHERE tenant_id = $1 AND visit_id = $2 ORDER BY started_at`,
      [t.id, visit.id],
    );
    assert.deepEqual(
      entries.map((e) => e.user_id),
      [ann.id, ben.id],
    );
    assert.deepEqual(errors, []);
    await context.close();
  });
});
