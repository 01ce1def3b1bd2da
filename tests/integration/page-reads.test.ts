// The big firm's pages read what they show, not the tenant's history: plans of their queries on
// a tenant with thousands of records, judged by the rows each plan reads (never by time).
import assert from "node:assert/strict";
import { before, test } from "node:test";
import pg from "pg";
import { db, one, rows } from "../../db/index";
import { VISITS_TO_INVOICE_SQL } from "../../app/services/jobs/items.server";
import {
  DASHBOARD_COUNTS_SQL,
  DASHBOARD_LISTS_SQL,
  DASHBOARD_KEPT_FIGURES,
  dashboardCounts,
  dashboardLists,
} from "../../app/services/dashboard/dashboard.server";
import {
  forgetKeptBoards,
  scheduleBoard,
  UNSCHEDULED_LIMIT,
  waitingJobsWhere,
} from "../../app/services/schedule/board.server";
import { zonedToday, zonedToUtc } from "../../app/services/jobs/local-time";
import { addDays, weekStart } from "../../app/services/schedule/days";
import { PERSON_WEEK_VISITS_SQL, personWeekVisitsBind } from "../../app/services/timesheets/timesheets.server";
import { createCustomer, createJob, createTenantWithUsers, type TestTenant } from "../helpers/fixtures";
import { planReads } from "../helpers/plans";

const JOBS = 3_000;
let A: TestTenant;

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
  await rows(`ANALYZE visit_assignees`);
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

test("the dashboard asks the database twice (its counts, its lists), and its counts compute the tenant's day once", async () => {
  // docs/decisions/470-a-short-wait-for-a-heavy-page-and-a-cheaper-dashboard.md
  const { scans } = await planReads(A.id, DASHBOARD_COUNTS_SQL, [A.id, DASHBOARD_KEPT_FIGURES]);
  assert.equal(scans.filter((t) => t === "tenants").length, 1, "the tenant's day is computed once");
  const sent: string[] = [];
  const count = (sql: unknown) => void sent.push(String((sql as { query?: string })?.query ?? sql).slice(0, 40));
  db().addHook("beforeQuery", "dashboard-statements", (_options, query) => count(query));
  try {
    const [counts, lists] = await Promise.all([dashboardCounts(A.id), dashboardLists(A.id)]);
    assert.equal(counts.jobsToInvoice, JOBS);
    assert.deepEqual(lists.visitsToBill, []);
  } finally {
    db().removeHook("beforeQuery", "dashboard-statements");
  }
  // Two transactions, each its opening, one statement and its commit.
  assert.ok(sent.length >= 2, "the statements were counted");
  assert.ok(sent.length <= 6, `${sent.length} statements: ${sent.join(" | ")}`);
});

