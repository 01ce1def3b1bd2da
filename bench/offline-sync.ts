/**
 * BENCHMARKS B3, offline sync: 50 clients, each pushing 20 batches of 25 mutations over
 * HTTP, one batch in ten sent twice (a retry) and one client sending a gap. The mix: status
 * changes (which run the job's clock), notes, time entries, the clock stopped and started
 * (`job.clock`) and checklist ticks (`job.checklist`) (issue 21). Reports the mutations applied
 * per second and checks the database holds exactly one effect per mutation: zero lost, zero
 * doubled.
 *
 *   npx tsx bench/offline-sync.ts        standalone: builds, starts a throw-away database and the server
 *   benchOfflineSync(baseUrl)             from the bench runner, against a running server
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbedded } from "../db/embedded";
import { closeDb, configureDb, db, rows } from "../db/index";
import { migrateUp } from "../db/migrate";
import { createCustomer, createJob, createTenant, createUser, DEFAULT_PASSWORD } from "../scripts/seeds/factories";
import { Client } from "../tests/helpers/client";
import { ROOT, startServer } from "../tests/helpers/server";

export const B3 = {
  clients: Number(process.env.B3_CLIENTS ?? 50),
  batches: Number(process.env.B3_BATCHES ?? 20),
  batchSize: 25,
  /** B3_VISITS=1: each job's visit has a crew of two and every mutation names its visitId. */
  visits: process.env.B3_VISITS === "1",
};

type Figure = { name: string; value: number; unit: string; goal: string; met: boolean | null };
type Mutation = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };

/**
 * Client c's mutation n: two status changes first (On my way starts the job's clock), then
 * every 7th the clock stopped and started in turn (a break), every 5th a time entry, every 3rd a
 * checklist tick or untick, and notes (bodies name c and n).
 */
function mutation(c: number, n: number, jobId: string, items: string[], visitId?: string): Mutation {
  const ids = visitId ? { jobId, visitId } : { jobId };
  const occurredAt = new Date(Date.now() - 3600_000 + n * 1000).toISOString();
  if (n === 1) return { id: n, type: "job.status", occurredAt, args: { ...ids, status: "en_route" } };
  if (n === 2) return { id: n, type: "job.status", occurredAt, args: { ...ids, status: "in_progress" } };
  if (n % 7 === 0)
    return { id: n, type: "job.clock", occurredAt, args: { ...ids, action: (n / 7) % 2 === 1 ? "stop" : "start" } };
  if (n % 5 === 0)
    return {
      id: n,
      type: "job.time_entry",
      occurredAt,
      args: { ...ids, startedAt: occurredAt, endedAt: occurredAt, note: `bench c${c} m${n}` },
    };
  if (n % 3 === 0)
    return {
      id: n,
      type: "job.checklist",
      occurredAt,
      args: { ...ids, itemId: items[(n / 3) % items.length], done: (n / 3) % 2 === 1 },
    };
  return { id: n, type: "job.note", occurredAt, args: { ...ids, body: `bench c${c} m${n}` } };
}

// Four items: with every 5th mutation a time entry, a fifth item would never be ticked.
const BENCH_CHECKLIST = ["Isolate the supply", "Check the flue", "Test the relief valve", "Record the readings"];

async function post(client: Client, clientId: string, mutations: Mutation[]) {
  for (let attempt = 0; ; attempt++) {
    const res = await client.postJson("/api/offline-sync", { clientId, mutations });
    const body = (await res.json()) as { data?: { results: Array<{ id: number; status: string }> } };
    if (res.ok) return body.data!.results;
    if (res.status !== 503 || attempt >= 5) throw new Error(`push answered ${res.status}: ${JSON.stringify(body)}`);
  }
}

