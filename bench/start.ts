/** B5: `npm start` (the built server) to the first 200 on /healthz, first run and warm. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../db/embedded";
import { BENCH_SECRETS, figure, type Figure } from "./lib";
import { ROOT } from "../tests/helpers/server";

/** Seconds from spawning `command` to the first 200 on /healthz. */
async function timeToHealthy(dataDir: string, command: string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    LOG_LEVEL: "error",
    ...BENCH_SECRETS,
  };
  delete env.DATABASE_URL;
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, env, stdio: "ignore", detached: true });
  try {
    for (let i = 0; i < 600; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.status === 200) return (performance.now() - started) / 1000;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("the server did not become healthy in 15 s");
  } finally {
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      process.kill(-child.pid!, "SIGTERM"); // the whole group: npm, and the node server it started
    });
  }
}

export async function benchStart(): Promise<Figure[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-bench-start-"));
  fs.chmodSync(dataDir, 0o755);
  try {
    const npmStart = ["npm", "start", "--silent"];
    const first = await timeToHealthy(dataDir, npmStart);
    const warm = await timeToHealthy(dataDir, npmStart);
    const serveOnly = await timeToHealthy(dataDir, [
      process.execPath,
      "--import",
      "tsx",
      path.join(ROOT, "scripts/start.ts"),
    ]);
    return [
      figure(
        "npm start to healthy, first run of the database (initdb, migrations; build as left by the bench)",
        first,
        "s",
        "<= 10",
        first <= 10,
      ),
      figure(
        "npm start to healthy, initialised database (build skipped: sources unchanged)",
        warm,
        "s",
        "<= 3",
        warm <= 3,
      ),
      figure(
        "scripts/start.ts (migrate, remix-serve) to healthy, initialised database",
        serveOnly,
        "s",
        "measured",
        null,
      ),
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
