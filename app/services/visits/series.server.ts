import { hostname } from "node:os";
import { inSystem, inTenant, one, rows, type Tx } from "../../../db/index";
import { conflict, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { recordHistory } from "~/services/history/history.server";
import { utcToZoned } from "~/services/jobs/local-time";
import { env, type Env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import {
  MAX_SERIES_VISITS,
  describeRule,
  floating,
  occurrences,
  placeOccurrence,
  ruleCount,
  ruleEnds,
  ruleFor,
  wallClock,
} from "./recurrence.server";
import type { RepeatInput } from "./repeat";

// Recurring jobs (docs/decisions/315-recurring-visits.md): a series with an end is made in full
// when the job is saved; an open-ended one 12 months ahead, and the horizon worker keeps it
// there. Every visit of a series names its wall-clock occurrence; the unique index on
// (tenant_id, series_id, occurrence) makes a second attempt at the same occurrence write
// nothing, whichever server or run makes it.

export const HORIZON_MONTHS = 12;

/** A wall-clock time `months` later (the same day of the month, or the month's last day). */
export function monthsLater(local: string, months: number): string {
  const d = floating(local);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return wallClock(new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes())));
}

/** How far ahead an open-ended series is made at `now`, wall clock in `zone`. */
export const horizonOf = (now: Date, zone: string) => monthsLater(utcToZoned(now, zone), HORIZON_MONTHS);

type Made = { jobId: string; seriesId: string; local: string; start: Date; end: Date };

/**
 * Inserts series visits in one statement, each with its series' crew; an occurrence that
 * already has its visit is skipped (the unique index). Each job touched follows its visits
 * once (db/functions/visits_add_series.sql). Answers how many were made.
 */
async function insertVisits(tenantId: string, made: Made[], t: Tx): Promise<number> {
  if (!made.length) return 0;
  const out = await one<{ n: number }>(
    `SELECT visits_add_series($1, $2::uuid[], $3::uuid[], $4::timestamp[], $5::timestamptz[], $6::timestamptz[]) AS n`,
    [
      tenantId,
      made.map((m) => m.jobId),
      made.map((m) => m.seriesId),
      made.map((m) => `${m.local.replace("T", " ")}:00`),
      made.map((m) => m.start.toISOString()),
      made.map((m) => m.end.toISOString()),
    ],
    t,
  );
  return out?.n ?? 0;
}

/** The wall-clock minutes from `start` to `end` (both `YYYY-MM-DDTHH:MM`). */
const wallMinutes = (start: string, end: string) => (floating(end).getTime() - floating(start).getTime()) / 60_000;

/**
 * Makes a new job's series from the job form: the form's start is the first visit's wall-clock
 * time, its end gives each visit's length (one hour without one), its technician the crew (or
 * `crew`, when a visit's "this and following" starts a new rule).
 * A series with an end is made in full (at most MAX_SERIES_VISITS visits); an open-ended one
 * up to the horizon. The job's row follows its visits (the database's triggers).
 */
export async function createSeries(
  actor: Actor,
  job: { id: string },
  input: RepeatInput & { scheduledStart?: string; scheduledEnd?: string; assigneeId?: string; crew?: string[] },
  zone: string,
  t: Tx,
  now = new Date(),
): Promise<{ seriesId: string; visits: number }> {
  const firstLocal = input.scheduledStart!;
  const duration = input.scheduledEnd ? wallMinutes(firstLocal, input.scheduledEnd) : 60;
  if (duration < 1 || duration > 44_640)
    throw validationFailed({ scheduledEnd: ["A visit lasts between one minute and 31 days."] });
  const rule = ruleFor(input, firstLocal);
  const ends = ruleEnds(rule);
  const horizon = horizonOf(now, zone);
  let list = occurrences({ rule, firstLocal }, ends ? {} : { until: horizon });
  if (!ends && !list.length) list = occurrences({ rule, firstLocal }, { limit: 1 });
  if (list.length > MAX_SERIES_VISITS)
    throw validationFailed({
      endsOn: [`This would make more than ${MAX_SERIES_VISITS} visits. End the series sooner.`],
    });
  if (!list.length) throw validationFailed({ endsOn: ["No visit falls before this end. Choose a later date."] });
  const madeUntil = ends ? list[list.length - 1]! : list[list.length - 1]! > horizon ? list[list.length - 1]! : horizon;
  const series = await one<{ id: string }>(
    `INSERT INTO visit_series (tenant_id, job_id, rule, first_local, time_zone, duration_minutes, crew, open_ended, made_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8, $9) RETURNING id`,
    [
      actor.tenantId,
      job.id,
      rule,
      firstLocal,
      zone,
      duration,
      input.crew ?? (input.assigneeId ? [input.assigneeId] : []),
      !ends,
      madeUntil,
    ],
    t,
  );
  const made = list.map((local) => ({
    jobId: job.id,
    seriesId: series!.id,
    local,
    ...placeOccurrence(local, duration, zone),
  }));
  const visits = await insertVisits(actor.tenantId, made, t);
  await recordHistory(t, actor, {
    recordType: "job",
    recordId: job.id,
    action: "scheduled",
    summary:
      `Repeats ${describeRule({ rule, firstLocal })}: ${visits} visit${visits === 1 ? "" : "s"} made${ends ? "" : " for the next 12 months"}`.slice(
        0,
        500,
      ),
  });
  return { seriesId: series!.id, visits };
}

