import assert from "node:assert/strict";
import { test } from "node:test";
import { db, one, rows } from "../../db/index";
import { loadReports } from "../../app/services/reports/reports.server";
import { recordOfficePayment } from "../../app/services/invoices/payments.server";
import { voidInvoice } from "../../app/services/invoices/invoices.server";
import { officePaymentSchema } from "../../app/services/invoices/schemas";
import { BASE_URL, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";

// The reports' charts and tables (money, quotes, visits per technician) are rendered once per
// content and kept (docs/decisions/499-reports-drawn-once-per-content.md): the same figures
// again are the kept markup, byte for byte; a renamed technician, a job completed or a payment
// shows at once. Counts, not timing.

type Markup = { kept: number; rendered: number; reused: number };
async function figures(): Promise<Markup> {
  const res = await fetch(`${BASE_URL}/healthz?figures=1`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { markup: Markup } }).data.markup;
}

/** One report section's body: its chart and its table. */
function bodyOf(html: string, name: string): string {
  const start = html.indexOf(`id="report-${name}"`);
  assert.ok(start > 0, `section ${name}`);
  const body = html.indexOf(`<div class="report-body">`, start);
  return html.slice(body, html.indexOf("</section>", body));
}

const KEPT = ["invoiced-collected", "quote-conversion", "jobs-completed"];

test("the reports' charts and tables are rendered once per content: the same bytes again, a new render after a change", async () => {
  const t = await createTenantWithUsers("Reports kept markup");
  const owner = await clientFor(t.users.owner);
  const customer = await createCustomer(t.id, { name: "Rosa Kept" });
  const ann = await createUser(t.id, { role: "technician", name: "Ann Kept" });
  const complete = async () => {
    const job = await createJob(t.id, { customerId: customer.id, assigneeId: ann.id, scheduledStart: null });
    await rows(`UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
      t.id,
      job.id,
    ]);
  };
  await complete();
  const page = async () => {
    const res = await owner.get("/reports");
    assert.equal(res.status, 200);
    return res.text();
  };

  const first = await page();
  // Other test files render at the same time: the server's counters only grow "at least".
  const before = await figures();
  const again = await page();
  const after = await figures();
  for (const name of KEPT) assert.equal(bodyOf(again, name), bodyOf(first, name), `${name}: the same bytes`);
  assert.ok(after.reused - before.reused >= KEPT.length, "the three bodies served from what was kept");
  // The charts' ids are their own, not React's place in the page: the same in a body drawn on its own.
  assert.match(bodyOf(first, "jobs-completed"), /aria-labelledby="chart-jobs-completed-t chart-jobs-completed-d"/);
  assert.match(bodyOf(first, "jobs-completed"), /<title id="chart-jobs-completed-t">/);
  assert.match(bodyOf(first, "top-customers"), /No payments in this period/);

  // A renamed technician: a new render with the new name in the chart and the table.
  await rows(`UPDATE users SET name = 'Ann Renamed' WHERE tenant_id = $1 AND id = $2`, [t.id, ann.id]);
  const renamed = bodyOf(await page(), "jobs-completed");
  assert.match(renamed, /Ann Renamed/);
  assert.doesNotMatch(renamed, /Ann Kept/);
  assert.match(renamed, /Ann Renamed 1\./, "one visit in the chart's description");

  // Another job completed: the count moves.
  await complete();
  assert.match(bodyOf(await page(), "jobs-completed"), /Ann Renamed 2\./);

  // A payment: the money chart and table move; the kept visits' body is served again unchanged.
  const invoice = await createInvoice(t.id, { customerId: customer.id });
  const beforePay = await page();
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at)
     VALUES ($1, $2, 12345, 'USD', 'check', 'test', now())`,
    [t.id, invoice.id],
  );
  const paid = await page();
  assert.notEqual(bodyOf(paid, "invoiced-collected"), bodyOf(beforePay, "invoiced-collected"));
  assert.match(bodyOf(paid, "invoiced-collected"), /\$123\.45/);
  assert.equal(bodyOf(paid, "jobs-completed"), bodyOf(beforePay, "jobs-completed"));
  assert.match(bodyOf(paid, "top-customers"), /Rosa Kept/);

  // Another tenant with the same names sees only its own figures.
  const other = await createTenantWithUsers("Reports kept markup, another firm");
  const otherAnn = await createUser(other.id, { role: "technician", name: "Ann Renamed" });
  const otherPage = await (await (await clientFor(other.users.owner)).get("/reports")).text();
  assert.doesNotMatch(bodyOf(otherPage, "jobs-completed"), /Ann Renamed/, "no visits there");
  assert.doesNotMatch(otherPage, new RegExp(ann.id));
  assert.ok(otherAnn.id);
  const count = await one<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE tenant_id = $1`, [t.id]);
  assert.equal(count!.n, 1);
});

test("the reports ask the database three times in their transaction: the clock with the ages, the sums with the names, the top customers' names", async () => {
  const t = await createTenantWithUsers("Reports statements");
  const customer = await createCustomer(t.id, { name: "Rosa Counted" });
  const ann = await createUser(t.id, { role: "technician", name: "Ann Counted" });
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: ann.id, scheduledStart: null });
  await rows(`UPDATE jobs SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    job.id,
  ]);
  const invoice = await createInvoice(t.id, { customerId: customer.id });
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at)
     VALUES ($1, $2, 5000, 'USD', 'check', 'test', now())`,
    [t.id, invoice.id],
  );
  const actor = { tenantId: t.id, userId: t.users.owner.id, role: "owner" as const };
  await loadReports(actor, "last-12-months"); // ranks the top customers (kept for the next view)
  const sent: string[] = [];
  db().addHook("beforeQuery", "reports-statements", (_options, query) => {
    sent.push(String((query as { sql?: string }).sql ?? query).slice(0, 60));
  });
  let r;
  try {
    r = await loadReports(actor, "last-12-months");
  } finally {
    db().removeHook("beforeQuery", "reports-statements");
  }
  assert.deepEqual(
    r.technicians.map((x) => x.name),
    ["Ann Counted"],
  );
  assert.equal(
    r.jobs.reduce((s, w) => s + w.total, 0),
    1,
  );
  assert.deepEqual(
    r.topCustomers.map((c) => [c.name, c.cents]),
    [["Rosa Counted", 5000]],
  );
  assert.equal(
    r.aging.reduce((s, a) => s + a.invoices, 0),
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM invoice_balances WHERE tenant_id = $1`, [t.id]))!.n,
  );
  // The transaction's opening, three statements, its commit (seven before: the names and the
  // ages were statements of their own).
  assert.ok(sent.length >= 3, "the statements were counted");
  assert.ok(sent.length <= 5, `${sent.length} statements: ${sent.join(" | ")}`);
});

