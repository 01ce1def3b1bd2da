/**
 * BENCHMARKS B3, offline sync: 50 clients, each pushing 20 batches of 25 mutations over
 * HTTP, one batch in ten sent twice (a retry) and one client sending a gap. Reports the
 * mutations applied per second and checks the database holds exactly one effect per
 * mutation: zero lost, zero doubled.
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

export const B3 = { clients: Number(process.env.B3_CLIENTS ?? 50), batches: Number(process.env.B3_BATCHES ?? 20), batchSize: 25 };

type Figure = { name: string; value: number; unit: string; goal: string; met: boolean | null };
type Mutation = { id: number; type: string; occurredAt: string; args: Record<string, unknown> };

/** Client c's mutation n: two status changes first, then notes and time entries (bodies name c and n). */
function mutation(c: number, n: number, jobId: string): Mutation {
  const occurredAt = new Date(Date.now() - 3600_000 + n * 1000).toISOString();
  if (n === 1) return { id: n, type: "job.status", occurredAt, args: { jobId, status: "en_route" } };
  if (n === 2) return { id: n, type: "job.status", occurredAt, args: { jobId, status: "in_progress" } };
  if (n % 5 === 0) return { id: n, type: "job.time_entry", occurredAt, args: { jobId, startedAt: occurredAt, endedAt: occurredAt, note: `bench c${c} m${n}` } };
  return { id: n, type: "job.note", occurredAt, args: { jobId, body: `bench c${c} m${n}` } };
}

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
  const devices = [];
  for (let c = 0; c < clients; c++) {
    const user = await createUser(tenant.id, { role: "technician" });
    const job = await createJob(tenant.id, { customerId: customer.id, assigneeId: user.id });
    const client = new Client(baseUrl);
    const login = await client.post("/login", { email: user.email, password: DEFAULT_PASSWORD });
    if (login.status !== 303) throw new Error(`bench sign-in failed: ${login.status}`);
    devices.push({ c, clientId: randomUUID(), job, client });
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
      const batch = (b: number) => Array.from({ length: batchSize }, (_, i) => mutation(d.c, b * batchSize + i + 1, d.job.id));
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

  // Exactly one effect per mutation: every note and time entry body once, two status events per job.
  const [effects] = await rows<{ notes: number; distinct_notes: number; times: number; distinct_times: number; events: number }>(
    `SELECT (SELECT count(*) FROM job_notes WHERE tenant_id = $1)::int AS notes,
            (SELECT count(DISTINCT body) FROM job_notes WHERE tenant_id = $1)::int AS distinct_notes,
            (SELECT count(*) FROM time_entries WHERE tenant_id = $1)::int AS times,
            (SELECT count(DISTINCT note) FROM time_entries WHERE tenant_id = $1)::int AS distinct_times,
            (SELECT count(*) FROM job_events WHERE tenant_id = $1)::int AS events`,
    [tenant.id],
  );
  const perClient = batches * batchSize;
  const expected = {
    times: clients * Math.floor(perClient / 5),
    events: clients * 2,
  };
  const expectedNotes = clients * perClient - expected.times - expected.events;
  const total = clients * perClient;
  const stored = effects.notes + effects.times + effects.events;
  const lost = Math.max(0, expectedNotes - effects.distinct_notes) + Math.max(0, expected.times - effects.distinct_times) + Math.max(0, expected.events - effects.events);
  const doubled = effects.notes - effects.distinct_notes + (effects.times - effects.distinct_times) + Math.max(0, effects.events - expected.events);
  const rate = counts.applied / seconds;
  return {
    figures: [
      { name: "B3 sync mutations applied per second", value: Math.round(rate), unit: "mutations/s", goal: ">= 2000", met: rate >= 2000 },
      { name: "B3 sync mutations lost", value: lost + Math.max(0, total - stored - lost), unit: "mutations", goal: "= 0", met: lost === 0 && stored >= total },
      { name: "B3 sync mutations doubled", value: doubled, unit: "mutations", goal: "= 0", met: doubled === 0 },
    ],
    detail: { seconds: Number(seconds.toFixed(2)), total, stored, ...counts },
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
  const secrets = { SESSION_SECRET: "bench-session-secret-0123456789abcdef", PORTAL_TOKEN_SECRET: "bench-portal-secret-0123456789abcdef" };
  Object.assign(process.env, secrets);
  await migrateUp(db());
  const server = await startServer({ NODE_ENV: "production", LOG_LEVEL: "error", ...secrets, NODE_OPTIONS: process.env.B3_SERVER_NODE_OPTIONS });
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
