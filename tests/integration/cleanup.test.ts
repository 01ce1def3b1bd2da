import assert from "node:assert/strict";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { runCleanup } from "../../app/services/maintenance/cleanup.server";
import { createTenantWithUsers } from "../helpers/fixtures";
import { startServer, type RunningServer } from "../helpers/server";

// Issue 24: tables that only grew. Expired sessions, stale rate-limit rows, previews past their
// life and finished outbox rows are removed in bounded batches, once per interval across app
// servers.

async function expiredSessions(tenantId: string, userId: string, n: number, tag: string) {
  await rows(
    `INSERT INTO sessions (tenant_id, id, user_id, expires_at)
     SELECT $1, $4 || '-' || g, $2, now() - interval '1 minute' FROM generate_series(1, $3::int) g`,
    [tenantId, userId, n, tag],
  );
}

async function staleRateLimits(n: number, tag: string) {
  await rows(
    `INSERT INTO rate_limits (key, points, expire)
     SELECT $2 || ':' || g, 3, (extract(epoch FROM now()) * 1000)::bigint - 60000 FROM generate_series(1, $1::int) g`,
    [n, tag],
  );
}

const count = async (sql: string, bind: unknown[]) => (await one<{ n: number }>(sql, bind))!.n;

test("cleanup: expired sessions, stale rate-limit rows and old previews go in bounded batches; live ones stay; figures recorded", async () => {
  const t = await createTenantWithUsers();
  const tag = `old-${Date.now()}`;
  await expiredSessions(t.id, t.users.office.id, 25, tag);
  await rows(
    `INSERT INTO sessions (tenant_id, id, user_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
    [t.id, `${tag}-live`, t.users.office.id],
  );
  await staleRateLimits(25, tag);
  await rows(
    `INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, (extract(epoch FROM now()) * 1000)::bigint + 600000)`,
    [`${tag}:live`],
  );
  const run = await one<{ id: string }>(
    `INSERT INTO import_runs (tenant_id, type, state, file_bytes, headers, row_count, valid_count, invalid_count, error_count, created_by, created_at)
     VALUES ($1, 'customers', 'previewed', 10, '["name"]', 1, 1, 0, 0, $2, now() - interval '2 days') RETURNING id`,
    [t.id, t.users.office.id],
  );
  await rows(
    `INSERT INTO import_run_data (tenant_id, run_id, kind, seq, data) VALUES ($1, $2, 'rows', 0, '[]'), ($1, $2, 'errors', 0, '[]')`,
    [t.id, run!.id],
  );

  // Bounded: 10 rows a batch, 2 batches a kind, so one run removes at most 20 of each.
  const first = await runCleanup({ intervalMs: 1, batchSize: 10, maxBatches: 2 });
  assert.ok(first, "the run claimed its interval");
  assert.ok(first.sessions >= 20 && first.rate_limits >= 20);
  await new Promise((r) => setTimeout(r, 5));
  const second = await runCleanup({ intervalMs: 1, batchSize: 1000, maxBatches: 5 });
  assert.ok(second);
  assert.equal(
    await count(
      `SELECT count(*)::int n FROM sessions WHERE tenant_id = $1 AND id LIKE $2 || '-%' AND id <> $2 || '-live'`,
      [t.id, tag],
    ),
    0,
  );
  assert.equal(
    await count(`SELECT count(*)::int n FROM sessions WHERE tenant_id = $1 AND id = $2`, [t.id, `${tag}-live`]),
    1,
    "a live session stays",
  );
  assert.equal(
    await count(`SELECT count(*)::int n FROM rate_limits WHERE key LIKE $1 || ':%' AND key <> $1 || ':live'`, [tag]),
    0,
  );
  assert.equal(
    await count(`SELECT count(*)::int n FROM rate_limits WHERE key = $1`, [`${tag}:live`]),
    1,
    "a live counter stays",
  );
  assert.equal(
    await count(`SELECT count(*)::int n FROM import_run_data WHERE tenant_id = $1 AND run_id = $2`, [t.id, run!.id]),
    0,
  );
  assert.equal(
    (await one<{ state: string }>(`SELECT state FROM import_runs WHERE tenant_id = $1 AND id = $2`, [t.id, run!.id]))!
      .state,
    "superseded",
  );
  const recorded = await one<{ figures: Record<string, number> }>(
    `SELECT figures FROM maintenance_runs WHERE job = 'cleanup' AND figures IS NOT NULL ORDER BY id DESC LIMIT 1`,
    [],
  );
  assert.ok(recorded?.figures && "sessions" in recorded.figures && "batches" in recorded.figures);
  // Within the interval a second claim is refused.
  assert.equal(await runCleanup({ intervalMs: 60 * 60_000 }), null);
});

test("cleanup: finished outbox rows older than 30 days go; a reminder's row stays as its sent-once memory, its bodies emptied; queued and recent ones stay", async () => {
  const t = await createTenantWithUsers();
  const message = (status: string, daysOld: number, dedupeKey: string | null) =>
    one<{ id: string }>(
      `INSERT INTO messages (tenant_id, kind, status, to_address, from_name, subject, text_body, html_body, message_id, dedupe_key, created_at)
       VALUES ($1, 'receipt', $2, 'ann@example.com', 'Acme', 'Receipt', 'Thanks', '<p>Thanks</p>', gen_random_uuid()::text || '@t', $3, now() - $4 * interval '1 day')
       RETURNING id`,
      [t.id, status, dedupeKey, daysOld],
    ).then((r) => r!.id);
  const oldSent = await message("sent", 40, null);
  const oldFailed = await message("failed", 31, null);
  const oldReminder = await message("sent", 45, `invoice-due-after:${t.id}`);
  const recentSent = await message("sent", 3, null);
  const oldQueued = await message("queued", 40, null);

  await runCleanup({ intervalMs: 1, batchSize: 1000, maxBatches: 5 });
  const left = await rows<{ id: string; html_body: string }>(
    `SELECT id, html_body FROM messages WHERE tenant_id = $1`,
    [t.id],
  );
  const ids = new Set(left.map((m) => m.id));
  assert.ok(!ids.has(oldSent) && !ids.has(oldFailed), "finished rows past 30 days are gone");
  assert.ok(ids.has(recentSent) && ids.has(oldQueued), "recent and unsent rows stay");
  assert.equal(left.find((m) => m.id === oldReminder)?.html_body, "", "the reminder's row stays, emptied");
});

test("cleanup with two app servers: the expired rows go, and it runs once per interval, not once per server", async () => {
  const t = await createTenantWithUsers();
  const tag = `two-${Date.now()}`;
  await expiredSessions(t.id, t.users.office.id, 30, tag);
  await staleRateLimits(30, tag);
  const intervalMs = 2000;
  const servers: RunningServer[] = [];
  try {
    for (let i = 0; i < 2; i++)
      servers.push(await startServer({ CLEANUP_INTERVAL_MS: String(intervalMs), LOG_LEVEL: "info" }));
    const pids = servers.map((s) => s.child.pid);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const left = await count(`SELECT count(*)::int n FROM sessions WHERE tenant_id = $1 AND id LIKE $2 || '-%'`, [
        t.id,
        tag,
      ]);
      const runs = await rows<{ server: string }>(
        `SELECT server FROM maintenance_runs WHERE job = 'cleanup' AND server ~ $1`,
        [`:(${pids.join("|")})$`],
      );
      if (left === 0 && runs.length >= 3) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(
      await count(`SELECT count(*)::int n FROM sessions WHERE tenant_id = $1 AND id LIKE $2 || '-%'`, [t.id, tag]),
      0,
      "no expired session remains",
    );
    assert.equal(
      await count(`SELECT count(*)::int n FROM rate_limits WHERE key LIKE $1 || ':%'`, [tag]),
      0,
      "no stale rate-limit row remains",
    );
    // A run's row is written when it starts and its log line when it ends: read both when no run
    // is in flight (the servers go on ticking, so wait for a moment between two runs).
    const readRuns = () =>
      rows<{ server: string; started_ms: number }>(
        `SELECT server, (extract(epoch FROM started_at) * 1000)::bigint AS started_ms FROM maintenance_runs WHERE job = 'cleanup' AND server ~ $1 ORDER BY started_at`,
        [`:(${pids.join("|")})$`],
      );
    const loggedRuns = () =>
      servers.flatMap((s) =>
        s.logs
          .join("")
          .split("\n")
          .filter((l) => l.includes('"msg":"cleanup"')),
      );
    let runs = await readRuns();
    for (
      const settle = Date.now() + 10_000;
      loggedRuns().length !== runs.length && Date.now() < settle;
      runs = await readRuns()
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // Once per interval: no two runs (by any server) started closer than the interval.
    assert.ok(runs.length >= 2, `runs: ${runs.length}`);
    for (let i = 1; i < runs.length; i++)
      assert.ok(
        runs[i].started_ms - runs[i - 1].started_ms >= intervalMs - 5,
        `runs ${i - 1} and ${i} closer than the interval`,
      );
    // Both servers tick many times per interval, yet the runs are not doubled.
    const logged = loggedRuns();
    assert.equal(logged.length, runs.length, "each run logs its figures once");
    assert.match(logged[0], /"sessions":\d+,"rate_limits":\d+,"previews":\d+/);
  } finally {
    for (const s of servers) await s.stop();
  }
});
