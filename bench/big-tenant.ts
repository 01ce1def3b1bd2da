/**
 * Part two's tenant (BENCHMARKS.md "Part two"): 50,000 customers, 100,000 jobs, 100,000
 * invoices, 150,000 payments, 20,000 quotes, 30 technicians with 600 jobs in the bench week
 * (this week, Monday to Sunday, in the tenant's zone; one visit each, 100 of them with a crew of two, 50 of them the
 * week's visit of a weekly series), one technician with 500 jobs in their
 * calendar feed's range, and one invoice of 50 lines. Seeded with one set-based INSERT ...
 * SELECT generate_series per table (seconds, not minutes): ids are md5-derived from the row
 * number so each table can name the rows of another without a lookup.
 */
import pg from "pg";
import { closeDb, configureDb } from "../db/index";
import { createTenantWithUsers } from "../scripts/seeds/factories";
import { signIdToken } from "../app/utils/signed-ids.server";
import { clientFor } from "../tests/helpers/client";
import { figure, type Figure } from "./lib";

export const BIG = {
  customers: 50_000,
  jobs: 100_000,
  invoices: 100_000,
  payments: 150_000,
  quotes: 20_000,
  technicians: 30,
  weekJobsPerTechnician: 20,
  /** Week visits with a crew of two. */
  weekCrews: 100,
  /** Week jobs that repeat weekly (open-ended series, a year of visits each). */
  weekSeries: 50,
  feedJobs: 500,
  pdfLines: 50,
} as const;
const ZONE = "America/Chicago";
const WEEK_JOBS = BIG.technicians * BIG.weekJobsPerTechnician; // 600
const FEED_EXTRA = BIG.feedJobs - BIG.weekJobsPerTechnician; // 480 more of technician 1, after the bench week
const HISTORY = BIG.jobs - WEEK_JOBS - FEED_EXTRA; // every other job: in the past, mostly completed

export type BigTenant = {
  tenantId: string;
  /** Signed-in owner: cookie header, Origin and CSRF token, as a browser holds them. */
  cookie: string;
  origin: string;
  csrf: string;
  customerId: string;
  weekDate: string;
  feedPath: string;
  pdfInvoiceId: string;
  seedSeconds: number;
  counts: Record<string, number>;
};

// An id of row g of a kind, stable within the tenant: md5(tenant || kind || g) as a uuid.
const id = (kind: string, g: string) => `md5($1::uuid::text || '${kind}' || (${g})::text)::uuid`;

export async function seedBigTenant(baseUrl: string, databaseUrl: string): Promise<BigTenant> {
  process.env.DATABASE_URL = databaseUrl;
  configureDb({ url: databaseUrl });
  const started = Date.now();
  const t = await createTenantWithUsers("Bench Big Plumbing");
  // Its own connection: the app pool's 30 s statement timeout is for requests, not a bulk load.
  const client = new pg.Client({
    connectionString: databaseUrl,
    statement_timeout: 0,
    application_name: "bench:big-tenant",
  });
  await client.connect();
  try {
    return await seed(client, t, baseUrl, started);
  } finally {
    await client.end();
  }
}

