/**
 * Timesheets (docs/decisions/385-timesheets.md): the team's week on the big tenant of
 * bench/big-tenant.ts (30 technicians, 600 visits in the bench week, 100 crews), with a time
 * entry per crew member and visit for the past year (travel before "Start work", one break in
 * five), and every visit of the bench week clocked. Figures: `GET /timesheets?week=` p50 alone
 * (goal <= 40 ms), p99 at 20 connections (goal <= 100 ms), throughput and CPU per request,
 * beside a person's week and the payroll CSV (p50 alone).
 * `BENCH_ONLY=TIMESHEETS npm run bench` runs this part alone (writes bench/results/timesheets.json).
 */
import os from "node:os";
import pg from "pg";
import { figure, p50Alone, round, type Figure } from "./lib";
import { pageFigure } from "./http";
import type { RunningServer } from "../tests/helpers/server";
import type { BigTenant } from "./big-tenant";
import { measureTarget } from "./part-two";

/** A year of clocked visits (to the end of the bench week): one entry per crew member, breaks between. */
export async function seedTimesheets(databaseUrl: string, big: BigTenant): Promise<number> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    statement_timeout: 0,
    application_name: "bench:timesheets",
  });
  await client.connect();
  try {
    await client.query(`SELECT set_config('app.tenant_id', $1, false)`, [big.tenantId]);
    await client.query(
      `INSERT INTO time_entries (tenant_id, job_id, visit_id, user_id, started_at, on_site_at, ended_at, kind)
       SELECT v.tenant_id, v.job_id, v.id, a.user_id, v.starts_at - interval '30 minutes', v.starts_at,
              coalesce(v.ends_at, v.starts_at + interval '2 hours'), 'work'
         FROM visits v JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
        WHERE v.tenant_id = $1 AND v.status <> 'cancelled'
          AND v.starts_at >= $2::date - 365 AND v.starts_at < $2::date + 8
          AND coalesce(v.ends_at, v.starts_at + interval '2 hours') - v.starts_at <= interval '23 hours'`,
      [big.tenantId, big.weekDate],
    );
    await client.query(
      `INSERT INTO time_entries (tenant_id, job_id, visit_id, user_id, started_at, ended_at, kind)
       SELECT e.tenant_id, e.job_id, e.visit_id, e.user_id, e.ended_at, e.ended_at + interval '20 minutes', 'break'
         FROM time_entries e WHERE e.tenant_id = $1 AND e.kind = 'work' AND hashtext(e.id::text) % 5 = 0`,
      [big.tenantId],
    );
    await client.query(`ANALYZE time_entries`);
    const n = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM time_entries WHERE tenant_id = $1`, [
      big.tenantId,
    ]);
    return n.rows[0]!.n;
  } finally {
    await client.end();
  }
}

export async function benchTimesheets(
  server: RunningServer,
  databaseUrl: string,
  floorRps: number,
  big: BigTenant,
): Promise<Figure[]> {
  const base = server.url;
  const out: Figure[] = [];
  const entries = await seedTimesheets(databaseUrl, big);
  out.push(figure("TS time entries of the big tenant (a year)", entries, "rows", "measured", null));
  const headers = { cookie: big.cookie };
  const team = await fetch(`${base}/timesheets?week=${big.weekDate}`, { headers, redirect: "manual" });
  const html = await team.text();
  if (team.status !== 200 || !/Technician 30/.test(html)) throw new Error(`GET /timesheets answered ${team.status}`);
  const person = /href="(\/timesheets\?userId=[^"&]+)/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  // The team's week is a page of the business day: the four figures of every page.
  out.push(
    ...(await measureTarget(
      server,
      big,
      { name: TEAM_WEEK, path: `/timesheets?week=${big.weekDate}`, connections: 20, p99: 100, alone: 40 },
      floorRps,
    )),
  );
  const targets: Array<[string, string]> = [
    ["TS GET /timesheets?userId=&week= (a technician's week)", `${person}&week=${big.weekDate}`],
    ["TS GET /timesheets/export.csv?week=", `/timesheets/export.csv?week=${big.weekDate}`],
  ];
  for (const [name, path] of targets) {
    const load = os.loadavg()[0];
    const alone = await p50Alone(`${base}${path}`, { headers });
    console.log(`  ${name}: p50 alone ${alone} ms (load ${round(load, 1)} before, ${round(os.loadavg()[0], 1)} after)`);
    out.push(pageFigure(`${name} p50 alone`, alone, "ms", floorRps));
  }
  out.push(figure("TS load average (1 min) at the end", round(os.loadavg()[0], 2), "", "measured", null));
  return out;
}

/** The team week's page figure name (bench/parts.ts names it as a row of BENCHMARKS.md part three). */
export const TEAM_WEEK = "TS GET /timesheets?week= (team week, 30 technicians)";
