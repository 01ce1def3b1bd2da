import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { one, rows } from "../../db/index";
import { JOB_STATUSES } from "../../db/enums";
import { clientFor } from "../helpers/client";
import { createTenantWithUsers, type TestTenant } from "../helpers/fixtures";
import { commit, idIn, preview, undo } from "../helpers/import";
import { ROOT } from "../helpers/server";
import { compareSummaries } from "../../app/services/reports/summaries.server";
import { recordOfficePayment } from "../../app/services/invoices/payments.server";
import { createCustomer } from "../../app/services/customers/commands.server";
import { customerSchema } from "../../app/services/customers/schema";
import { sendInvoice, updateInvoice, voidInvoice } from "../../app/services/invoices/invoices.server";
import { invoiceFormSchema, officePaymentSchema } from "../../app/services/invoices/schemas";
import type { Actor } from "../../app/services/accounts/actor";
import { AppError } from "../../app/utils/app-error";

// Issue 39 item 2: the summaries the writes keep (delta rows, open-invoice balances) equal the
// figures computed from the records after any sequence of imports (customers, invoices, jobs,
// quotes), undos, customers added and deleted, invoice edits, sends, voids, office payments,
// visits completed and re-crewed, quotes approved, a change of time zone and folds; and
// `npm run summaries -- rebuild` restores them after they are damaged.