test("the dashboard's counts read no customer, no job, no open invoice and no approved quote: those are kept figures, the quotes awaiting their index", async () => {
  // docs/decisions/480-dashboard-counts-kept-or-indexed.md, 515-the-dashboards-counts-all-kept.md
  const C = await createTenantWithUsers("Counted customers plumbing");
  await rows(`INSERT INTO customers (tenant_id, name) SELECT $1, 'Customer ' || g FROM generate_series(1, 2000) g`, [
    C.id,
  ]);
  const customer = await one<{ id: string }>(`SELECT id FROM customers WHERE tenant_id = $1 LIMIT 1`, [C.id]);
  // 400 open invoices of $1.00 over four due dates: yesterday, two and three days ago (overdue), today (not).
  await rows(
    `INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, sent_at)
     SELECT $1, $2, 'INV-' || g, 'sent', d - 14, d, 'USD', 100, 0, 100, now()
       FROM generate_series(1, 400) g, LATERAL (SELECT (now() AT TIME ZONE t.time_zone)::date - g % 4 AS d FROM tenants t WHERE t.id = $1) x`,
    [C.id, customer!.id],
  );
  await rows(
    `INSERT INTO quotes (tenant_id, customer_id, number, status, valid_until, sent_at)
     SELECT $1, $2, 'Q-' || g, 'sent', CASE WHEN g % 3 = 0 THEN NULL ELSE current_date + (g % 5 - 2) END, now()
       FROM generate_series(1, 300) g`,
    [C.id, customer!.id],
  );
  // Open work: 300 jobs waiting, 200 done and not invoiced, 100 cancelled; 200 quotes approved, not converted.
  await rows(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, completed_at)
     SELECT $1, $2, 'Job ' || g, s, CASE WHEN s = 'completed' THEN now() END
       FROM generate_series(1, 600) g, LATERAL (SELECT CASE WHEN g <= 300 THEN 'unscheduled' WHEN g <= 500 THEN 'completed' ELSE 'cancelled' END AS s) x`,
    [C.id, customer!.id],
  );
  await rows(
    `INSERT INTO quotes (tenant_id, customer_id, number, status, sent_at, approved_at)
     SELECT $1, $2, 'QA-' || g, 'approved', now(), now() FROM generate_series(1, 200) g`,
    [C.id, customer!.id],
  );
  await rows(`ANALYZE quotes`);
  const counts = await dashboardCounts(C.id);
  assert.equal(counts.customers, 2000);
  assert.equal(counts.unscheduledJobs, 300);
  assert.equal(counts.openJobs, 300);
  assert.equal(counts.jobsToInvoice, 200);
  assert.equal(counts.quotesToSchedule, 200);
  assert.equal(counts.overdueInvoices, 300);
  assert.equal(counts.unpaidTotal, "$400.00");
  const awaiting = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM quotes q JOIN tenants t ON t.id = q.tenant_id
      WHERE q.tenant_id = $1 AND q.status = 'sent' AND (q.valid_until IS NULL OR q.valid_until >= (now() AT TIME ZONE t.time_zone)::date)`,
    [C.id],
  );
  assert.equal(counts.quotesAwaiting, awaiting!.n);
  assert.ok(awaiting!.n > 0 && awaiting!.n < 300, `${awaiting!.n} of the 300 sent quotes await a response`);
  const { byTable, nodes } = await planReads(C.id, DASHBOARD_COUNTS_SQL, [C.id, DASHBOARD_KEPT_FIGURES], {
    asOnBigTables: true,
    asApp: true,
  });
  assert.equal(byTable.customers, undefined, `no customer read: ${nodes.join(", ")}`);
  assert.equal(byTable.jobs, undefined, `no job read: ${nodes.join(", ")}`);
  assert.equal(byTable.invoice_balances, undefined, `no open invoice's balance read: ${nodes.join(", ")}`);
  assert.ok(byTable.summary_deltas! <= 40, `read ${byTable.summary_deltas} kept figures' rows`);
  // The quotes read are those awaiting, not every sent quote nor the approved ones.
  assert.equal(byTable.quotes, awaiting!.n, `read ${byTable.quotes} quotes: ${nodes.join(", ")}`);
});

test("the dashboard's next jobs read the jobs from today on, not every past job, under row-level security", async () => {
  const upcoming = await createJob(A.id, {
    customerId: (await one<{ id: string }>(`SELECT id FROM customers WHERE tenant_id = $1 LIMIT 1`, [A.id]))!.id,
    title: "Tomorrow's job",
    scheduledStart: new Date(Date.now() + 86_400_000),
  });
  const lists = await dashboardLists(A.id);
  assert.deepEqual(
    lists.upcomingJobs.map((j) => j.id),
    [upcoming.id],
  );
  const { byTable } = await planReads(A.id, DASHBOARD_LISTS_SQL, [A.id, 10], { asOnBigTables: true, asApp: true });
  assert.ok((byTable.jobs ?? 0) <= 20, `read ${byTable.jobs} jobs of ${JOBS + 1} for the next ones`);
});

test("a person's timesheet week reads the visits of that week, not the tenant's visits before it", async () => {
  // A week ten days back: the tenant has thousands of the technician's visits before it.
  const weekStart = new Date(Date.now() - 10 * 86_400_000);
  const weekEnd = new Date(weekStart.getTime() + 7 * 86_400_000);
  const before = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM visits WHERE tenant_id = $1 AND starts_at < $2`,
    [A.id, weekStart],
  );
  assert.ok(before!.n >= 2_000, `the tenant has ${before!.n} visits before the week`);
  const bind = personWeekVisitsBind(A.id, A.users.technician.id, weekStart.getTime(), weekEnd.getTime());
  const shown = await rows(PERSON_WEEK_VISITS_SQL, bind);
  assert.ok(shown.length >= 40, `the week shows ${shown.length} of the technician's visits`);
  // The visits and the assignees grow with the tenant's history; how the few jobs are joined is
  // the planner's choice at this size.
  const { byTable } = await planReads(A.id, PERSON_WEEK_VISITS_SQL, bind, { asOnBigTables: true });
  const history = (byTable.visits ?? 0) + (byTable.visit_assignees ?? 0);
  assert.ok(history <= 4 * shown.length, `read ${JSON.stringify(byTable)} to show ${shown.length} visits`);
});