export async function benchOfflineSync(
  baseUrl: string,
  hooks: { started?: () => void; finished?: () => void } = {},
): Promise<{ figures: Figure[]; detail: Record<string, number> }> {
  const { clients, batches, batchSize } = B3;
  const tenant = await createTenant(`Bench sync ${randomUUID().slice(0, 8)}`);
  const customer = await createCustomer(tenant.id);
  // With visits: one more technician on every visit's crew (who sends nothing).
  const partner = B3.visits ? await createUser(tenant.id, { role: "technician" }) : null;
  const devices = [];
  for (let c = 0; c < clients; c++) {
    const user = await createUser(tenant.id, { role: "technician" });
    const job = await createJob(tenant.id, {
      customerId: customer.id,
      assigneeId: user.id,
      checklist: BENCH_CHECKLIST,
    });
    const items = (
      await rows<{ id: string }>(
        `SELECT id FROM job_checklist_items WHERE tenant_id = $1 AND job_id = $2 ORDER BY position`,
        [tenant.id, job.id],
      )
    ).map((i) => i.id);
    const visitId = B3.visits
      ? (
          await rows<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [tenant.id, job.id])
        )[0].id
      : undefined;
    if (partner)
      await rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
        tenant.id,
        visitId,
        partner.id,
      ]);
    const client = new Client(baseUrl);
    const login = await client.post("/login", { email: user.email, password: DEFAULT_PASSWORD });
    if (login.status !== 303) throw new Error(`bench sign-in failed: ${login.status}`);
    devices.push({ c, clientId: randomUUID(), job, items, client, visitId });
  }

  const counts = { applied: 0, duplicate: 0, skipped: 0, rejected: 0, requests: 0 };
  const count = (results: Array<{ status: string }>) => {
    counts.requests++;
    for (const r of results) counts[r.status as keyof typeof counts]++;
  };
  hooks.started?.();
  const started = performance.now();
  await Promise.all(
    devices.map(async (d) => {
      const batch = (b: number) =>
        Array.from({ length: batchSize }, (_, i) => mutation(d.c, b * batchSize + i + 1, d.job.id, d.items, d.visitId));
      for (let b = 0; b < batches; b++) {
        // The gap: client 0 sends its next batch before this one, once.
        if (d.c === 0 && b === 5) count(await post(d.client, d.clientId, batch(b + 1)));
        count(await post(d.client, d.clientId, batch(b)));
        if (b % 10 === 3) count(await post(d.client, d.clientId, batch(b))); // a retry of a delivered batch
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  hooks.finished?.();

  // Exactly one effect per mutation: every note and time entry body once, two status events
  // per job, one clock time entry per stop (the break lines a restart writes are not clock
  // entries), and each checklist item as its last tick left it.
  const [effects] = await rows<{
    notes: number;
    distinct_notes: number;
    times: number;
    distinct_times: number;
    clock_times: number;
    events: number;
  }>(
    `SELECT (SELECT count(*) FROM job_notes WHERE tenant_id = $1)::int AS notes,
            (SELECT count(DISTINCT body) FROM job_notes WHERE tenant_id = $1)::int AS distinct_notes,
            (SELECT count(*) FROM time_entries WHERE tenant_id = $1 AND note IS NOT NULL)::int AS times,
            (SELECT count(DISTINCT note) FROM time_entries WHERE tenant_id = $1)::int AS distinct_times,
            (SELECT count(*) FROM time_entries WHERE tenant_id = $1 AND note IS NULL AND kind <> 'break')::int AS clock_times,
            (SELECT count(*) FROM job_events WHERE tenant_id = $1)::int AS events`,
    [tenant.id],
  );
  const perClient = batches * batchSize;
  const one = Array.from({ length: perClient }, (_, i) => mutation(0, i + 1, "", BENCH_CHECKLIST));
  const kinds = (type: string, pred: (m: Mutation) => boolean = () => true) =>
    clients * one.filter((m) => m.type === type && pred(m)).length;
  const expected = {
    notes: kinds("job.note"),
    times: kinds("job.time_entry"),
    clockTimes: kinds("job.clock", (m) => m.args.action === "stop"),
    events: kinds("job.status"),
    checklist: kinds("job.checklist"),
  };
  // The last tick of each item (by position) in every client's run.
  const lastTick = new Map<number, boolean>();
  for (const m of one)
    if (m.type === "job.checklist") lastTick.set(BENCH_CHECKLIST.indexOf(String(m.args.itemId)), m.args.done === true);
  const ticks = await rows<{ position: number; done: boolean; n: number }>(
    `SELECT position, done_at IS NOT NULL AS done, count(*)::int AS n FROM job_checklist_items WHERE tenant_id = $1 GROUP BY 1, 2`,
    [tenant.id],
  );
  const wrongTicks = ticks
    .filter((r) => r.done !== (lastTick.get(r.position) ?? false))
    .reduce((sum, r) => sum + r.n, 0);
  const total = clients * perClient;
  const lost =
    Math.max(0, expected.notes - effects.distinct_notes) +
    Math.max(0, expected.times - effects.distinct_times) +
    Math.max(0, expected.events - effects.events) +
    Math.max(0, expected.clockTimes - effects.clock_times) +
    wrongTicks;
  const doubled =
    effects.notes -
    effects.distinct_notes +
    (effects.times - effects.distinct_times) +
    Math.max(0, effects.events - expected.events) +
    Math.max(0, effects.clock_times - expected.clockTimes);
  const stored = effects.distinct_notes + effects.distinct_times + effects.events + effects.clock_times;
  const rate = counts.applied / seconds;
  return {
    figures: [
      {
        name: `B3 sync mutations applied per second${B3.visits ? " (visit mutations, crews of two)" : ""}`,
        value: Math.round(rate),
        unit: "mutations/s",
        goal: ">= 2000",
        met: rate >= 2000,
      },
      { name: "B3 sync mutations lost", value: lost, unit: "mutations", goal: "= 0", met: lost === 0 },
      { name: "B3 sync mutations doubled", value: doubled, unit: "mutations", goal: "= 0", met: doubled === 0 },
    ],
    detail: {
      seconds: Number(seconds.toFixed(2)),
      total,
      stored,
      clockStops: expected.clockTimes,
      checklistTicks: expected.checklist,
      ...counts,
    },
  };
}

async function main() {
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-bench-sync-"));
  fs.chmodSync(dir, 0o755);
  const pg = await startEmbedded(path.join(dir, "data"), { database: "fieldservice_bench" });
  process.env.DATABASE_URL = pg.url;
  configureDb({ url: pg.url });
  const secrets = {
    SESSION_SECRET: "bench-session-secret-0123456789abcdef",
    PORTAL_TOKEN_SECRET: "bench-portal-secret-0123456789abcdef",
  };
  Object.assign(process.env, secrets);
  await migrateUp(db());
  const server = await startServer({
    NODE_ENV: "production",
    LOG_LEVEL: "error",
    ...secrets,
    NODE_OPTIONS: process.env.B3_SERVER_NODE_OPTIONS,
  });
  try {
    const { figures, detail } = await benchOfflineSync(server.url);
    console.table(figures.map((f) => ({ figure: f.name, value: f.value, unit: f.unit, goal: f.goal, met: f.met })));
    console.log(detail);
  } finally {
    await server.stop();
    await closeDb();
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