test("what is owed by age is kept per due date by the writes: a row or two per due date, and each change shows on the very next view", async () => {
  const t = await createTenantWithUsers("Reports owed by due date");
  const customer = await createCustomer(t.id, { name: "Rosa Owed" });
  const actor = { tenantId: t.id, userId: t.users.owner.id, role: "owner" as const };
  const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
  // Twelve open invoices on three due dates (45 days ago, 10 days ago, in 20 days) and one with no due date.
  const ids: string[] = [];
  for (let i = 0; i < 12; i++)
    ids.push((await createInvoice(t.id, { customerId: customer.id, dueDate: day([-45, -10, 20][i % 3]) })).id);
  const undated = (await createInvoice(t.id, { customerId: customer.id, dueDate: null })).id;
  await createInvoice(t.id, { customerId: customer.id, status: "draft" });

  // The ages from the invoices themselves, as the from-scratch check computes them.
  const expected = async () =>
    rows<{ bucket: string; invoices: number; cents: number }>(
      `SELECT CASE WHEN i.due_date IS NULL OR i.due_date > tn.today THEN 'current'
                   WHEN tn.today - i.due_date <= 30 THEN '0-30' WHEN tn.today - i.due_date <= 60 THEN '31-60'
                   WHEN tn.today - i.due_date <= 90 THEN '61-90' ELSE 'over-90' END AS bucket,
              count(*)::int AS invoices, sum(i.total_cents - i.amount_paid_cents)::bigint AS cents
         FROM invoices i, (SELECT (now() AT TIME ZONE time_zone)::date AS today FROM tenants WHERE id = $1) tn
        WHERE i.tenant_id = $1 AND i.status IN ('sent', 'partial')
        GROUP BY 1 ORDER BY 1`,
      [t.id],
    );
  const viewed = async () =>
    (await loadReports(actor, "last-12-months")).aging
      .filter((a) => a.invoices)
      .map((a) => ({ bucket: a.bucket, invoices: a.invoices, cents: a.cents }))
      .sort((a, b) => a.bucket.localeCompare(b.bucket));
  const same = async (after: string) => {
    const want = (await expected()).map((r) => ({ ...r, cents: Number(r.cents) }));
    assert.deepEqual(await viewed(), want, `the ages after ${after}`);
  };
  await same("thirteen invoices sent");
  assert.deepEqual(
    (await viewed()).map((a) => [a.bucket, a.invoices]),
    [
      ["0-30", 4],
      ["31-60", 4],
      ["current", 5],
    ],
  );

  // Folded, what the ages read is two rows per due date (cents and how many), not one per invoice.
  await one(`SELECT summaries_fold($1)`, [t.id]);
  const owedRows = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM summary_deltas WHERE tenant_id = $1 AND figure IN ('owed', 'owed_invoices')`,
    [t.id],
  );
  assert.equal(owedRows!.n, 8, "four due dates (one of them none), two rows each");
  await same("a fold");

  // A payment, a due date moved, a void, an invoice deleted (as an import's undo does), a new one.
  await recordOfficePayment(
    actor,
    ids[0],
    officePaymentSchema.parse({
      amount: "100.00",
      method: "check",
      reference: "test",
      receivedOn: day(0),
      idempotencyKey: `owed-${t.id}`,
    }),
  );
  await same("a payment");
  await rows(`UPDATE invoices SET due_date = $3 WHERE tenant_id = $1 AND id = $2`, [t.id, ids[1], day(-100)]);
  await same("a due date moved");
  await voidInvoice(actor, ids[2]);
  await same("a void");
  await rows(`DELETE FROM invoices WHERE tenant_id = $1 AND id = ANY ($2::uuid[])`, [t.id, [ids[4], undated]]);
  await same("two invoices deleted");
  await createInvoice(t.id, { customerId: customer.id, dueDate: day(-70) });
  await same("a new invoice");
  assert.ok((await viewed()).some((a) => a.bucket === "over-90") && (await viewed()).some((a) => a.bucket === "61-90"));
});