async function seed(
  client: pg.Client,
  t: Awaited<ReturnType<typeof createTenantWithUsers>>,
  baseUrl: string,
  started: number,
): Promise<BigTenant> {
  // Each statement's time, so a slow seed says which table it spends on (printed at the end).
  const steps: Array<[string, number]> = [];
  const rows = async <T = Record<string, unknown>>(sql: string, bind: unknown[] = []) => {
    const t0 = performance.now();
    const result = (await client.query(sql, bind)).rows as T[];
    steps.push([/^\s*(\w+(?: \w+)?(?: INTO)? \w+)/.exec(sql)?.[1] ?? sql.slice(0, 30), performance.now() - t0]);
    return result;
  };
  if (process.env.BENCH_SEED_EXPLAIN) {
    // Every statement (triggers' too) over BENCH_SEED_EXPLAIN ms, with its plan, as notices.
    client.on("notice", (n) => console.log(n.message));
    await client.query(`LOAD 'auto_explain'`);
    await client.query(
      `SET auto_explain.log_min_duration = ${Number(process.env.BENCH_SEED_EXPLAIN)}; SET auto_explain.log_analyze = on;
       SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice`,
    );
  }
  const one = async <T = Record<string, unknown>>(sql: string, bind: unknown[] = []) => (await rows<T>(sql, bind))[0];
  // Before each bulk statement: fresh statistics and no cached plans, and no nested loops. The
  // triggers' statements (visits made from jobs, the summaries) join what a statement inserted
  // to tables whose statistics predate it: planned from "no completed visit yet", a summary's
  // join rescanned all 94,000 new visits once per visit, and foreign-key checks planned while
  // jobs held 600 rows kept that plan; either made the 100,000-job insert take many minutes.
  await client.query(`SET enable_nestloop = off`);
  const fresh = async () => {
    await client.query(`ANALYZE tenants, users, customers, jobs, visits, visit_assignees, invoices`);
    await client.query(`DISCARD PLANS`);
  };
  const tid = t.id;
  await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [tid, ZONE]);
  const clock = await one<{ today: string; week: string }>(
    `SELECT (now() AT TIME ZONE $1)::date::text AS today, date_trunc('week', (now() AT TIME ZONE $1)::date)::date::text AS week`,
    [ZONE],
  );
  const { today, week } = clock!;

  // 30 technicians, sharing the owner's password hash (no argon2 per row).
  await rows(
    `INSERT INTO users (tenant_id, id, email, name, role, password_hash)
     SELECT $1, ${id("t", "g")}, 'tech' || g || '-' || left($1::uuid::text, 8) || '@bench.test', 'Technician ' || lpad(g::text, 2, '0'), 'technician',
            (SELECT password_hash FROM users WHERE tenant_id = $1 AND id = $2)
       FROM generate_series(1, ${BIG.technicians}) g`,
    [tid, t.users.owner.id],
  );
  // Their sign-in rows (db/login-emails.ts: the app writes them with the user).
  await rows(
    `INSERT INTO login_emails (tenant_id, email, user_id) SELECT tenant_id, email, id FROM users WHERE tenant_id = $1 AND email LIKE '%@bench.test'`,
    [tid],
  );
  await rows(
    `INSERT INTO customers (tenant_id, id, name, email, phone, address_line1, city, region, postal_code, country, company)
     SELECT $1, ${id("c", "g")}, 'Customer ' || lpad(g::text, 6, '0'), 'c' || g || '@bench.test', '555-' || lpad(g::text, 7, '0'),
            g || ' Main St', 'City ' || (g % 100), 'IL', lpad((60000 + g % 1000)::text, 5, '0'), 'US', CASE WHEN g % 7 = 0 THEN 'Company ' || g END
       FROM generate_series(1, ${BIG.customers}) g`,
    [tid],
  );
  const customerOf = (g: string) => id("c", `1 + (${g}) % ${BIG.customers}`);
  const techOf = (g: string) => id("t", `1 + (${g}) % ${BIG.technicians}`);
  // Local wall clock -> instant in the tenant's zone.
  const at = (date: string, hours: string) =>
    `((${date})::timestamp + (${hours}) * interval '1 hour') AT TIME ZONE '${ZONE}'`;

  // The bench week: each technician 20 jobs, Monday..Sunday at 08:00, 11:00, 14:00 (2 hours each).
  await rows(
    `INSERT INTO jobs (tenant_id, id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end, address)
     SELECT $1, ${id("w", "g")}, ${customerOf("g * 7")}, 'Week job ' || g, 'scheduled', ${id("t", "1 + g % 30")},
            ${at(`$2::date + ((g / 30) % 7)`, `8 + 3 * ((g / 30) / 7)`)}, ${at(`$2::date + ((g / 30) % 7)`, `10 + 3 * ((g / 30) / 7)`)},
            CASE WHEN g % 3 = 0 THEN g || ' Site Rd' END
       FROM generate_series(0, ${WEEK_JOBS - 1}) g`,
    [tid, week],
  );
  // Each week job is one visit (made by the database from its time); 100 of them get a crew of
  // two: the next technician joins (so those visits show in two rows of the board).
  await rows(
    `INSERT INTO visit_assignees (tenant_id, visit_id, user_id, created_at)
     SELECT $1, v.id, ${id("t", "1 + (g + 1) % 30")}, now() + interval '1 second'
       FROM generate_series(0, ${WEEK_JOBS - 1}, ${WEEK_JOBS / BIG.weekCrews}) g
       JOIN visits v ON v.tenant_id = $1 AND v.job_id = ${id("w", "g")}`,
    [tid],
  );
  // 50 of the week's jobs repeat weekly (open-ended, a year of visits made, as the horizon worker
  // leaves them): the week's visit is the series' first, 51 more follow in the next weeks. Never
  // technician 1's (an odd g is never a multiple of 30), so the feed keeps its 500.
  await rows(
    `INSERT INTO visit_series (tenant_id, id, job_id, rule, first_local, time_zone, duration_minutes, crew, open_ended, made_until)
     SELECT $1, ${id("s", "g")}, ${id("w", "g")}, 'FREQ=WEEKLY;INTERVAL=1;BYDAY=' || (ARRAY['MO','TU','WE','TH','FR','SA','SU'])[1 + (g / 30) % 7],
            x.first, '${ZONE}', 120, ARRAY[${id("t", "1 + g % 30")}], true, x.first + interval '51 weeks'
       FROM generate_series(1, ${WEEK_JOBS - 1}, ${WEEK_JOBS / BIG.weekSeries}) g,
            LATERAL (SELECT $2::date + (g / 30) % 7 + (8 + 3 * ((g / 30) / 7)) * interval '1 hour' AS first) x`,
    [tid, week],
  );
  await rows(
    `UPDATE visits v SET series_id = s.id, occurrence = s.first_local
       FROM visit_series s WHERE s.tenant_id = $1 AND v.tenant_id = $1 AND v.job_id = s.job_id`,
    [tid],
  );
  await rows(
    `WITH v AS (
       INSERT INTO visits (tenant_id, job_id, series_id, occurrence, starts_at, ends_at)
       SELECT $1, s.job_id, s.id, o, o AT TIME ZONE s.time_zone, (o + interval '2 hours') AT TIME ZONE s.time_zone
         FROM visit_series s, generate_series(s.first_local + interval '1 week', s.made_until, interval '1 week') o
        WHERE s.tenant_id = $1
       RETURNING tenant_id, id, series_id
     )
     INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
     SELECT v.tenant_id, v.id, s.crew[1] FROM v JOIN visit_series s ON s.tenant_id = v.tenant_id AND s.id = v.series_id`,
    [tid],
  );
  // Technician 1's next 80 days after the bench week: 480 more, so their feed holds 500.
  await rows(
    `INSERT INTO jobs (tenant_id, id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end)
     SELECT $1, ${id("f", "g")}, ${customerOf("g * 11")}, 'Feed job ' || g, 'scheduled', ${id("t", "1")},
            ${at(`$2::date + 7 + g / 6`, `7 + 2 * (g % 6)`)}, ${at(`$2::date + 7 + g / 6`, `8 + 2 * (g % 6)`)}
       FROM generate_series(0, ${FEED_EXTRA - 1}) g`,
    [tid, week],
  );
  await fresh();
  // History: two years before the feed's range (over 35 days back). 1 in 20 cancelled, 1 in 20
  // waiting unscheduled, 1 in 20 on hold, the rest completed; completed job g has invoice g
  // unless g % 20 = 3 (about 5,000 completed jobs waiting to be invoiced).
  await rows(
    `INSERT INTO jobs (tenant_id, id, customer_id, title, status, assignee_id, scheduled_start, scheduled_end, completed_at, invoice_id)
     SELECT $1, ${id("j", "g")}, ${customerOf("g")}, (ARRAY['Drain cleaning', 'Water heater service', 'Leak repair', 'Boiler check'])[1 + g % 4] || ' #' || g,
            s.status, CASE WHEN s.status <> 'unscheduled' THEN ${techOf("g")} END,
            CASE WHEN s.status <> 'unscheduled' THEN s.start END, CASE WHEN s.status <> 'unscheduled' THEN s.start + interval '2 hours' END,
            CASE WHEN s.status = 'completed' THEN s.start + interval '2 hours' END,
            CASE WHEN s.status = 'completed' AND g % 20 <> 3 AND g <= ${BIG.invoices} THEN ${id("i", "g")} END
       FROM generate_series(1, ${HISTORY}) g,
            LATERAL (SELECT CASE g % 20 WHEN 0 THEN 'cancelled' WHEN 1 THEN 'unscheduled' WHEN 2 THEN 'on_hold' ELSE 'completed' END AS status,
                            ${at(`$2::date - 36 - g % 700`, `7 + g % 10`)} AS start) s`,
    [tid, today],
  );
  // Invoices: 1 in 50 draft, 1 in 50 void, 4 in 50 sent, 2 in 50 partial, the rest paid; issued over two years.
  // The job link is written on both sides here (jobs.invoice_id above), so the link trigger is off meanwhile.
  await fresh();
  await rows(`ALTER TABLE invoices DISABLE TRIGGER invoices_job_link`);
  try {
    await rows(
      `INSERT INTO invoices (tenant_id, id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents,
                             amount_paid_cents, sent_at, paid_at, job_id)
       SELECT $1, ${id("i", "g")}, ${customerOf("g")}, 'BINV-' || lpad(g::text, 6, '0'), s.status, s.issued, s.issued + 14, 'USD', s.total, 0, s.total,
              CASE s.status WHEN 'paid' THEN s.total WHEN 'partial' THEN s.total / 2 ELSE 0 END,
              CASE WHEN s.status <> 'draft' THEN s.issued::timestamp AT TIME ZONE '${ZONE}' END,
              CASE WHEN s.status = 'paid' THEN (s.issued + 10)::timestamp AT TIME ZONE '${ZONE}' END,
              CASE WHEN g <= ${HISTORY} AND g % 20 >= 3 AND g % 20 <> 3 THEN ${id("j", "g")} END
         FROM generate_series(1, ${BIG.invoices}) g,
              LATERAL (SELECT CASE g % 50 WHEN 0 THEN 'draft' WHEN 1 THEN 'void' WHEN 2 THEN 'sent' WHEN 3 THEN 'sent' WHEN 4 THEN 'sent'
                                         WHEN 5 THEN 'sent' WHEN 6 THEN 'partial' WHEN 7 THEN 'partial' ELSE 'paid' END AS status,
                              $2::date - g % 730 AS issued, (10000 + (g % 97) * 1000)::bigint AS total) s`,
      [tid, today],
    );
  } finally {
    await rows(`ALTER TABLE invoices ENABLE TRIGGER invoices_job_link`);
  }
  await fresh();
  // Payments: invoice k = 1 + (p - 1) % 100,000 (the first 50,000 get two), received 0-19 days after issue.
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, received_on, recorded_at)
     SELECT $1, ${id("i", "k")}, 5000 + (p % 40) * 100, 'USD', (ARRAY['check', 'card', 'cash', 'bank_transfer'])[1 + p % 4], 'bench',
            r.day, (r.day::timestamp + interval '12 hours') AT TIME ZONE '${ZONE}'
       FROM generate_series(1, ${BIG.payments}) p,
            LATERAL (SELECT 1 + (p - 1) % ${BIG.invoices} AS k) x,
            LATERAL (SELECT least($2::date, $2::date - x.k % 730 + p % 20) AS day) r`,
    [tid, today],
  );
  await rows(
    `INSERT INTO quotes (tenant_id, id, customer_id, number, title, status, issue_date, valid_until, currency, subtotal_cents, total_cents, sent_at, approved_at)
     SELECT $1, ${id("q", "g")}, ${customerOf("g * 3")}, 'BQ-' || lpad(g::text, 6, '0'), 'Quote ' || g, s.status, s.issued, s.issued + 30, 'USD', 25000, 25000,
            CASE WHEN s.status <> 'draft' THEN s.issued::timestamp AT TIME ZONE '${ZONE}' END,
            CASE WHEN s.status = 'approved' THEN (s.issued + 3)::timestamp AT TIME ZONE '${ZONE}' END
       FROM generate_series(1, ${BIG.quotes}) g,
            LATERAL (SELECT (ARRAY['draft', 'sent', 'approved', 'approved', 'declined'])[1 + g % 5] AS status, $2::date - g % 400 AS issued) s`,
    [tid, today],
  );
  await rows(
    `INSERT INTO price_book_items (tenant_id, kind, name, unit_price_cents, tax_rate)
     SELECT $1, CASE WHEN g % 3 = 0 THEN 'product' ELSE 'service' END, 'Price book item ' || lpad(g::text, 3, '0'), 1000 * g, CASE WHEN g % 3 = 0 THEN 8.25 ELSE 0 END
       FROM generate_series(1, 200) g`,
    [tid],
  );
  // The invoice PDF's invoice: 50 lines.
  const pdf = await one<{ id: string }>(
    `INSERT INTO invoices (tenant_id, customer_id, number, status, issue_date, due_date, currency, subtotal_cents, tax_cents, total_cents, sent_at)
     VALUES ($1, ${id("c", "1")}, 'BINV-PDF-50', 'sent', $2::date, $2::date + 14, 'USD', ${BIG.pdfLines * 12_500}, 0, ${BIG.pdfLines * 12_500}, now())
     RETURNING id`,
    [tid, today],
  );
  await rows(
    `INSERT INTO invoice_items (tenant_id, invoice_id, position, description, quantity, unit_price_cents, tax_rate, line_total_cents, tax_cents)
     SELECT $1, $2, g, 'Line ' || g || ': labour and parts for the ' || (ARRAY['kitchen', 'basement', 'attic', 'garage', 'bathroom'])[1 + g % 5], 1, 12500, 0, 12500, 0
       FROM generate_series(1, ${BIG.pdfLines}) g`,
    [tid, pdf!.id],
  );
  // Technician 1's calendar feed.
  const feed = await one<{ id: string }>(
    `INSERT INTO calendar_feeds (tenant_id, user_id, created_by) VALUES ($1, ${id("t", "1")}, $2) RETURNING id`,
    [tid, t.users.owner.id],
  );
  for (const table of [
    "customers",
    "jobs",
    "invoices",
    "payments",
    "quotes",
    "users",
    "invoice_items",
    "price_book_items",
  ])
    await rows(`VACUUM ANALYZE ${table}`);

  const counts: Record<string, number> = {};
  for (const table of ["customers", "jobs", "invoices", "payments", "quotes"]) {
    counts[table] = Number(
      (await one<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [tid]))!.n,
    );
  }
  const inWeek = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1 AND scheduled_start >= ($2::date::timestamp AT TIME ZONE '${ZONE}') AND scheduled_start < (($2::date + 7)::timestamp AT TIME ZONE '${ZONE}')`,
    [tid, week],
  );
  const inFeed = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE tenant_id = $1 AND assignee_id = ${id("t", "1")} AND scheduled_start >= now() - interval '30 days' AND scheduled_start < now() + interval '90 days'`,
    [tid],
  );
  counts.weekJobs = inWeek!.n;
  counts.weekSeries = Number(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM visit_series WHERE tenant_id = $1`, [tid]))!.n,
  );
  counts.feedJobs = inFeed!.n;
  const seedSeconds = (Date.now() - started) / 1000;
  console.log(
    `  seed steps (s): ${steps
      .filter(([, ms]) => ms >= 100)
      .map(([what, ms]) => `${what} ${(ms / 1000).toFixed(1)}`)
      .join(", ")}`,
  );

  const owner = await clientFor(t.users.owner, baseUrl, { production: true });
  const check = await owner.get("/");
  if (check.status !== 200) throw new Error(`the big tenant's owner is not signed in (GET / answered ${check.status})`);
  const csrf = await owner.csrf();
  const customerId = (await one<{ id: string }>(`SELECT ${id("c", "1")} AS id`, [tid]))!.id;
  await closeDb();
  return {
    tenantId: tid,
    cookie: owner.cookieHeader(),
    origin: baseUrl,
    csrf,
    customerId,
    weekDate: today,
    feedPath: `/calendar/${signIdToken("calendar", tid, feed!.id)}.ics`,
    pdfInvoiceId: pdf!.id,
    seedSeconds,
    counts,
  };
}

/** The big tenant's seed as figures: its time and its rows. */
export function seedFigures(big: BigTenant): Figure[] {
  return [
    figure("P2 big tenant seed (set-based SQL)", big.seedSeconds, "s", "measured", null),
    ...Object.entries(big.counts).map(([k, v]) => figure(`P2 big tenant ${k}`, v, "rows", "measured", null)),
  ];
}