type SeriesRow = {
  id: string;
  job_id: string;
  rule: string;
  first_local: string;
  time_zone: string;
  duration_minutes: number;
  made_until: string;
  last_local: string | null;
};

const asLocal = (v: string | Date) =>
  typeof v === "string" ? v.slice(0, 16).replace(" ", "T") : v.toISOString().slice(0, 16);

/**
 * Makes the visits of one tenant's open-ended series up to the horizon at `now`, at most
 * `limit` series in this transaction (those furthest behind first; a series another run has
 * locked is skipped). Answers the series extended and the visits made.
 */
export async function extendTenantSeries(
  tenantId: string,
  now: Date,
  limit: number,
  t: Tx,
): Promise<{ series: number; visits: number }> {
  const due = await rows<SeriesRow>(
    `SELECT s.id, s.job_id, s.rule, to_char(s.first_local, 'YYYY-MM-DD"T"HH24:MI') AS first_local, s.time_zone,
            s.duration_minutes, to_char(s.made_until, 'YYYY-MM-DD"T"HH24:MI') AS made_until,
            (SELECT to_char(max(v.occurrence), 'YYYY-MM-DD"T"HH24:MI') FROM visits v
              WHERE v.tenant_id = $1 AND v.series_id = s.id) AS last_local
       FROM visit_series s
      WHERE s.tenant_id = $1 AND s.open_ended AND s.made_until < ($2::timestamptz AT TIME ZONE s.time_zone) + interval '12 months'
      ORDER BY s.made_until, s.id
      LIMIT $3
      FOR UPDATE SKIP LOCKED`,
    [tenantId, now.toISOString(), limit],
    t,
  );
  if (!due.length) return { series: 0, visits: 0 };
  const made: Made[] = [];
  const until: string[] = [];
  const horizons = new Map<string, string>();
  for (const s of due) {
    let horizon = horizons.get(s.time_zone);
    if (!horizon) horizons.set(s.time_zone, (horizon = horizonOf(now, s.time_zone)));
    // The rule is expanded from its latest visit made rather than from its first: an occurrence
    // starts the same sequence (an open-ended rule has no COUNT), and a series years old is not
    // walked from its start every month.
    const firstLocal = asLocal(s.last_local && !ruleCount(s.rule) ? s.last_local : s.first_local);
    for (const local of occurrences({ rule: s.rule, firstLocal }, { after: asLocal(s.made_until), until: horizon }))
      made.push({ jobId: s.job_id, seriesId: s.id, local, ...placeOccurrence(local, s.duration_minutes, s.time_zone) });
    until.push(`${horizon.replace("T", " ")}:00`);
  }
  const visits = await insertVisits(tenantId, made, t);
  await rows(
    `UPDATE visit_series s SET made_until = x.until, updated_at = now()
       FROM unnest($2::uuid[], $3::timestamp[]) AS x(id, until)
      WHERE s.tenant_id = $1 AND s.id = x.id AND s.made_until < x.until`,
    [tenantId, due.map((s) => s.id), until],
    t,
  );
  return { series: due.length, visits };
}

export type HorizonFigures = { tenants: number; series: number; visits: number; ms: number };

const LOCK_KEY = 24_0315; // pg advisory lock id of the visit horizon worker
const DAY_MS = 24 * 3600_000;

/**
 * Claims the run for `now`: false when another server holds the claim or a run already started
 * within `intervalMs` of `now` (by the clock the run was given, so a test can run "a month later").
 */
async function claim(now: Date, intervalMs: number): Promise<string | null> {
  return inSystem(async (t) => {
    const locked = await one<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [LOCK_KEY], t);
    if (!locked?.ok) return null;
    const recent = await one(
      `SELECT 1 FROM maintenance_runs WHERE job = 'visit_horizon'
          AND (figures->>'asOf')::timestamptz > $1::timestamptz - make_interval(secs => $2::float8 / 1000)
          AND (figures->>'asOf')::timestamptz <= $1::timestamptz`,
      [now.toISOString(), intervalMs],
      t,
    );
    if (recent) return null;
    const run = await one<{ id: string }>(
      `INSERT INTO maintenance_runs (job, server, figures) VALUES ('visit_horizon', $1, $2::jsonb) RETURNING id`,
      [`${hostname()}:${process.pid}`, JSON.stringify({ asOf: now.toISOString() })],
      t,
    );
    return run!.id;
  });
}

