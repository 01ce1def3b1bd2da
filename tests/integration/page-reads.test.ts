// The big firm's pages read what they show, not the tenant's history: plans of their queries on
// a tenant with thousands of records, judged by the rows each plan reads (never by time).
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { inTenant, one, rows } from "../../db/index";
import { VISITS_TO_INVOICE_SQL } from "../../app/services/jobs/items.server";
import { createCustomer, createTenantWithUsers, type TestTenant } from "../helpers/fixtures";

const JOBS = 3_000;
let A: TestTenant;

/** Rows a plan read from its tables (rows returned per loop, plus those its filters removed), and its seq scans. */
async function planReads(tenantId: string, sql: string, bind: unknown[]) {
  const plan = await inTenant(
    tenantId,
    async (t) =>
      (await one<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, bind, t))!["QUERY PLAN"],
  );
  let read = 0;
  const seqScans: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const type = String(node["Node Type"]);
    if (type === "Seq Scan") seqScans.push(String(node["Relation Name"]));
    if (/^(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)$/.test(type))
      read +=
        Number(node["Actual Rows"] ?? 0) * Number(node["Actual Loops"] ?? 1) +
        Number(node["Rows Removed by Filter"] ?? 0) +
        Number(node["Rows Removed by Index Recheck"] ?? 0);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
  return { read, seqScans };
}

before(async () => {
  A = await createTenantWithUsers("Page reads plumbing");
  const customer = await createCustomer(A.id);
  // Thousands of completed jobs billed on completion, each with its completed visit (made by the
  // database from the job's times).
  await rows(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end, completed_at)
     SELECT $1, $2, 'Job ' || g, 'completed', $3, s, s + interval '1 hour', s + interval '1 hour'
       FROM generate_series(1, ${JOBS}) g, LATERAL (SELECT now() - g * interval '3 hours' AS s) x`,
    [A.id, customer.id, A.users.technician.id],
  );
  await rows(`ANALYZE jobs`);
  await rows(`ANALYZE visits`);
});

test("the dashboard's visits to invoice read only the jobs billed per visit, not every completed visit", async () => {
  const visits = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM visits WHERE tenant_id = $1 AND status = 'completed'`,
    [A.id],
  );
  assert.ok(visits!.n >= JOBS, `the tenant has ${visits!.n} completed visits`);
  const { read, seqScans } = await planReads(A.id, VISITS_TO_INVOICE_SQL, [A.id, 10]);
  assert.deepEqual(seqScans, [], "no table read whole");
  assert.ok(read <= 50, `read ${read} rows to find that nothing is billed per visit`);
});
