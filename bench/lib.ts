/** Shared pieces of the benchmarks: a database, the built server, autocannon, figures. */
import { execFileSync } from "node:child_process";
import { buildIfStale } from "../scripts/build.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import autocannon from "autocannon";
import { freePort, startEmbedded, type EmbeddedDb } from "../db/embedded";
import { closeDb, configureDb, db, rows } from "../db/index";
import { migrateUp } from "../db/migrate";
import { processTree, startServer, ROOT, type RunningServer } from "../tests/helpers/server";

export type Figure = {
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean | null;
  floor?: { name: string; value: number; unit: string };
  /** A page figure (ms or req/s) as on a machine whose bare node:http floor is 20,000 req/s. */
  normalised?: number;
};

export const BENCH_SECRETS = {
  SESSION_SECRET: "bench-session-secret-0123456789abcdef",
  PORTAL_TOKEN_SECRET: "bench-portal-secret-0123456789abcdef",
};

export type BenchContext = {
  databaseUrl: string;
  /** Starts the production build against the bench database (extra env for billing etc.). */
  server: (env?: Record<string, string | undefined>) => Promise<RunningServer>;
};

/** A fresh embedded PostgreSQL (or BENCH_DATABASE_URL), migrated. */
export async function benchDatabase(): Promise<{ url: string; stop: () => Promise<void>; version: string }> {
  let embedded: EmbeddedDb | undefined;
  let dir: string | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-bench-pg-"));
    fs.chmodSync(dir, 0o755);
    embedded = await startEmbedded(path.join(dir, "data"), { database: "fieldservice_bench" });
    url = embedded.url;
  }
  process.env.DATABASE_URL = url;
  configureDb({ url });
  Object.assign(process.env, BENCH_SECRETS);
  await migrateUp(db());
  const v = await rows<{ server_version: string }>("SELECT current_setting('server_version') AS server_version");
  await closeDb();
  return {
    url,
    version: v[0]?.server_version ?? "unknown",
    stop: async () => {
      await embedded?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The production build, remade only when the sources changed (scripts/build.mjs); SKIP_BUILD=1 reuses build/. */
export function buildApp() {
  if (!process.env.SKIP_BUILD) buildIfStale();
}

/** Writes bench/results/<file>: the figures with the machine, versions and commit they were measured on. */
export function writeResults(
  file: string,
  figures: Figure[],
  meta: { postgres: string; started: number },
  opts: { merge?: boolean } = {},
) {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    /* not a git checkout */
  }
  const result = {
    date: new Date().toISOString(),
    commit,
    machine: {
      cores: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      postgres: meta.postgres,
      platform: `${os.platform()} ${os.arch()}`,
    },
    seconds: Math.round((Date.now() - meta.started) / 1000),
    loadAverage: os.loadavg().map((n) => round(n)),
    figures,
  };
  fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  if (opts.merge) {
    // A part run alone replaces its own figures in the file and keeps the others (with their run's date).
    try {
      const before = JSON.parse(fs.readFileSync(path.join(ROOT, "bench/results", file), "utf8")) as {
        figures: Figure[];
      };
      const mine = new Set(figures.map((f) => f.name));
      result.figures = [...before.figures.filter((f) => !mine.has(f.name)), ...figures];
    } catch {
      /* no earlier results */
    }
  }
  fs.writeFileSync(path.join(ROOT, "bench/results", file), JSON.stringify(result, null, 2) + "\n");
  console.log(`\nWrote bench/results/${file} (${result.seconds} s).`);
}

export function productionServer(extra: Record<string, string | undefined> = {}) {
  // BENCH_SERVER_EXEC_ARGV, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  return startServer({
    NODE_ENV: "production",
    ...BENCH_SECRETS,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
    SERVER_EXEC_ARGV: process.env.BENCH_SERVER_EXEC_ARGV,
    // As `npm start` serves: one process unless BENCH_WEB_CONCURRENCY says how many (docs/decisions/507).
    WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY,
    ...extra,
  });
}

export type LoadResult = { rps: number; p99: number; p50: number; errors: number; non2xx: number; total: number };

/** autocannon with a bounded duration; returns throughput and latency percentiles (ms). */
export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 20, duration: 10, ...opts });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export function figure(
  name: string,
  value: number,
  unit: string,
  goal: string,
  met: boolean | null,
  floor?: Figure["floor"],
): Figure {
  return { name, value: round(value), unit, goal, met, ...(floor ? { floor } : {}) };
}

export function printTable(figures: Figure[]) {
  const rows = figures.map((f) => [
    f.name,
    `${f.value} ${f.unit}`,
    f.normalised === undefined ? "" : `${f.normalised} ${f.unit}`,
    f.goal,
    f.met === null ? "-" : f.met ? "yes" : "NO",
  ]);
  const head = ["figure", "value", `at a ${NORMAL_FLOOR.toLocaleString("en-US")} req/s floor`, "goal", "met"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}

/**
 * The bare floor the page figures are normalised to: a machine whose plain node:http server
 * answers this many requests a second. Machines here differ by 2x and more, so a page figure is
 * reported both as measured and as it would be on such a machine (ms x floor / 20,000; req/s
 * x 20,000 / floor), and its goal is judged on the normalised one.
 */
export const NORMAL_FLOOR = 20_000;

/** A plain node:http server answering `body` as a JSON 404: the floor of what any server can do here. */
export async function bareServer(body: string): Promise<{ url: string; close: () => void }> {
  const port = await freePort();
  const server = http.createServer((_req, res) => {
    res.writeHead(404, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** The bare node:http floor of this machine now (req/s at 20 connections, after a 2 s warm-up). */
export async function measureFloor(body = `{"error":{"code":"NOT_FOUND","message":"Nothing here."}}`): Promise<number> {
  const bare = await bareServer(body);
  try {
    await load({ url: bare.url, duration: 2 });
    return Math.round((await load({ url: bare.url })).rps);
  } finally {
    bare.close();
  }
}

/** A latency (ms) or throughput (req/s) as on a machine with the normal floor. */
export function normalised(value: number, unit: string, floorRps: number): number | undefined {
  if (!floorRps) return undefined;
  if (unit === "ms") return round((value * floorRps) / NORMAL_FLOOR);
  if (unit === "req/s" || unit === "quotes/s") return round((value * NORMAL_FLOOR) / floorRps);
  return undefined;
}

/** A process's CPU seconds (user + system) so far, from /proc; null when unreadable. */
function processSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/**
 * CPU seconds (user + system) a server's processes (its launcher and serving processes under
 * WEB_CONCURRENCY) have used so far, or null off Linux. Per request it says what a route costs
 * the server even when other work shares the machine and moves req/s and p99 around
 * (docs/decisions/114).
 */
export function processCpu(pid: number | undefined): number | null {
  if (pid === undefined || processSeconds(pid) === null) return null;
  return processTree(pid).reduce((sum, p) => sum + (processSeconds(p) ?? 0), 0);
}

/**
 * What one person feels: the median of `n` sequential requests on an otherwise idle server
 * (after one unmeasured request), in ms.
 */
export async function p50Alone(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  n = 50,
): Promise<number> {
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url, { ...init, redirect: "manual" });
    await res.arrayBuffer();
    return performance.now() - t;
  };
  await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return round((times[Math.floor((n - 1) / 2)] + times[Math.ceil((n - 1) / 2)]) / 2);
}
