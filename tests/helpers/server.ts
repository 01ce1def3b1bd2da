import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "../../db/embedded";
import { APP_ROLE } from "../../db/migrations/0009-row-level-security";
import { SERVE_HOOKS, serveArgs } from "../../scripts/start";

export type RunningServer = {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM and wait for the exit (the server closes its pool and ends cleanly). */
  stop: () => Promise<void>;
  /** SIGKILL and wait for the exit: no handler runs, open sockets are closed by the kernel. */
  kill: () => Promise<void>;
  logs: string[];
};

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The environment every test server gets (secrets fixed so tests can sign cookies too). */
export function testServerEnv(port: number, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET: process.env.SESSION_SECRET ?? "test-session-secret-0123456789abcdef",
    PORTAL_TOKEN_SECRET: process.env.PORTAL_TOKEN_SECRET ?? "test-portal-secret-0123456789abcdef",
    LOG_LEVEL: process.env.SERVER_LOG_LEVEL ?? "error",
    ...extra,
  };
  // An override of undefined removes the variable (e.g. DATABASE_URL, to use the embedded database).
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** `npm run db:migrate` against the given environment's DATABASE_URL. */
function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const out: string[] = [];
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/db.ts"), "migrate"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => out.push(String(d)));
    child.stderr.on("data", (d) => out.push(String(d)));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed:\n${out.join("")}`))));
  });
}

/**
 * Starts the app as `npm start` serves it: `remix-serve build/index.js` (WEB_CONCURRENCY of them
 * on the one port under scripts/serve-cluster.mjs when that is over 1) against DATABASE_URL
 * (migrated by the test runner, or here when it is another database) on a free port, as the app role, with the hooks of
 * scripts/serve-hooks.mjs; `kill()` then reaches the very process that serves. With
 * DATABASE_URL removed (`{ DATABASE_URL: undefined }`) it runs scripts/start.ts instead, which
 * starts the embedded database in DATA_DIR, migrates and runs remix-serve itself. Ready once
 * remix-serve says it listens. Tests that need other configuration start their own.
 */
export async function startServer(extraEnv: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const logs: string[] = [];
  const env = testServerEnv(port, extraEnv);
  const viaStartScript = !env.DATABASE_URL;
  if (env.DATABASE_URL && env.DATABASE_URL !== process.env.DATABASE_URL) {
    // A database of the test's own (the runner migrated only its own): migrate it as npm start would.
    await migrate(env);
  }
  if (!viaStartScript) {
    env.DB_SET_ROLE = APP_ROLE;
    env.NODE_OPTIONS = [env.NODE_OPTIONS, `--import=${SERVE_HOOKS}`].filter(Boolean).join(" ");
  }
  // SERVER_EXEC_ARGV: node flags for the serving process (e.g. --cpu-prof, not allowed in NODE_OPTIONS).
  const execArgv = (env.SERVER_EXEC_ARGV ?? "").split(" ").filter(Boolean);
  const child = spawn(
    process.execPath,
    viaStartScript ? ["--import", "tsx", path.join(ROOT, "scripts/start.ts")] : [...execArgv, ...serveArgs(env)],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => logs.push(String(d)));
  child.stderr?.on("data", (d) => logs.push(String(d)));
  // DUMP_SERVER_LOG=<file>: every test server's output is also appended there, to read the
  // error behind a 500 (e.g. a run of the suite on a Citus cluster).
  const dump = process.env.DUMP_SERVER_LOG;
  if (dump) for (const out of [child.stdout, child.stderr]) out?.on("data", (d) => fs.appendFileSync(dump, String(d)));
  const url = `http://localhost:${port}`;
  // remix-serve says it listens once its server is up (the database may still be starting:
  // a test that needs it waits for /healthz itself).
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${logs.join("")}`));
    }, 60_000);
    const onData = () => {
      if (!logs.join("").includes(`[remix-serve] http://localhost:${port}`)) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      resolve();
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join("")}`));
    };
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
  const signal = (sig: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode) return resolve();
      child.once("exit", () => resolve());
      child.kill(sig);
    });
  return { url, port, child, logs, stop: () => signal("SIGTERM"), kill: () => signal("SIGKILL") };
}

/**
 * A process and all its descendants, parents first (Linux /proc): a server run with
 * WEB_CONCURRENCY > 1 serves from the children of its launcher. A process that ended meanwhile
 * is left out.
 */
export function processTree(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${p}/task/${p}/children`, "utf8");
    } catch {
      return;
    }
    out.push(p);
    for (const child of children.trim().split(/\s+/).filter(Boolean)) walk(Number(child));
  };
  walk(pid);
  return out;
}

/** A process's command line, its arguments joined by spaces ("" once it has ended). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}
