// The undo of a large import after a small one (docs/decisions/234-statistics-after-bulk-writes.md).
//
// A careful office imports 50 customers, commits and undoes, then imports the real 50,000-row
// file. PostgreSQL checks each deleted customer's foreign keys with plans it caches per
// connection; made during the small run, they read every customer of the tenant for each check
// once the table holds 50,000. The commit refreshes the tables' statistics, which makes every
// connection plan those checks again on the table's real size.
//
// The test runs on a database of its own (fresh tables, as on a new install) and a server with
// one database connection, so the small run's cached plans are the ones the large undo meets.
// It checks the statistics and the plan the undo relies on, and that the undo answers 303.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { closeDb, configureDb, db, rows } from "../../db/index";
import { migrateUp } from "../../db/migrate";
import { APP_ROLE } from "../../db/migrations/0009-row-level-security";
import { customersCsv, jobsCsv } from "../../bench/import-lib";
import { clientFor, type Client } from "../helpers/client";
import { createTenant, createUser } from "../helpers/fixtures";
import { commit, idIn, preview, undo } from "../helpers/import";
import { startServer, type RunningServer } from "../helpers/server";

const NAME = `fieldservice_undo_${process.pid}`;
let ownUrl = "";
let server: RunningServer;
let c: Client;
let tenantId = "";
let team: string[] = [];
/** A connection of the app role, as the server's are: its prepared statements are cached like the server's. */
let app: pg.Client;

const RUNNER_URL = process.env.DATABASE_URL!;

