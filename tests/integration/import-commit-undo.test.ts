// CSV import over HTTP: commit exactly once, and undo only while available (CONTRACT section 5).
import assert from "node:assert/strict";
import { test } from "node:test";
import { rows } from "../../db/index";
import { clientFor, type Client } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, twoTenants } from "../helpers/fixtures";
import { commit, countOf, idIn, importFile, pageText, preview, runState, undo } from "../helpers/import";

const unique = () => Math.random().toString(36).slice(2, 8);

/** A customers file of `n` valid rows, unique across the test database. */
function customersCsv(n: number, tag = unique()): string {
  const lines = ["name,email,external_id"];
  for (let i = 1; i <= n; i++) lines.push(`Customer ${i} ${tag},c${i}-${tag}@example.com,${tag}-${i}`);
  return lines.join("\r\n") + "\r\n";
}

async function signedIn() {
  const t = await createTenantWithUsers();
  return { t, c: await clientFor(t.users.admin) };
}

async function resultPage(c: Client, runId: string) {
  const res = await c.get(`/import-data?run=${runId}`);
  assert.equal(res.status, 302, "a run link without the type goes to the run's type");
  const page = await c.get(res.headers.get("location")!);
  assert.equal(page.status, 200);
  const html = await page.text();
  return { html, text: pageText(html) };
}

test("committing a preview imports its records once; the result page says so and offers undo", async () => {
  const { t, c } = await signedIn();
  await createCustomer(t.id, { name: "Already here" });
  const id = await preview(c, "customers", customersCsv(3));
  const res = await commit(c, id);
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), `/import-data?type=customers&run=${id}`);
  const { html, text } = await resultPage(c, id);
  assert.match(text, /Imported 3 customers/);
  assert.match(html, /action="\/import-data\/undo"/);
  assert.equal(await countOf(t.id, "customers"), 4);
  assert.equal(await countOf(t.id, "customers", `import_run_id = '${id}'`), 3);
  assert.equal(await runState(t.id, id), "committed");
  // The preview's page now leads to the result.
  const again = await c.get(`/import-data?type=customers&preview=${id}`);
  assert.equal(again.status, 302);
  assert.equal(again.headers.get("location"), `/import-data?type=customers&run=${id}`);
});

test("the same preview committed twice, or ten times at once, imports once and every submit lands on the same result page", async () => {
  const { t, c } = await signedIn();
  const first = await preview(c, "customers", customersCsv(5));
  const a = await commit(c, first);
  const b = await commit(c, first);
  assert.equal(a.status, 303);
  assert.equal(b.status, 303);
  assert.equal(b.headers.get("location"), a.headers.get("location"));
  assert.equal(await countOf(t.id, "customers"), 5);

  const second = await preview(c, "customers", customersCsv(7));
  const all = await Promise.all(Array.from({ length: 10 }, () => commit(c, second)));
  assert.deepEqual(
    all.map((r) => [r.status, r.headers.get("location")]),
    Array.from({ length: 10 }, () => [303, `/import-data?type=customers&run=${second}`]),
  );
  assert.equal(await countOf(t.id, "customers"), 12);
  assert.equal(await countOf(t.id, "customers", `import_run_id = '${second}'`), 7);
});

test("an older preview after a newer one of the same type is refused with 409 and writes nothing", async () => {
  const { t, c } = await signedIn();
  const older = await preview(c, "customers", customersCsv(2));
  const newer = await preview(c, "customers", customersCsv(3));
  // A preview of another type does not replace it.
  await preview(c, "team", `name,email,role\r\nAnn Lee,ann-${unique()}@example.com,technician\r\n`);
  assert.equal(await runState(t.id, older), "superseded");
  const stalePage = pageText(await (await c.get(`/import-data?type=customers&preview=${older}`)).text());
  assert.match(stalePage, /A newer customer file was uploaded after this one/);
  const res = await commit(c, older);
  assert.equal(res.status, 409);
  assert.match(pageText(await res.text()), /A newer file of this type was previewed after this one/);
  assert.equal(await countOf(t.id, "customers"), 0);
  assert.equal(idIn(await commit(c, newer), "run"), newer);
  assert.equal(await countOf(t.id, "customers"), 3);
});

