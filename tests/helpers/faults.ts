// Helpers for the fault tests (tests/integration/faults.test.ts): a lock held from the test on
// its own connection, so a server's query blocks mid-transaction where the test wants it, and
// bounded waits on what pg_stat_activity shows (read through the test process's own pool).
import pg from "pg";
import { rows } from "../../db/index";

/** Polls `check` until it returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A plain connection of the test (the database owner, so row-level security does not apply). */
export async function connect(url = process.env.DATABASE_URL!): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: "fieldservice-test-lock" });
  await client.connect();
  return client;
}

export type HeldLock = {
  /** The backend pid of the connection holding the lock. */
  pid: number;
  /** The server backends waiting for this lock right now. */
  waiters: () => Promise<number[]>;
  /** Ends the lock's transaction (rolls back whatever it wrote) and closes the connection. */
  release: () => Promise<void>;
};

/** Opens a transaction, runs `sql` in it (a row lock, an uncommitted insert...) and keeps it open. */
export async function holdLock(sql: string, params: unknown[] = []): Promise<HeldLock> {
  const client = await connect();
  const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  // On a Citus cluster the row lives on a worker, where the servers' statements wait for it:
  // the cluster-wide view of lock waits names each backend by its global pid.
  const citus = (
    await client.query<{ citus: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
    )
  ).rows[0].citus;
  const gpid = citus
    ? (await client.query<{ gpid: string }>(`SELECT citus_backend_gpid()::text AS gpid`)).rows[0].gpid
    : null;
  await client.query("BEGIN");
  await client.query(sql, params);
  let released = false;
  return {
    pid,
    waiters: async () => (gpid ? clusterBackendsBlockedBy(gpid) : backendsBlockedBy(pid)),
    release: async () => {
      if (released) return;
      released = true;
      await client.query("ROLLBACK").catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

/** Backends waiting for a lock that `pid` holds. */
export async function backendsBlockedBy(pid: number): Promise<number[]> {
  const found = await rows<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [
    pid,
  ]);
  return found.map((r) => r.pid);
}

/** On a Citus cluster: the global pids of the backends, on any node, waiting for a lock that `gpid` holds. */
async function clusterBackendsBlockedBy(gpid: string): Promise<number[]> {
  const found = await rows<{ gpid: string }>(
    `SELECT DISTINCT waiting_gpid::text AS gpid FROM citus_lock_waits WHERE blocking_gpid = $1::bigint`,
    [gpid],
  );
  return found.map((r) => Number(r.gpid));
}

/** The sessions a server opened (its DB_APPLICATION_NAME), with what each is doing. */
export function sessionsOf(applicationName: string) {
  return rows<{ pid: number; state: string | null; xact: boolean; query: string; wait_event_type: string | null }>(
    `SELECT pid, state, xact_start IS NOT NULL AS xact, query, wait_event_type FROM pg_stat_activity WHERE application_name = $1`,
    [applicationName],
  );
}

/**
 * After a server was killed: waits until PostgreSQL has ended every session it had, so each
 * of its transactions is finished (committed, or rolled back when the client vanished).
 */
export function sessionsGone(applicationName: string, timeoutMs = 20_000) {
  return waitFor(
    `the sessions of ${applicationName} to end`,
    async () => (await sessionsOf(applicationName)).length === 0,
    timeoutMs,
  );
}

/** Settles a request started before a kill: the response, or the network error the kill caused. */
export function settle(p: Promise<Response>): Promise<{ res?: Response; error?: unknown }> {
  return p.then(
    (res) => ({ res }),
    (error) => ({ error }),
  );
}
