import { hostname } from "node:os";
import { inSystem, one } from "../../../db/index";
import { env, type Env } from "~/utils/env.server";
import { log } from "~/utils/log.server";

// The cleanup (docs/decisions/102): tables that would otherwise only grow (the summaries' delta
// rows are folded, docs/decisions/405). Each app server
// ticks; a tick runs the cleanup only when it can claim the interval (an advisory lock held
// while it checks that no run started within the interval), so with any number of servers it
// runs once per interval. Deletes go in bounded batches, each its own short statement, so no
// lock is held long and a huge backlog is worked off over several runs.

export const CLEANUP_KINDS = ["sessions", "rate_limits", "previews", "messages", "summaries"] as const;
type Kind = (typeof CLEANUP_KINDS)[number];
export type CleanupFigures = Record<Kind, number> & { batches: number; ms: number };

const LOCK_KEY = 24_0011; // pg advisory lock id of the cleanup job

export type CleanupOptions = { intervalMs: number; batchSize?: number; maxBatches?: number };

/** Claims this interval's run; false when another server holds the claim or ran it already. */
async function claim(intervalMs: number): Promise<string | null> {
  return inSystem(async (t) => {
    const locked = await one<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [LOCK_KEY], t);
    if (!locked?.ok) return null;
    const recent = await one(
      `SELECT 1 FROM maintenance_runs WHERE job = 'cleanup' AND started_at > clock_timestamp() - make_interval(secs => $1::float8 / 1000)`,
      [intervalMs],
      t,
    );
    if (recent) return null;
    const run = await one<{ id: string }>(
      `INSERT INTO maintenance_runs (job, server) VALUES ('cleanup', $1) RETURNING id`,
      [`${hostname()}:${process.pid}`],
      t,
    );
    return run!.id;
  });
}

/** One run, if this server claims the interval: the figures, else null. */
export async function runCleanup(opts: CleanupOptions): Promise<CleanupFigures | null> {
  const runId = await claim(opts.intervalMs);
  if (!runId) return null;
  const started = Date.now();
  const batchSize = opts.batchSize ?? 1000;
  const maxBatches = opts.maxBatches ?? 50;
  const figures = {
    sessions: 0,
    rate_limits: 0,
    previews: 0,
    messages: 0,
    summaries: 0,
    batches: 0,
    ms: 0,
  } as CleanupFigures;
  for (const kind of CLEANUP_KINDS) {
    for (let i = 0; i < maxBatches; i++) {
      const done = await one<{ n: number }>(`SELECT app_cleanup_batch($1, $2) AS n`, [kind, batchSize]);
      figures.batches++;
      figures[kind] += done?.n ?? 0;
      if ((done?.n ?? 0) < batchSize) break;
    }
  }
  figures.ms = Date.now() - started;
  await one(`UPDATE maintenance_runs SET finished_at = clock_timestamp(), figures = $2 WHERE id = $1`, [
    runId,
    JSON.stringify(figures),
  ]);
  log.info("cleanup", { ...figures, run: runId });
  return figures;
}

/**
 * Starts this server's ticks (once per process): every tick tries to claim the interval.
 * CLEANUP_INTERVAL_MS sets the interval (default one hour; 0 turns the cleanup off).
 */
export function startCleanupSchedule(config: Pick<Env, "CLEANUP_INTERVAL_MS" | "CLEANUP_BATCH"> = env()) {
  const g = globalThis as { __cleanupTimer?: NodeJS.Timeout };
  if (g.__cleanupTimer) return;
  const intervalMs = config.CLEANUP_INTERVAL_MS;
  if (!(intervalMs > 0)) return;
  // Ticks are more frequent than the interval, so a server that stops does not leave a gap
  // longer than a tick; the claim keeps the runs once per interval.
  const tickMs = Math.max(200, Math.min(intervalMs / 4, 5 * 60_000));
  let running = false;
  g.__cleanupTimer = setInterval(() => {
    if (running) return;
    running = true;
    runCleanup({ intervalMs, batchSize: config.CLEANUP_BATCH })
      .catch((error) => log.error("cleanup failed", { error }))
      .finally(() => (running = false));
  }, tickMs);
  g.__cleanupTimer.unref();
}