before(async () => {
  const admin = new pg.Client({ connectionString: RUNNER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${NAME}`);
  await admin.end();
  const url = new URL(RUNNER_URL);
  url.pathname = `/${NAME}`;
  ownUrl = url.toString();
  // Migrated here (the migrator needs two connections), then served with one.
  await closeDb();
  configureDb({ url: ownUrl });
  await migrateUp(db());
  process.env.DATABASE_URL = ownUrl;
  server = await startServer({
    DATABASE_URL: ownUrl,
    DB_POOL_MAX: "1",
    MAIL_WORKER: "off",
    REMINDERS_INTERVAL_MS: "0",
    CLEANUP_INTERVAL_MS: "0",
  });
  tenantId = (await createTenant("Careful Plumbing")).id;
  const owner = await createUser(tenantId, { role: "owner" });
  team = [];
  for (let i = 0; i < 3; i++) team.push((await createUser(tenantId, { role: "technician" })).email);
  c = await clientFor(owner, server.url);
  app = new pg.Client({ connectionString: ownUrl });
  await app.connect();
  await app.query(`SET ROLE ${APP_ROLE}`);
  await app.query(`SELECT set_config('app.tenant_id', $1, false)`, [tenantId]);
});

after(async () => {
  await app?.end();
  await server?.stop();
  await closeDb();
  const admin = new pg.Client({ connectionString: RUNNER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.end();
});

async function importAndCommit(type: string, csv: string): Promise<string> {
  const res = await commit(c, await preview(c, type, csv));
  return idIn(res, "run");
}

async function undone(runId: string) {
  const res = await undo(c, runId);
  assert.equal(res.status, 303, `the undo answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const [run] = await rows<{ state: string }>(`SELECT state FROM import_runs WHERE id = $1`, [runId]);
  assert.equal(run.state, "undone");
}

/** What the planner believes of a table: its row estimate and the manual ANALYZE count. */
async function statistics(table: string) {
  const [s] = await rows<{ reltuples: number; analyzed: number }>(
    `SELECT c.reltuples::float8 AS reltuples, s.analyze_count::int AS analyzed
       FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = $1 AND s.schemaname = 'public'`,
    [table],
  );
  return s;
}

/**
 * The statements PostgreSQL runs for each deleted row of a table: per foreign key that refers to
 * it without a cascade, "is the key still there?" (`column` is the key, `lock` true), and per
 * one with a cascade, finding the referring rows to delete (`column` the referring one). Each is
 * prepared on the app role's connection and made to use its cached (generic) plan, as the
 * server's connections do after a few rows.
 */
async function prepareRowChecks(checks: { name: string; table: string; column: string; lock: boolean }[]) {
  await app.query(`DEALLOCATE ALL`);
  await app.query(`SET plan_cache_mode = force_generic_plan`);
  for (const { name, table, column, lock } of checks) {
    await app.query(
      `PREPARE ${name}(uuid, uuid) AS SELECT 1 FROM ONLY ${table} x WHERE tenant_id = $1 AND ${column} = $2${lock ? " FOR KEY SHARE OF x" : ""}`,
    );
    await app.query(`EXECUTE ${name}(${pg.escapeLiteral(tenantId)}, gen_random_uuid())`);
  }
}

async function cachedPlan(name: string): Promise<string> {
  const r = await app.query<{ "QUERY PLAN": string }>(
    `EXPLAIN EXECUTE ${name}(${pg.escapeLiteral(tenantId)}, gen_random_uuid())`,
  );
  return r.rows.map((x) => x["QUERY PLAN"]).join("\n");
}

test("after a 50-row import, commit and undo, a 50,000-row customers import with every column filled commits and undoes", async () => {
  // The small run first, as a careful office does.
  await undone(await importAndCommit("customers", customersCsv(50)));
  // A connection that checked keys while the table was small keeps that plan until the
  // table's statistics change.
  await prepareRowChecks([{ name: "customer_key", table: "customers", column: "id", lock: true }]);
  const small = await statistics("customers");
  assert.ok(small.reltuples < 1000, `the table is small now (${small.reltuples})`);

  const runId = await importAndCommit("customers", customersCsv(50_000));
  const [{ n }] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1 AND import_run_id = $2`,
    [tenantId, runId],
  );
  assert.equal(n, 50_000);
  // The commit gathered the statistics (a manual ANALYZE, before its answer): the planner
  // knows the table's size.
  const big = await statistics("customers");
  assert.ok(big.analyzed > small.analyzed, "the commit ran ANALYZE on customers");
  assert.ok(big.reltuples >= 45_000, `the statistics know the 50,000 customers (${big.reltuples})`);
  // ... so the cached check is made again, and finds a customer by its key.
  const plan = await cachedPlan("customer_key");
  assert.match(plan, /Index Scan using customers_pkey on customers x/, plan);
  assert.match(plan, /Index Cond: \(\(tenant_id = \$1\) AND \(id = \$2\)\)/, plan);

  await undone(runId);
  const [{ left }] = await rows<{ left: number }>(`SELECT count(*)::int AS left FROM customers WHERE tenant_id = $1`, [
    tenantId,
  ]);
  assert.equal(left, 0);
});

test("the jobs import: a 50-row run committed and undone, then 10,000 jobs commit and undo", async () => {
  await importAndCommit("customers", customersCsv(10_000));
  const smallRun = await importAndCommit("jobs", jobsCsv(team, 50));
  // Autovacuum may gather the small run's statistics before the undo (it did on a slow machine,
  // where the undo of 10,000 jobs then read every visit of the tenant for each job, past the
  // statement timeout): here it is made sure of.
  await rows(`ANALYZE visits; ANALYZE visit_assignees`);
  await undone(smallRun);
  // Each job comes with its visit and the visit's assignee (the jobs' insert trigger); the undo
  // deletes them by cascade, one job's at a time, with plans cached like the key check's.
  await prepareRowChecks([
    { name: "job_key", table: "jobs", column: "id", lock: true },
    { name: "job_visits", table: "visits", column: "job_id", lock: false },
    { name: "visit_assignees_of", table: "visit_assignees", column: "visit_id", lock: false },
  ]);
  const tables = ["jobs", "visits", "visit_assignees"];
  const small = await Promise.all(tables.map(statistics));

  const runId = await importAndCommit("jobs", jobsCsv(team, 10_000));
  const big = await Promise.all(tables.map(statistics));
  for (const [i, table] of tables.entries()) {
    // Not every job is scheduled (an unscheduled one has no visit): the table's own count.
    const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    assert.ok(n >= 5_000, `${table} holds the run's rows (${n})`);
    assert.ok(big[i]!.analyzed > small[i]!.analyzed, `the commit ran ANALYZE on ${table}`);
    assert.ok(big[i]!.reltuples >= n * 0.9, `the statistics know the ${n} rows of ${table} (${big[i]!.reltuples})`);
  }
  const plan = await cachedPlan("job_key");
  assert.match(plan, /Index Scan using jobs_pkey on jobs x/, plan);
  const visitsPlan = await cachedPlan("job_visits");
  assert.match(visitsPlan, /Index (Only )?Scan using visits_job on visits x/, visitsPlan);
  const assigneesPlan = await cachedPlan("visit_assignees_of");
  assert.match(assigneesPlan, /Index (Only )?Scan using visit_assignees_pkey on visit_assignees x/, assigneesPlan);
  await undone(runId);
});

test("an undo whose run's statistics were never gathered gathers them first", async () => {
  // Other people than the customers the tests above left in the table.
  const others = customersCsv(2_000).replaceAll("@example.com", "@example.org").replaceAll("CUST-", "OTHER-");
  const runId = await importAndCommit("customers", others);
  // As if the commit had not refreshed them (a run committed before the commit did): its
  // commit time after the statistics' last gathering.
  await rows(`UPDATE import_runs SET committed_at = now() WHERE id = $1`, [runId]);
  const beforeUndo = await statistics("customers");
  await undone(runId);
  const afterUndo = await statistics("customers");
  assert.ok(afterUndo.analyzed > beforeUndo.analyzed, "the undo ran ANALYZE on customers first");
});