test("a commit re-checks the database: a duplicate or a missing customer since the preview refuses it and writes nothing", async () => {
  const { t, c } = await signedIn();
  const tag = unique();
  const dup = await preview(c, "customers", customersCsv(2, tag));
  await createCustomer(t.id, { name: "Added meanwhile", email: `c2-${tag}@example.com` });
  const res = await commit(c, dup);
  assert.equal(res.status, 409);
  assert.match(pageText(await res.text()), /were added since the preview/);
  assert.equal(await countOf(t.id, "customers"), 1);

  const ann = await createCustomer(t.id, { name: "Ann", email: `ann-${tag}@example.com` });
  const jobs = await preview(c, "jobs", `title,customer_email\r\nFix sink,ann-${tag}@example.com\r\n`);
  await rows(`DELETE FROM customers WHERE tenant_id = $1 AND id = $2`, [t.id, ann.id]);
  const refused = await commit(c, jobs);
  assert.equal(refused.status, 409);
  assert.match(
    pageText(await refused.text()),
    /refer to customers or team members that were deleted or changed since the preview/,
  );
  assert.equal(await countOf(t.id, "jobs"), 0);
  assert.equal(await runState(t.id, jobs), "previewed");
});

test("undo removes exactly the latest import's records, once; an older run and a second undo are refused", async () => {
  const { t, c } = await signedIn();
  const existing = await createCustomer(t.id, { name: "Before the imports" });
  const customersRun = await importFile(c, "customers", customersCsv(4));
  const jobsRun = await importFile(
    c,
    "jobs",
    `title,customer_external_id\r\nJob A,${await firstExternalId(t.id, customersRun)}\r\n`,
  );
  // The customers import is not the latest any more.
  const older = await undo(c, customersRun);
  assert.equal(older.status, 409);
  assert.match(pageText(await older.text()), /Only the most recent import can be undone/);
  assert.equal(await countOf(t.id, "customers"), 5);
  const { text } = await resultPage(c, customersRun);
  assert.match(text, /Only the most recent import can be undone/);
  assert.doesNotMatch(text, /Undo this import/);

  const undone = await undo(c, jobsRun);
  assert.equal(undone.status, 303);
  assert.equal(undone.headers.get("location"), `/import-data?type=jobs&run=${jobsRun}`);
  assert.match((await resultPage(c, jobsRun)).text, /Import undone The 1 job this import created was removed/);
  assert.equal(await countOf(t.id, "jobs"), 0);
  assert.equal(await runState(t.id, jobsRun), "undone");
  const twice = await undo(c, jobsRun);
  assert.equal(twice.status, 409);
  assert.match(pageText(await twice.text()), /This import has been undone already/);

  // With the jobs undone, the customers import is the latest again.
  assert.equal((await undo(c, customersRun)).status, 303);
  const left = await rows<{ id: string }>(`SELECT id FROM customers WHERE tenant_id = $1`, [t.id]);
  assert.deepEqual(left, [{ id: existing.id }]);
});

async function firstExternalId(tenantId: string, runId: string): Promise<string> {
  const [r] = await rows<{ external_id: string }>(
    `SELECT external_id FROM customers WHERE tenant_id = $1 AND import_run_id = $2 ORDER BY external_id LIMIT 1`,
    [tenantId, runId],
  );
  return r.external_id;
}

test("undo is refused after 24 hours, and once a record was changed or is referenced from outside; nothing is deleted", async () => {
  const { t, c } = await signedIn();
  const refused = async (runId: string, message: RegExp) => {
    const before = await countOf(t.id, "customers");
    const res = await undo(c, runId);
    assert.equal(res.status, 409);
    assert.match(pageText(await res.text()), message);
    assert.equal(await countOf(t.id, "customers"), before, "nothing deleted");
    assert.equal(await runState(t.id, runId), "committed");
    assert.match((await resultPage(c, runId)).text, message, "the result page says why");
  };

  const late = await importFile(c, "customers", customersCsv(2));
  // The new time read first: Citus refuses a STABLE operator (timestamptz - interval) on a column in an UPDATE.
  const [{ at }] = await rows<{ at: Date }>(
    `SELECT committed_at - interval '24 hours 1 minute' AS at FROM import_runs WHERE tenant_id = $1 AND id = $2`,
    [t.id, late],
  );
  await rows(`UPDATE import_runs SET committed_at = $3 WHERE tenant_id = $1 AND id = $2`, [t.id, late, at]);
  await refused(late, /Imports can be undone for 24 hours after they are committed/);

  const changed = await importFile(c, "customers", customersCsv(2));
  await rows(
    `UPDATE customers SET phone = '555 0199', updated_at = now() WHERE tenant_id = $1 AND import_run_id = $2 AND name LIKE 'Customer 1 %'`,
    [t.id, changed],
  );
  await refused(changed, /Some of its customers were changed after the import/);

  const referenced = await importFile(c, "customers", customersCsv(2));
  const [customer] = await rows<{ id: string }>(
    `SELECT id FROM customers WHERE tenant_id = $1 AND import_run_id = $2 LIMIT 1`,
    [t.id, referenced],
  );
  await createJob(t.id, { customerId: customer.id, title: "Added in the office" });
  await refused(referenced, /A job now refers to one of its customers/);
});