test("the board's unscheduled list reads its 100 oldest waiting jobs and counts them from the waiting jobs' index", async () => {
  const B = await createTenantWithUsers("Waiting jobs plumbing");
  const customer = await createCustomer(B.id);
  // Thousands of waiting jobs and thousands of finished ones without a start.
  await rows(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, created_at)
     SELECT $1, $2, 'Job ' || g, CASE WHEN g % 2 = 0 THEN 'unscheduled' ELSE 'cancelled' END, now() - g * interval '1 minute'
       FROM generate_series(1, 6000) g`,
    [B.id, customer.id],
  );
  await rows(`ANALYZE jobs`);
  const oldest = `SELECT j.id FROM jobs j WHERE ${waitingJobsWhere()} ORDER BY j.created_at, j.id LIMIT 100`;
  assert.equal((await rows(oldest, [B.id])).length, 100);
  const first = await planReads(B.id, oldest, [B.id], { asOnBigTables: true });
  assert.ok(first.read <= 100, `read ${first.read} jobs for the 100 oldest waiting`);
  const count = `SELECT count(*)::int AS n FROM jobs j WHERE ${waitingJobsWhere()}`;
  assert.equal((await one<{ n: number }>(count, [B.id]))!.n, 3000);
  const counted = await planReads(B.id, count, [B.id], { asOnBigTables: true });
  assert.ok(
    counted.read <= 3000,
    `read ${counted.read} jobs to count 3,000 waiting (not the finished ones) ${JSON.stringify(counted.nodes)}`,
  );
});

test("the week board asks the database twice: the week's visits, then everything beside them", async () => {
  // docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md
  const B = await createTenantWithUsers("Board statements plumbing");
  const customer = await createCustomer(B.id);
  const zone = "America/Chicago";
  const monday = weekStart(zonedToday(zone));
  const tech = B.users.technician;
  // A full unscheduled list (its count is then read from the index) and a visit a day.
  await rows(
    `INSERT INTO jobs (tenant_id, customer_id, title, status, assignee_id, created_at)
     SELECT $1, $2, 'Waiting ' || g, 'unscheduled', CASE WHEN g % 2 = 0 THEN $3::uuid END, now() - g * interval '1 minute'
       FROM generate_series(1, 250) g`,
    [B.id, customer.id, tech.id],
  );
  for (let d = 0; d < 3; d++)
    await createJob(B.id, {
      customerId: customer.id,
      assigneeId: tech.id,
      title: `Visit ${d}`,
      scheduledStart: zonedToUtc(`${addDays(monday, d)}T09:00`, zone),
    });
  const sent: string[] = [];
  db().addHook(
    "beforeQuery",
    "board-statements",
    (_options, query) => void sent.push(String((query as { query?: string })?.query ?? query).slice(0, 40)),
  );
  try {
    for (const [user, waiting, total] of [
      [B.users.office, UNSCHEDULED_LIMIT, 250],
      [tech, UNSCHEDULED_LIMIT, 125],
    ] as const) {
      sent.length = 0;
      const board = await scheduleBoard(
        { tenantId: B.id, userId: user.id, role: user.role },
        { view: "week", date: monday },
        zone,
      );
      assert.equal(board.visits.length, 3);
      assert.deepEqual(board.visits[0].crew, [tech.id]);
      assert.equal(board.visits[0].start, `${monday}T09:00`);
      assert.equal(board.unscheduled.length, waiting);
      assert.equal(board.unscheduledTotal, total);
      assert.equal(board.unscheduled[0].title, "Waiting 250", "the oldest first");
      assert.ok(board.members.some((m) => m.id === tech.id));
      // The transaction's opening, the visits, the rest beside them, the commit.
      assert.ok(sent.length <= 4, `${sent.length} statements: ${sent.join(" | ")}`);
    }
  } finally {
    db().removeHook("beforeQuery", "board-statements");
  }
});

test("the week board keeps its visits until a write: a repeated view asks no visits, and every kind of write shows on the next", async () => {
  // docs/decisions/501-the-board-keeps-its-visits-until-a-write.md. The writes below go straight
  // to the database (as another app server's would): only the version read with the view says so.
  forgetKeptBoards();
  const B = await createTenantWithUsers("Board kept plumbing");
  const zone = "America/Chicago";
  const monday = weekStart(zonedToday(zone));
  const tech = B.users.technician;
  const customer = await createCustomer(B.id, { name: "Rosa Marquez" });
  const jobs: Array<{ id: string }> = [];
  for (let d = 0; d < 3; d++)
    jobs.push(
      await createJob(B.id, {
        customerId: customer.id,
        assigneeId: tech.id,
        title: `Visit ${d}`,
        scheduledStart: zonedToUtc(`${addDays(monday, d)}T09:00`, zone),
      }),
    );
  const [visit] = await rows<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    B.id,
    jobs[0].id,
  ]);
  const sent: string[] = [];
  // After each statement, its text (a query's SQL is set as it runs).
  db().addHook(
    "afterQuery",
    "board-kept",
    (_options, query) => void sent.push(String((query as { sql?: string }).sql)),
  );
  const visitsRead = () => sent.filter((q) => q.includes("FROM visits v JOIN jobs j")).length;
  const office = { tenantId: B.id, userId: B.users.office.id, role: B.users.office.role };
  const view = async () => {
    sent.length = 0;
    return scheduleBoard(office, { view: "week", date: monday }, zone);
  };
  const first = (b: Awaited<ReturnType<typeof view>>) => b.visits.find((v) => v.visitId === visit.id);
  try {
    assert.equal((await view()).visits.length, 3);
    assert.equal(visitsRead(), 1);
    const again = await view();
    assert.equal(visitsRead(), 0, "the repeated view reads no visits");
    assert.ok(sent.length <= 3, `${sent.length} statements: ${sent.map((q) => q.slice(0, 40)).join(" | ")}`);
    assert.equal(again.visits.length, 3);
    assert.equal(first(again)!.title, "Visit 0");

    const writes: Array<[string, () => Promise<unknown>, (b: Awaited<ReturnType<typeof view>>) => void]> = [
      [
        "a visit moved",
        // The new times are computed here: Citus runs no STABLE function (timestamptz + interval)
        // on a column in an UPDATE.
        async () => {
          const at = (await one<{ s: Date; e: Date | null }>(
            `SELECT starts_at AS s, ends_at AS e FROM visits WHERE tenant_id = $1 AND id = $2`,
            [B.id, visit.id],
          ))!;
          const later = (d: Date | null) => (d ? new Date(d.getTime() + 3_600_000) : null);
          return rows(`UPDATE visits SET starts_at = $3, ends_at = $4 WHERE tenant_id = $1 AND id = $2`, [
            B.id,
            visit.id,
            later(at.s),
            later(at.e),
          ]);
        },
        (b) => assert.equal(first(b)!.start, `${monday}T10:00`),
      ],
      [
        "a visit's status",
        () => rows(`UPDATE visits SET status = 'in_progress' WHERE tenant_id = $1 AND id = $2`, [B.id, visit.id]),
        (b) => assert.equal(first(b)!.status, "in_progress"),
      ],
      [
        "the crew",
        () =>
          rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
            B.id,
            visit.id,
            B.users.office.id,
          ]),
        (b) => assert.deepEqual(first(b)!.crew, [tech.id, B.users.office.id]),
      ],
      [
        "a job's title",
        () => rows(`UPDATE jobs SET title = 'Boiler service' WHERE tenant_id = $1 AND id = $2`, [B.id, jobs[0].id]),
        (b) => assert.equal(first(b)!.title, "Boiler service"),
      ],
      [
        "a customer's name",
        () =>
          rows(`UPDATE customers SET name = 'Rosa Marquez-Lee' WHERE tenant_id = $1 AND id = $2`, [B.id, customer.id]),
        (b) => assert.ok(b.visits.every((v) => v.customerName === "Rosa Marquez-Lee")),
      ],
      [
        "a job's clock",
        () =>
          rows(`INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at) VALUES ($1, $2, $3, now())`, [
            B.id,
            jobs[0].id,
            tech.id,
          ]),
        (b) => assert.ok(first(b)!.clock),
      ],
      [
        "a user's name",
        () => rows(`UPDATE users SET name = 'Dana Okafor' WHERE tenant_id = $1 AND id = $2`, [B.id, tech.id]),
        (b) => assert.equal(b.members.find((m) => m.id === tech.id)!.name, "Dana Okafor"),
      ],
      [
        "a visit added",
        () =>
          createJob(B.id, {
            customerId: customer.id,
            assigneeId: tech.id,
            title: "Visit 3",
            scheduledStart: zonedToUtc(`${addDays(monday, 4)}T09:00`, zone),
          }),
        (b) => assert.equal(b.visits.length, 4),
      ],
      [
        "a visit deleted",
        () => rows(`DELETE FROM visits WHERE tenant_id = $1 AND id = $2`, [B.id, visit.id]),
        (b) => assert.equal(first(b), undefined),
      ],
    ];
    for (const [what, write, shows] of writes) {
      await write();
      shows(await view());
      await view();
      assert.equal(visitsRead(), 0, `kept again after ${what}`);
    }

    // A write still open while a view keeps its read is seen once it commits: the version the
    // view kept does not count it, the next view's does.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE jobs SET title = 'Late rename' WHERE tenant_id = $1 AND id = $2`, [B.id, jobs[1].id]);
      const during = await view();
      assert.equal(during.visits.find((v) => v.jobId === jobs[1].id)!.title, "Visit 1");
      await other.query("COMMIT");
    } finally {
      await other.end();
    }
    assert.equal((await view()).visits.find((v) => v.jobId === jobs[1].id)!.title, "Late rename");
  } finally {
    db().removeHook("afterQuery", "board-kept");
  }
});