export type HorizonOptions = { now?: Date; intervalMs?: number; batch?: number };

/**
 * One run of the horizon worker, if this server claims it (else null): every tenant's
 * open-ended series are made up to 12 months ahead, `batch` series per transaction.
 */
export async function runVisitHorizon(opts: HorizonOptions = {}): Promise<HorizonFigures | null> {
  const now = opts.now ?? new Date();
  const runId = await claim(now, opts.intervalMs ?? DAY_MS);
  if (!runId) return null;
  const figures = await extendAllSeries(now, opts.batch);
  await one(`UPDATE maintenance_runs SET finished_at = clock_timestamp(), figures = $2::jsonb WHERE id = $1`, [
    runId,
    JSON.stringify({ asOf: now.toISOString(), ...figures }),
  ]);
  log.info("visit horizon", { ...figures, run: runId });
  return figures;
}

/** The work of a run, without the claim (the benchmark calls it directly). */
export async function extendAllSeries(now: Date, batch = 2000, workers = 2): Promise<HorizonFigures> {
  const started = Date.now();
  const figures = { tenants: 0, series: 0, visits: 0, ms: 0 };
  for (;;) {
    const tenants = await rows<{ tenant_id: string; due: number }>(`SELECT * FROM app_visit_series_due($1, 500)`, [
      now.toISOString(),
    ]);
    figures.tenants += tenants.length;
    let progress = 0;
    // Two transactions at once: while one waits for PostgreSQL to insert its visits, the other
    // expands its rules in JavaScript. A tenant with more series than a batch goes back on the
    // queue after each batch, so its batches too are shared (SKIP LOCKED keeps them apart).
    const queue = tenants.map((t) => t.tenant_id);
    const work = async () => {
      for (let tenantId = queue.shift(); tenantId; tenantId = queue.shift()) {
        const id = tenantId;
        const done = await inTenant(id, (t) => extendTenantSeries(id, now, batch, t));
        figures.series += done.series;
        figures.visits += done.visits;
        progress += done.series;
        if (done.series >= batch) queue.push(id);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, queue.length)) }, work));
    // Series locked by another run are left to it; a list without progress ends this run.
    if (tenants.length < 500 || !progress) break;
  }
  figures.ms = Date.now() - started;
  return figures;
}

/**
 * Starts this server's ticks (once per process). Each tick tries to claim the day's run, so
 * with any number of app servers the horizon is kept once a day. VISIT_HORIZON_TICK_MS sets
 * how often a server tries (0 turns the worker off on this server).
 */
export function startVisitHorizon(config: Pick<Env, "VISIT_HORIZON_TICK_MS"> = env()) {
  const g = globalThis as { __visitHorizonTimer?: NodeJS.Timeout };
  if (g.__visitHorizonTimer) return;
  const tickMs = config.VISIT_HORIZON_TICK_MS;
  if (!(tickMs > 0)) return;
  let running = false;
  g.__visitHorizonTimer = setInterval(() => {
    if (running) return;
    running = true;
    runVisitHorizon()
      .catch((error) => log.error("visit horizon failed", { error }))
      .finally(() => (running = false));
  }, tickMs);
  g.__visitHorizonTimer.unref();
}

/** A job's series (the latest, if "this and following" split it), described; null for a one-off job. */
export async function jobSeries(
  tenantId: string,
  jobId: string,
  t: Tx,
): Promise<{ id: string; description: string } | null> {
  const s = await one<{ id: string; rule: string; first_local: string }>(
    `SELECT s.id, s.rule, to_char(s.first_local, 'YYYY-MM-DD"T"HH24:MI') AS first_local FROM visit_series s
      WHERE s.tenant_id = $1 AND s.job_id = $2 ORDER BY s.first_local DESC, s.created_at DESC LIMIT 1`,
    [tenantId, jobId],
    t,
  );
  return s ? { id: s.id, description: describeRule({ rule: s.rule, firstLocal: s.first_local }) } : null;
}

/**
 * A one-off job may become recurring while nothing happened on it: at most one visit, still
 * scheduled. Its visit is replaced by the series' visits.
 */
export async function assertMayRepeat(tenantId: string, jobId: string, t: Tx) {
  const v = await one<{ n: number; open: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'scheduled')::int AS open FROM visits WHERE tenant_id = $1 AND job_id = $2`,
    [tenantId, jobId],
    t,
  );
  if ((v?.n ?? 0) > 1 || (v?.n ?? 0) !== (v?.open ?? 0))
    throw conflict("Only a job with at most one visit, not yet started, can be made to repeat.");
}