const dayBack = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const invoiceRow = fc.record({
  status: fc.constantFrom("draft", "sent", "partial", "paid", "void"),
  issueBack: fc.integer({ min: 0, max: 420 }),
  dueShift: fc.integer({ min: -20, max: 60 }),
  cents: fc.integer({ min: 100, max: 500_000 }),
  paidPct: fc.integer({ min: 1, max: 99 }),
});
const jobRow = fc.record({
  status: fc.constantFrom("completed", "scheduled", "unscheduled", "cancelled"),
  daysBack: fc.integer({ min: 0, max: 400 }),
  who: fc.constantFrom("technician", "office", "none"),
});
const quoteRow = fc.record({
  status: fc.constantFrom("draft", "sent", "approved", "declined"),
  daysBack: fc.integer({ min: 0, max: 400 }),
});
const pick = fc.nat({ max: 1000 });
const op = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("importCustomers" as const),
      rows: fc.integer({ min: 1, max: 5 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("addCustomer" as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("deleteCustomer" as const), pick }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("importInvoices" as const),
      rows: fc.array(invoiceRow, { minLength: 1, maxLength: 6 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("importJobs" as const),
      rows: fc.array(jobRow, { minLength: 1, maxLength: 6 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("importQuotes" as const),
      rows: fc.array(quoteRow, { minLength: 1, maxLength: 5 }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("undo" as const), pick }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      pick,
      pct: fc.integer({ min: 1, max: 100 }),
      daysBack: fc.integer({ min: 0, max: 60 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("void" as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("send" as const), pick }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("edit" as const),
      pick,
      cents: fc.integer({ min: 100, max: 900_000 }),
      issueBack: fc.integer({ min: 0, max: 400 }),
      dueShift: fc.integer({ min: -100, max: 30 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("completeVisit" as const),
      pick,
      daysBack: fc.integer({ min: 0, max: 200 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("crew" as const), pick, add: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("approveQuote" as const), pick }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("jobStatus" as const),
      pick,
      status: fc.constantFrom(...JOB_STATUSES),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("convertQuote" as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("invoiceJob" as const), pick }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("timeZone" as const),
      zone: fc.constantFrom("Pacific/Auckland", "America/Los_Angeles", "UTC"),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("fold" as const) }), weight: 1 },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Imports that committed, per type: the property must have exercised each. */
const committed: Record<string, number> = {};

async function importRun(t: TestTenant, type: string, csv: string): Promise<string | null> {
  const c = await clientFor(t.users.owner);
  const res = await commit(c, await preview(c, type, csv));
  if (res.status !== 303) return null;
  committed[type] = (committed[type] ?? 0) + 1;
  return idIn(res, "run");
}

/** The ids of the tenant's rows that match, and one of them picked by `n`. */
async function pickOne(t: TestTenant, sql: string, n: number): Promise<string | null> {
  const found = await rows<{ id: string }>(sql, [t.id]);
  return found.length ? found[n % found.length].id : null;
}

/** Links the row of `pickSql` picked by `n` to the first row of `partnerSql` with `update` ($1 the picked row, $2 the partner), when both exist. */
async function linkOne(t: TestTenant, pickSql: string, n: number, partnerSql: string, update: string): Promise<void> {
  const id = await pickOne(t, pickSql, n);
  const partner = await pickOne(t, partnerSql, 0);
  if (id && partner) await rows(update, [id, partner]);
}

async function apply(t: TestTenant, actor: Actor, runs: string[], o: Op): Promise<void> {
  const u = randomBytes(4).toString("hex");
  const tolerate = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      // A refused change (void of a paid invoice, paying more than is owed) changes nothing.
      if (!(error instanceof AppError)) throw error;
    }
  };
  switch (o.kind) {
    case "importCustomers": {
      const lines = Array.from({ length: o.rows }, (_, i) => `Customer ${u} ${i},c-${u}-${i}@summaries.test`);
      const run = await importRun(t, "customers", `name,email\n${lines.join("\n")}\n`);
      if (run) runs.push(run);
      return;
    }
    case "addCustomer":
      await createCustomer(actor, customerSchema.parse({ name: `By hand ${u}` }));
      return;
    case "deleteCustomer": {
      const id = await pickOne(t, `SELECT id FROM customers WHERE tenant_id = $1 ORDER BY id`, o.pick);
      if (!id) return;
      try {
        await rows(`DELETE FROM customers WHERE tenant_id = $1 AND id = $2`, [t.id, id]);
      } catch (error) {
        // A customer with records stays (their keys refuse the delete): nothing changed.
        if ((error as { parent?: { code?: string } }).parent?.code !== "23503") throw error;
      }
      return;
    }
    case "importInvoices": {
      const lines = o.rows.map((r, i) => {
        const issue = dayBack(r.issueBack);
        const due = dayBack(r.issueBack - r.dueShift);
        const price = (r.cents / 100).toFixed(2);
        const paid =
          r.status === "partial" ? ((r.cents * r.paidPct) / 10_000).toFixed(2) : r.status === "paid" ? price : "0";
        return `S-${u}-${i},ann@summaries.test,${r.status},${issue},${due},Work,1,${price},${paid}`;
      });
      const run = await importRun(
        t,
        "invoices",
        `number,customer_email,status,issue_date,due_date,item_description,item_quantity,item_unit_price,amount_paid\n${lines.join("\n")}\n`,
      );
      if (run) runs.push(run);
      return;
    }
    case "importJobs": {
      const lines = o.rows.map((r, i) => {
        const start = r.status === "unscheduled" ? "" : `${dayBack(r.daysBack)}T09:00:00Z`;
        const who = r.who === "none" ? "" : t.users[r.who].email;
        return `Job ${u} ${i},ann@summaries.test,${r.status === "unscheduled" && r.daysBack % 2 ? "completed" : r.status},${start},${who}`;
      });
      const run = await importRun(
        t,
        "jobs",
        `title,customer_email,status,scheduled_start,assignee_email\n${lines.join("\n")}\n`,
      );
      if (run) runs.push(run);
      return;
    }
    case "importQuotes": {
      const lines = o.rows.map(
        (r, i) => `SQ-${u}-${i},ann@summaries.test,${r.status},${dayBack(r.daysBack)},Work,1,100.00`,
      );
      const run = await importRun(
        t,
        "quotes",
        `number,customer_email,status,issue_date,item_description,item_quantity,item_unit_price\n${lines.join("\n")}\n`,
      );
      if (run) runs.push(run);
      return;
    }
    case "undo": {
      if (!runs.length) return;
      const [run] = runs.splice(o.pick % runs.length, 1);
      const res = await undo(await clientFor(t.users.owner), run);
      if (res.status === 303) committed.undo = (committed.undo ?? 0) + 1;
      return;
    }
    case "pay": {
      const id = await pickOne(
        t,
        `SELECT id FROM invoices WHERE tenant_id = $1 AND status IN ('sent', 'partial') ORDER BY id`,
        o.pick,
      );
      if (!id) return;
      const inv = await one<{ owed: number }>(
        `SELECT total_cents - amount_paid_cents AS owed FROM invoices WHERE id = $1`,
        [id],
      );
      const cents = Math.max(1, Math.floor((Number(inv!.owed) * o.pct) / 100));
      await tolerate(() =>
        recordOfficePayment(
          actor,
          id,
          officePaymentSchema.parse({
            amount: (cents / 100).toFixed(2),
            method: "check",
            reference: "test",
            receivedOn: dayBack(o.daysBack),
            idempotencyKey: `summaries-${u}-${o.pick}`,
          }),
        ),
      );
      return;
    }
    case "void": {
      const id = await pickOne(t, `SELECT id FROM invoices WHERE tenant_id = $1 ORDER BY id`, o.pick);
      if (id) await tolerate(() => voidInvoice(actor, id));
      return;
    }
    case "send": {
      const id = await pickOne(t, `SELECT id FROM invoices WHERE tenant_id = $1 ORDER BY id`, o.pick);
      if (id) await tolerate(() => sendInvoice(actor, id));
      return;
    }
    case "edit": {
      const inv = await rows<{ id: string; customer_id: string }>(
        `SELECT id, customer_id FROM invoices WHERE tenant_id = $1 AND status <> 'void' ORDER BY id`,
        [t.id],
      );
      if (!inv.length) return;
      const chosen = inv[o.pick % inv.length];
      const value = invoiceFormSchema.parse({
        customerId: chosen.customer_id,
        issueDate: dayBack(o.issueBack),
        dueDate: dayBack(o.issueBack - o.dueShift),
        items: [{ description: "Edited work", quantity: "1", unitPrice: (o.cents / 100).toFixed(2), taxRate: "0" }],
      });
      await tolerate(() => updateInvoice(actor, chosen.id, value));
      return;
    }
    case "completeVisit": {
      const id = await pickOne(
        t,
        `SELECT id FROM visits WHERE tenant_id = $1 AND status <> 'completed' ORDER BY id`,
        o.pick,
      );
      if (id)
        await rows(
          `UPDATE visits SET status = 'completed', completed_at = now() - $2::int * interval '1 day' WHERE id = $1`,
          [id, o.daysBack],
        );
      return;
    }
    case "crew": {
      const id = await pickOne(
        t,
        `SELECT id FROM visits WHERE tenant_id = $1 AND status = 'completed' ORDER BY id`,
        o.pick,
      );
      if (!id) return;
      if (o.add)
        await rows(
          `INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [t.id, id, t.users.admin.id],
        );
      else await rows(`DELETE FROM visit_assignees WHERE tenant_id = $1 AND visit_id = $2`, [t.id, id]);
      return;
    }
    case "approveQuote": {
      const id = await pickOne(t, `SELECT id FROM quotes WHERE tenant_id = $1 AND status = 'sent' ORDER BY id`, o.pick);
      if (id) await rows(`UPDATE quotes SET status = 'approved', approved_at = now() WHERE id = $1`, [id]);
      return;
    }
    case "jobStatus": {
      const id = await pickOne(t, `SELECT id FROM jobs WHERE tenant_id = $1 ORDER BY id`, o.pick);
      if (id)
        await rows(
          `UPDATE jobs SET status = $2, completed_at = CASE WHEN $2 = 'completed' THEN coalesce(completed_at, now()) END
            WHERE id = $1`,
          [id, o.status],
        );
      return;
    }
    case "convertQuote":
      // An approved quote made into a job: it leaves "to schedule".
      await linkOne(
        t,
        `SELECT id FROM quotes WHERE tenant_id = $1 AND status = 'approved' AND job_id IS NULL ORDER BY id`,
        o.pick,
        `SELECT j.id FROM jobs j WHERE j.tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM quotes q WHERE q.job_id = j.id) ORDER BY j.id`,
        `UPDATE quotes SET job_id = $2 WHERE id = $1`,
      );
      return;
    case "invoiceJob":
      // An invoice linked to a completed job (the database links the job back): it leaves "to invoice".
      await linkOne(
        t,
        `SELECT id FROM jobs WHERE tenant_id = $1 AND status = 'completed' AND invoice_id IS NULL ORDER BY id`,
        o.pick,
        `SELECT id FROM invoices WHERE tenant_id = $1 AND job_id IS NULL ORDER BY id`,
        `UPDATE invoices SET job_id = $1 WHERE id = $2`,
      );
      return;
    case "timeZone":
      await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, o.zone]);
      return;
    case "fold":
      await one(`SELECT summaries_fold($1)`, [t.id]);
      return;
  }
}

async function assertSummariesMatch(tenantId: string, after: string) {
  const { summaries, records } = await compareSummaries(tenantId);
  assert.deepEqual(summaries, records, `summaries equal the records after ${after}`);
}

test("summaries equal the from-scratch figures after random imports, undos, edits, sends, voids, payments, visits, job states, conversions and folds", async () => {
  let tenants = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 12 }), async (ops) => {
      const t = await createTenantWithUsers(`Summaries ${++tenants}`);
      const actor: Actor = { tenantId: t.id, userId: t.users.owner.id, role: "owner" };
      await importRun(t, "customers", "name,email\nAnn Customer,ann@summaries.test\n");
      const runs: string[] = [];
      for (const [i, o] of ops.entries()) {
        await apply(t, actor, runs, o);
        await assertSummariesMatch(t.id, `step ${i + 1}: ${JSON.stringify(o)}`);
      }
    }),
    { numRuns: 25, endOnFailure: true },
  );
  for (const kind of ["customers", "invoices", "jobs", "quotes", "undo"])
    assert.ok(committed[kind] > 0, `some ${kind} committed`);
  // The property had figures to compare: some runs left money, quotes and visits in the summaries.
  const kept = await rows<{ figure: string }>(
    `SELECT DISTINCT figure FROM summary_deltas d JOIN tenants t ON t.id = d.tenant_id WHERE t.name LIKE 'Summaries %'`,
  );
  // quotes_approved needs a random run to import approved quotes that were sent: compared whenever
  // it appears, but not required: a random mix may hold none (seen in two runs of this test).
  const names = kept.map((k) => k.figure);
  for (const figure of [
    "invoiced",
    "collected",
    "quotes_sent",
    "visits_completed",
    "customers",
    "owed",
    "owed_invoices",
  ])
    assert.ok(names.includes(figure), `${figure} among the figures kept: ${names.join(", ")}`);
});

test("npm run summaries -- rebuild restores damaged summaries; check finds the damage", async () => {
  const t = await createTenantWithUsers("Summaries rebuilt");
  const customerRun = await importRun(t, "customers", "name,email\nAnn Customer,ann@summaries.test\n");
  assert.ok(customerRun);
  await importRun(
    t,
    "invoices",
    [
      "number,customer_email,status,issue_date,due_date,item_description,item_quantity,item_unit_price,amount_paid",
      `RB-1,ann@summaries.test,sent,${dayBack(40)},${dayBack(10)},Work,1,300.00,0`,
      `RB-2,ann@summaries.test,partial,${dayBack(100)},${dayBack(95)},Work,1,80.00,20.00`,
      `RB-3,ann@summaries.test,paid,${dayBack(5)},${dayBack(0)},Work,1,55.00,55.00`,
    ].join("\n") + "\n",
  );
  await importRun(
    t,
    "jobs",
    `title,customer_email,status,scheduled_start,assignee_email\nFixed,ann@summaries.test,completed,${dayBack(3)}T10:00:00Z,${t.users.technician.email}\n`,
  );
  await assertSummariesMatch(t.id, "the imports");

  // Damage: one figure's rows gone, a wrong row added, an open balance lost.
  await rows(`DELETE FROM summary_deltas WHERE tenant_id = $1 AND figure = 'collected'`, [t.id]);
  await rows(
    `INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount) VALUES ($1, 'invoiced', date_trunc('month', now())::date, 'USD', 999)`,
    [t.id],
  );
  await rows(
    `DELETE FROM invoice_balances WHERE tenant_id = $1 AND invoice_id IN (SELECT id FROM invoices WHERE number = 'RB-2')`,
    [t.id],
  );
  await rows(
    `DELETE FROM summary_deltas WHERE tenant_id = $1 AND figure IN ('owed', 'owed_invoices') AND period = $2::date`,
    [t.id, dayBack(95)],
  );
  await rows(
    `INSERT INTO summary_deltas (tenant_id, figure, period, amount) VALUES ($1, 'customers', '-infinity', 3)`,
    [t.id],
  );
  const damaged = await compareSummaries(t.id);
  assert.notDeepEqual(damaged.summaries, damaged.records, "the damage shows");

  const env = { ...process.env };
  const script = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/summaries.ts"), ...args], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
  const check = script(["check", t.id]);
  assert.equal(check.status, 1, check.stdout + check.stderr);
  assert.match(check.stdout, /money, aging, customers, balances differ from the records/);

  const rebuilt = script(["rebuild"]);
  assert.equal(rebuilt.status, 0, rebuilt.stdout + rebuilt.stderr);
  assert.match(rebuilt.stdout, /Summaries rebuilt for \d+ tenant\(s\)\./);
  await assertSummariesMatch(t.id, "the rebuild");
  const after = script(["check", t.id]);
  assert.equal(after.status, 0, after.stdout + after.stderr);
  assert.match(after.stdout, /Summaries match the records\./);
});
