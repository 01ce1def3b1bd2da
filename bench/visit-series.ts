/**
 * Recurring visits (docs/decisions/315-recurring-visits.md), measured in-process against a fresh
 * PostgreSQL (the service calls the job form's action makes, without HTTP):
 *
 * - a 5-year weekly series created (the job and its 261 visits, one transaction): goal <= 50 ms,
 *   median of 20 after 3 warm-ups;
 * - the horizon worker extending 10,000 open-ended weekly series (10 tenants x 1,000) by a month
 *   (about 44,000 visits): goal <= 10 s.
 *
 * `npx tsx bench/visit-series.ts`; writes bench/results/visits.json.
 *
 * Runs (2026-11-27, a 2-core machine shared with about six other sessions): before
 * docs/decisions/395-visit-speed.md, 329 ms median for the 5-year series and 250 s for the
 * horizon run (load average 7-22); after it, 421.59 ms and 74.94 s (load average 15.0 at the
 * start, 27.9 at the end). Both goals are still missed on this machine; see the decision for
 * where the time goes.
 *
 * docs/decisions/425-visit-inserts.md (summaries triggers read their transition tables, two
 * redundant key checks per row gone, the job's row follows without scanning the tenant, two
 * worker transactions at once), 2026-11-27 on the same machine: horizon 15.57 s before (load
 * average 8.7 at the start, 9.3 at the end) and 13.85 s after (14.8 / 15.6); 5-year series,
 * runs of main and of the change alternated (BENCH_HORIZON_TENANTS=0): 158.61 / 158.21 ms at
 * load 13.2 / 12.1, 231.36 / 189.67 ms at 12.4 / 13.0. At this load a one-off job's creation
 * alone takes 35-90 ms; the series' insert is about 0.2 ms a visit with its crew row.
 */
import { closeDb, configureDb, inTenant, rows } from "../db/index";
import { createJob } from "../app/services/jobs/jobs.server";
import { extendAllSeries, horizonOf } from "../app/services/visits/series.server";
import { createCustomer, createTenantWithUsers } from "../scripts/seeds/factories";
import { benchDatabase, figure, printTable, round, writeResults, type Figure } from "./lib";

const DAY = 86_400_000;

export async function benchVisitSeries(databaseUrl: string): Promise<Figure[]> {
  configureDb({ url: databaseUrl });
  const t = await createTenantWithUsers("Series bench");
  await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
  const customer = await createCustomer(t.id, { name: "Bench customer" });
  const actor = { tenantId: t.id, userId: t.users.office.id, role: "office" as const };
  const first = new Date(Date.now() + 7 * DAY).toISOString().slice(0, 10);
  const endsOn = `${Number(first.slice(0, 4)) + 5}${first.slice(4)}`;
  const times: number[] = [];
  for (let i = 0; i < 23; i++) {
    const started = performance.now();
    await createJob(actor, {
      customerId: customer.id,
      title: `Weekly service ${i}`,
      scheduledStart: `${first}T09:00`,
      scheduledEnd: `${first}T10:00`,
      assigneeId: t.users.technician.id,
      repeat: "weekly",
      endsOn,
    });
    if (i >= 3) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const made = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM visits v JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
      WHERE j.tenant_id = $1 AND j.title = 'Weekly service 3'`,
    [t.id],
  );
  console.log(
    `  5-year weekly series: ${made[0]!.n} visits; median ${round(median)} ms, max ${round(times.at(-1)!)} ms`,
  );

  // 10,000 open-ended weekly series, made up to today's horizon (BENCH_HORIZON_TENANTS x 1,000;
  // 10 by default).
  const now = new Date();
  const horizon = horizonOf(now, "America/Chicago");
  const tenants = Number(process.env.BENCH_HORIZON_TENANTS ?? 10);
  for (let k = 0; k < tenants; k++) {
    const tenant = await createTenantWithUsers(`Horizon bench ${k}`);
    const c = await createCustomer(tenant.id, { name: "Horizon customer" });
    await rows(
      `WITH j AS (
         INSERT INTO jobs (tenant_id, customer_id, title, status)
         SELECT $1, $2, 'Weekly ' || g, 'scheduled' FROM generate_series(1, 1000) g RETURNING tenant_id, id
       )
       INSERT INTO visit_series (tenant_id, job_id, rule, first_local, time_zone, duration_minutes, crew, open_ended, made_until)
       SELECT j.tenant_id, j.id, 'FREQ=WEEKLY;INTERVAL=1;BYDAY=' || (ARRAY['MO','TU','WE','TH','FR'])[1 + (row_number() OVER () % 5)],
              $3::timestamp, 'America/Chicago', 60, ARRAY[$4::uuid], true, $5::timestamp
         FROM j`,
      [
        tenant.id,
        c.id,
        `${now.toISOString().slice(0, 10)} 09:00`,
        tenant.users.technician.id,
        horizon.replace("T", " "),
      ],
    );
    // The series' visits so far (weekly at 09:00 from today up to the horizon), as the worker
    // left them: the extension continues from the latest. The jobs' rows need not follow here.
    await inTenant(tenant.id, async (tx) => {
      await rows(`SELECT set_config('app.visit_sync', 'on', true)`, [], tx);
      await rows(
        `INSERT INTO visits (tenant_id, job_id, series_id, occurrence, starts_at, ends_at)
         SELECT s.tenant_id, s.job_id, s.id, o, o AT TIME ZONE s.time_zone, (o + interval '1 hour') AT TIME ZONE s.time_zone
           FROM visit_series s
           CROSS JOIN LATERAL (SELECT s.first_local::date + (array_position(ARRAY['SU','MO','TU','WE','TH','FR','SA'], right(s.rule, 2)) - 1
                                      - extract(dow FROM s.first_local)::int + 7) % 7 AS d0) x
           CROSS JOIN LATERAL generate_series(x.d0 + time '09:00', s.made_until, interval '1 week') o
          WHERE s.tenant_id = $1`,
        [tenant.id],
        tx,
      );
    });
  }
  await rows(`ANALYZE visit_series; ANALYZE visits;`);
  const started = performance.now();
  const figures = await extendAllSeries(new Date(now.getTime() + 31 * DAY));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  horizon: ${figures.series} series of ${figures.tenants} tenants extended by a month, ${figures.visits} visits, ${round(seconds, 2)} s`,
  );
  await closeDb();
  return [
    figure("5-year weekly series created (median)", median, "ms", "<= 50 ms", median <= 50),
    figure("horizon worker: 10,000 series by a month", seconds, "s", "<= 10 s", seconds <= 10),
  ];
}

if (process.argv[1]?.endsWith("visit-series.ts")) {
  const started = Date.now();
  const database = await benchDatabase();
  try {
    const figures = await benchVisitSeries(database.url);
    printTable(figures);
    writeResults("visits.json", figures, { postgres: database.version, started });
  } finally {
    await database.stop();
  }
  process.exit(0);
}