test("undo is refused once a portal link names an imported customer, or a job is assigned to an imported team member", async () => {
  const { t, c } = await signedIn();
  const customersRun = await importFile(c, "customers", customersCsv(2));
  const [customer] = await rows<{ id: string }>(
    `SELECT id FROM customers WHERE tenant_id = $1 AND import_run_id = $2 LIMIT 1`,
    [t.id, customersRun],
  );
  await rows(
    `INSERT INTO portal_links (tenant_id, customer_id, expires_at) VALUES ($1, $2, now() + interval '30 days')`,
    [t.id, customer.id],
  );
  const linked = await undo(c, customersRun);
  assert.equal(linked.status, 409);
  assert.match(pageText(await linked.text()), /A portal link now refers to one of its customers/);
  assert.equal(await countOf(t.id, "customers"), 2);

  const tag = unique();
  const teamRun = await importFile(
    c,
    "team",
    `name,email,role\r\nTomás Ibáñez,tomas-${tag}@example.com,technician\r\n`,
  );
  const [member] = await rows<{ id: string }>(`SELECT id FROM users WHERE tenant_id = $1 AND import_run_id = $2`, [
    t.id,
    teamRun,
  ]);
  await createJob(t.id, { customerId: customer.id, assigneeId: member.id });
  const assigned = await undo(c, teamRun);
  assert.equal(assigned.status, 409);
  assert.match(pageText(await assigned.text()), /A job now refers to one of its team members/);
  assert.equal(await countOf(t.id, "users", `import_run_id = '${teamRun}'`), 1);
});

test("an imported invoice with a payment from outside cannot be undone; its own import payment does not block it", async () => {
  const { t, c } = await signedIn();
  const tag = unique();
  await importFile(c, "customers", `name,email\r\nZoë,zoe-${tag}@example.com\r\n`);
  const invoices =
    "number,customer_email,status,item_description,item_unit_price,amount_paid\r\n" +
    `INV-${tag}-1,zoe-${tag}@example.com,partial,Drain cleaning,189.00,50.00\r\n` +
    `INV-${tag}-2,zoe-${tag}@example.com,sent,Inspection,125.00,\r\n`;
  const run = await importFile(c, "invoices", invoices);
  const payments = await rows<{ method: string; amount_cents: number }>(
    `SELECT method, amount_cents FROM payments WHERE tenant_id = $1`,
    [t.id],
  );
  assert.deepEqual(payments, [{ method: "import", amount_cents: 5000 }]);
  const [inv] = await rows<{ id: string }>(`SELECT id FROM invoices WHERE tenant_id = $1 AND number = $2`, [
    t.id,
    `INV-${tag}-2`,
  ]);
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference) VALUES ($1, $2, 2500, 'USD', 'cash', 'Paid at the door')`,
    [t.id, inv.id],
  );
  const res = await undo(c, run);
  assert.equal(res.status, 409);
  assert.match(pageText(await res.text()), /A payment now refers to one of its invoices/);
  assert.equal(await countOf(t.id, "invoices"), 2);

  await rows(`DELETE FROM payments WHERE tenant_id = $1 AND method = 'cash'`, [t.id]);
  assert.equal(idIn(await undo(c, run), "run"), run);
  assert.equal(await countOf(t.id, "invoices"), 0);
  assert.equal(await countOf(t.id, "invoice_items"), 0);
  assert.equal(await countOf(t.id, "payments"), 0);
});

test("another tenant's run is unknown: its page, commit and undo answer 404 and change nothing", async () => {
  const { a, b } = await twoTenants();
  const ca = await clientFor(a.users.owner);
  const cb = await clientFor(b.users.owner);
  const run = await importFile(ca, "customers", customersCsv(2));
  assert.equal((await cb.get(`/import-data?type=customers&run=${run}`)).status, 404);
  assert.equal((await cb.get(`/import-data?run=${run}`)).status, 404);
  const undoRes = await undo(cb, run);
  assert.equal(undoRes.status, 404);
  assert.match(pageText(await undoRes.text()), /This import does not exist/);
  assert.equal((await undo(cb, "not-a-uuid")).status, 404);
  assert.equal((await commit(cb, "00000000-0000-4000-8000-000000000000")).status, 404);
  assert.equal(await countOf(a.id, "customers"), 2);
  assert.equal(await runState(a.id, run), "committed");
});
