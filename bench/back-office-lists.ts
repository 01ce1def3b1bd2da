/**
 * `npx tsx bench/back-office-lists.ts`: how fast the back-office lists answer with 50,000
 * rows of each record in one tenant (and a second tenant of the same size beside it).
 * Starts a throw-away embedded PostgreSQL, fills it with one INSERT ... SELECT per table,
 * VACUUM ANALYZEs, then times each list query (median of 20 runs) through the same service
 * functions the pages call, and prints the plan's top node.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbedded } from "../db/embedded";
import { closeDb, configureDb, db, one, rows } from "../db/index";
import { migrateUp } from "../db/migrate";
import { createTenantWithUsers } from "../scripts/seeds/factories";
import type { Actor } from "../app/http/auth.server";

const N = Number(process.env.BENCH_ROWS ?? 50_000);

async function fill(tenantId: string, technicianId: string) {
  await rows(
    `INSERT INTO customers (tenant_id, name, email, phone, company, city)
     SELECT $1, 'Customer ' || lpad(g::text, 6, '0'), 'c' || g || '@bench.test', '555-' || lpad(g::text, 7, '0'),
            CASE WHEN g % 7 = 0 THEN 'Company ' || g END, 'City ' || (g % 100)
       FROM generate_series(1, $2::int) g`,
    [tenantId, N],
  );
  await rows(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, assignee_id, scheduled_start)
     SELECT $1, c.id, 'Job ' || c.name || CASE WHEN row_number() OVER () % 3 = 0 THEN ' boiler' ELSE ' drain' END,
            (ARRAY['unscheduled','scheduled','in_progress','completed','completed','cancelled'])[1 + (row_number() OVER ()) % 6],
            CASE WHEN row_number() OVER () % 10 = 0 THEN $2::uuid END,
            now() + ((row_number() OVER ()) % 400 - 200) * interval '1 day'
       FROM customers c WHERE c.tenant_id = $1`,
    [tenantId, technicianId],
  );
  await rows(`UPDATE jobs SET scheduled_start = NULL WHERE tenant_id = $1 AND status = 'unscheduled'`, [tenantId]);
  for (const [table, extra] of [
    ["quotes", ", valid_until"],
    ["invoices", ", due_date"],
  ] as const) {
    await rows(
      `INSERT INTO ${table} (tenant_id, customer_id, number, status, total_cents ${extra})
       SELECT $1, c.id, '${table === "quotes" ? "Q" : "INV"}-' || lpad((row_number() OVER ())::text, 6, '0'),
              (ARRAY['draft','sent','${table === "quotes" ? "approved" : "partial"}','${table === "quotes" ? "declined" : "paid"}'])[1 + (row_number() OVER ()) % 4],
              10000, current_date + ((row_number() OVER ()) % 60 - 30)::int
         FROM customers c WHERE c.tenant_id = $1`,
      [tenantId],
    );
  }
  await rows(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, status)
     SELECT $1, c.id, 'Service for ' || c.name, (ARRAY['new','scheduled','declined','archived'])[1 + (row_number() OVER ()) % 4]
       FROM customers c WHERE c.tenant_id = $1`,
    [tenantId],
  );
}

async function timeIt(label: string, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { label, medianMs: Number(times[10].toFixed(2)), maxMs: Number(times[19].toFixed(2)) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-back-office-"));
  fs.chmodSync(dir, 0o755);
  const pg = await startEmbedded(path.join(dir, "data"), { database: "bench" });
  process.env.DATABASE_URL = pg.url;
  configureDb({ url: pg.url });
  try {
    await migrateUp(db());
    const { listCustomers } = await import("../app/services/customers/customers.server");
    const { listJobs } = await import("../app/services/records/jobs.server");
    const { listQuotes, listInvoices } = await import("../app/services/records/quotes-invoices.server");
    const { listRequests } = await import("../app/services/booking-requests/requests.server");
    const { dashboardCounts, dashboardLists } = await import("../app/services/dashboard/dashboard.server");
    const [a, b] = [await createTenantWithUsers("Bench A"), await createTenantWithUsers("Bench B")];
    console.log(`Filling ${N} rows per table in two tenants…`);
    await fill(a.id, a.users.technician.id);
    await fill(b.id, b.users.technician.id);
    // Autovacuum would get there on its own; the bench measures that steady state.
    await rows(`VACUUM ANALYZE`);
    const office: Actor = { tenantId: a.id, userId: a.users.office.id, role: "office" };
    const tech: Actor = { tenantId: a.id, userId: a.users.technician.id, role: "technician" };
    const deep = await listCustomers(office, { filter: "all" });
    let cursor = deep.nextCursor;
    for (let i = 0; i < 1000 && cursor; i++)
      cursor = (await listCustomers(office, { filter: "all", after: cursor })).nextCursor;
    const results = [
      await timeIt("customers page 1", () => listCustomers(office, { filter: "all" })),
      await timeIt("customers page 1,001 (after cursor)", () =>
        listCustomers(office, { filter: "all", after: cursor ?? undefined }),
      ),
      await timeIt("customers search 'c31337@' (1 match)", () =>
        listCustomers(office, { filter: "all", q: "c31337@" }),
      ),
      await timeIt("customers search 'company 4' (many)", () =>
        listCustomers(office, { filter: "all", q: "company 4" }),
      ),
      await timeIt("customers search 'zz' (2 letters, none)", () => listCustomers(office, { filter: "all", q: "zz" })),
      await timeIt("customers with unpaid invoices", () => listCustomers(office, { filter: "unpaid" })),
      await timeIt("jobs open", () => listJobs(office, { status: "open" })),
      await timeIt("jobs completed (newest first)", () => listJobs(office, { status: "completed" })),
      await timeIt("jobs search 'boiler'", () => listJobs(office, { status: "all", q: "boiler" })),
      await timeIt("jobs of a technician", () => listJobs(tech, { status: "all" })),
      await timeIt("quotes awaiting response", () => listQuotes(office, { status: "sent" })),
      await timeIt("quotes search 'Q-012345'", () => listQuotes(office, { status: "all", q: "Q-012345" })),
      await timeIt("quotes search 'customer' (all match)", () => listQuotes(office, { status: "all", q: "customer" })),
      await timeIt("invoices overdue", () => listInvoices(office, { status: "overdue" })),
      await timeIt("invoices search by customer 'customer 004242'", () =>
        listInvoices(office, { status: "all", q: "customer 004242" }),
      ),
      await timeIt("requests new", () => listRequests(office, { status: "new" })),
      await timeIt("dashboard counts", () => dashboardCounts(a.id)),
      await timeIt("dashboard lists", () => dashboardLists(a.id)),
    ];
    console.table(results);
    if (process.env.BENCH_EXPLAIN) {
      for (const sql of process.env.BENCH_EXPLAIN.split(";;")) {
        const plan = await rows<{ "QUERY PLAN": string }>(`EXPLAIN ANALYZE ${sql}`, [a.id]);
        console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
      }
    }
    const plan = await one<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT id FROM customers c WHERE c.tenant_id = $1 AND (c.name, c.id) > ('Customer 025000', '00000000-0000-0000-0000-000000000000'::uuid) ORDER BY c.name, c.id LIMIT 26`,
      [a.id],
    );
    console.log("Keyset plan:", plan?.["QUERY PLAN"]);
  } finally {
    await closeDb();
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
