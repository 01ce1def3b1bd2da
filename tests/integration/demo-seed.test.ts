import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { one, rows } from "../../db/index";

// `npm run seed:demo` (issue 16, point 9): run as the command runs, against the test database,
// it makes the demo tenant in a realistic time zone and a day of work through the services the
// forms call; the records exist and their histories tell how they came to be.

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

test(
  "the demo seed makes a day of work in Mountain time, with history on every record",
  { timeout: 180_000 },
  async () => {
    const domain = `demo-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.test`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/seeds/demo.ts"], {
      cwd: ROOT,
      env: { ...process.env, DEMO_EMAIL_DOMAIN: domain },
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.match(stdout, /Made a day of work/);
    assert.match(stdout, new RegExp(`owner +owner@${domain.replace(/\./g, "\\.")}`));

    const tenant = await one<{
      id: string;
      time_zone: string;
      phone: string | null;
      default_tax_rate: string;
      today: string;
    }>(
      `SELECT t.id, t.time_zone, t.phone, t.default_tax_rate::text, (now() AT TIME ZONE t.time_zone)::date::text AS today
       FROM tenants t JOIN users u ON u.tenant_id = t.id WHERE u.email = $1`,
      [`owner@${domain}`],
    );
    assert.ok(tenant, "the demo tenant");
    assert.equal(tenant.time_zone, "America/Denver");
    assert.equal(tenant.phone, "(303) 555-0142");
    assert.equal(tenant.default_tax_rate, "8.810");
    const id = tenant.id;

    assert.equal(
      (await one<{ n: number }>(`SELECT count(*)::int AS n FROM price_book_items WHERE tenant_id = $1`, [id]))?.n,
      6,
    );

    // Quotes numbered by the counter, in every state of the day.
    const quotes = await rows<{ title: string; status: string; number: string; job: boolean }>(
      `SELECT title, status, number, job_id IS NOT NULL AS job FROM quotes WHERE tenant_id = $1 AND title IN
       ('Replace 50 gal gas water heater', 'Annual furnace tune-up', 'Replace two lavatory faucets', 'Sump pump replacement') ORDER BY title`,
      [id],
    );
    assert.deepEqual(
      quotes.map((q) => [q.title, q.status, q.job]),
      [
        ["Annual furnace tune-up", "approved", true],
        ["Replace 50 gal gas water heater", "approved", true],
        ["Replace two lavatory faucets", "sent", false],
        ["Sump pump replacement", "draft", false],
      ],
    );
    for (const q of quotes) assert.match(q.number, /^Q-\d{4}$/);

    // Two jobs today (Denver's calendar), with the technician; the water heater done in the field.
    const jobs = await rows<{ title: string; status: string; day: string; tech: string; notes: number; times: number }>(
      `SELECT j.title, j.status, (j.scheduled_start AT TIME ZONE 'America/Denver')::date::text AS day, u.role AS tech,
            (SELECT count(*)::int FROM job_notes n WHERE n.tenant_id = j.tenant_id AND n.job_id = j.id) AS notes,
            (SELECT count(*)::int FROM time_entries e WHERE e.tenant_id = j.tenant_id AND e.job_id = j.id) AS times
       FROM jobs j JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
      WHERE j.tenant_id = $1 AND j.quote_id IS NOT NULL ORDER BY j.scheduled_start`,
      [id],
    );
    assert.deepEqual(jobs, [
      {
        title: "Replace 50 gal gas water heater",
        status: "completed",
        day: tenant.today,
        tech: "technician",
        notes: 1,
        times: 1,
      },
      {
        title: "Annual furnace tune-up",
        status: "scheduled",
        day: tenant.today,
        tech: "technician",
        notes: 0,
        times: 0,
      },
    ]);

    // Every record of the day has its history, as the pages would have written it.
    const history = await rows<{ record_type: string; summary: string; source: string; actor_name: string | null }>(
      `SELECT record_type, summary, source, actor_name FROM record_history WHERE tenant_id = $1 ORDER BY occurred_at, id`,
      [id],
    );
    const said = (type: string, summary: RegExp, who?: string | RegExp) =>
      assert.ok(
        history.some(
          (h) =>
            h.record_type === type &&
            summary.test(h.summary) &&
            (who === undefined || (typeof who === "string" ? h.actor_name === who : who.test(h.actor_name ?? ""))),
        ),
        `${type}: ${summary} by ${who ?? "anyone"}`,
      );
    said("customer", /^Created$/, "Sam Okafor");
    said("quote", /^Created$/, "Sam Okafor");
    said("quote", /^Sent$/, "Sam Okafor");
    said("quote", /^Approved in the portal/, "Jamie Rivera");
    said("quote", /^Approved in the portal/, "Grace Chen");
    said("quote", /^Converted to a job$/, "Sam Okafor");
    said("job", /^Created from quote Q-\d{4}$/, "Sam Okafor");
    said("job", /with Luis Romero/, "Sam Okafor");
    const fieldEvents = await rows<{ to_status: string }>(
      `SELECT e.to_status FROM job_events e JOIN jobs j ON j.tenant_id = e.tenant_id AND j.id = e.job_id
      WHERE e.tenant_id = $1 AND j.title = 'Replace 50 gal gas water heater' ORDER BY e.occurred_at, e.created_at`,
      [id],
    );
    // The finished job's invoice: sent, $500.00 paid in the portal, the rest due in the company's terms.
    const invoice = await one<{
      number: string;
      status: string;
      paid: number;
      total: number;
      terms: number;
      job: string;
    }>(
      `SELECT i.number, i.status, i.amount_paid_cents::int AS paid, i.total_cents::int AS total, (i.due_date - i.issue_date) AS terms, j.title AS job
       FROM invoices i JOIN jobs j ON j.tenant_id = i.tenant_id AND j.id = i.job_id WHERE i.tenant_id = $1`,
      [id],
    );
    assert.ok(invoice, "an invoice from the finished job");
    assert.match(invoice.number, /^INV-\d{4}$/);
    assert.deepEqual(
      [invoice.status, invoice.paid, invoice.terms, invoice.job],
      ["partial", 50_000, 14, "Replace 50 gal gas water heater"],
    );
    assert.ok(invoice.total > 50_000);
    said("invoice", /^Created from job/, "Sam Okafor");
    said("invoice", /^Sent/, "Sam Okafor");
    said("invoice", /^Paid \$500\.00 in the portal$/, "Jamie Rivera");
    assert.deepEqual(
      fieldEvents.map((e) => e.to_status),
      ["scheduled", "en_route", "in_progress", "completed"],
      "scheduled by the office, then the field app's status changes",
    );
  },
);
