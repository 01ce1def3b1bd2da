import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../../db/embedded";

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

/**
 * Starts the built server (build/index.js) against DATABASE_URL on a free port and waits
 * until it says it is ready. Tests that need other configuration start their own.
 */
export async function startServer(extraEnv: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const logs: string[] = [];
  const child = fork(path.join(ROOT, "build/index.js"), [], {
    cwd: ROOT,
    env: testServerEnv(port, extraEnv),
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    execArgv: [],
  });
  child.stdout?.on("data", (d) => logs.push(String(d)));
  child.stderr?.on("data", (d) => logs.push(String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("")}`)), 30_000);
    child.on("message", (m: { ready?: boolean }) => {
      if (m?.ready) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join("")}`));
    });
  });
  child.removeAllListeners("exit");
  const signal = (sig: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode) return resolve();
      child.once("exit", () => resolve());
      child.kill(sig);
    });
  return { url: `http://localhost:${port}`, port, child, logs, stop: () => signal("SIGTERM"), kill: () => signal("SIGKILL") };
}
