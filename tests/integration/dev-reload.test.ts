import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { freePort } from "../../db/embedded";
import { ROOT, testServerEnv } from "../helpers/server";

/**
 * `npm run dev` on a copy of the sources (so editing a route cannot disturb the production
 * build the other tests are served from): the development server answers, its pages carry the
 * live-reload script, and an edited route is served changed without a restart.
 */
const COPIED = ["app", "db", "scripts", "public", "remix.config.js", "remix.env.d.ts", "package.json", "tsconfig.json"];

async function waitFor<T>(what: string, logs: string[], fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what} within ${ms / 1000} s; the dev server said:\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

test(
  "npm run dev serves the app and an edited route is served changed without a restart",
  { timeout: 240_000 },
  async () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "fieldwork-dev-"));
    for (const entry of COPIED) {
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), {
        recursive: true,
        filter: (src) => !src.includes(`${path.sep}build${path.sep}`) && !src.endsWith(`${path.sep}build`),
      });
    }
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
    const port = await freePort();
    const env = testServerEnv(port, { DATA_DIR: path.join(copy, ".data"), LOG_LEVEL: "error" });
    Reflect.deleteProperty(env, "NODE_ENV"); // as `npm run dev` is run from a shell: the development mode is the script's own
    const logs: string[] = [];
    const child = spawn(process.execPath, ["--import", "tsx", path.join(copy, "scripts/start.ts"), "--dev"], {
      cwd: copy,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child.stdout.on("data", (d) => logs.push(String(d)));
    child.stderr.on("data", (d) => logs.push(String(d)));
    const url = `http://localhost:${port}`;
    const page = async (marker?: string) => {
      const res = await fetch(`${url}/login`);
      const html = await res.text();
      if (res.status !== 200) return undefined;
      return marker === undefined || html.includes(marker) ? html : undefined;
    };
    try {
      const first = await waitFor("the dev server to answer /login", logs, () => page(), 180_000);
      assert.match(first, /Sign in/);
      assert.ok(!first.includes("Welcome back, reloaded"), "the marker is not there before the edit");
      // The development build carries the live-reload client (pages reload themselves on a change).
      assert.match(first, /new WebSocket/, "the page carries the live-reload script");

      const route = path.join(copy, "app/routes/login.tsx");
      const source = fs.readFileSync(route, "utf8");
      assert.ok(source.includes('title="Sign in"'), "the login route still has the heading this test edits");
      fs.writeFileSync(route, source.replace('title="Sign in"', 'title="Welcome back, reloaded"'));

      const second = await waitFor(
        "the edited route to be served",
        logs,
        () => page("Welcome back, reloaded"),
        120_000,
      );
      assert.match(second, /Welcome back, reloaded/);
      assert.equal(child.exitCode, null, "the same dev server served both: it was not restarted");
    } finally {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once("exit", r));
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          child.kill("SIGTERM");
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (child.exitCode === null) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            /* already gone */
          }
        }
      }
      fs.rmSync(copy, { recursive: true, force: true });
    }
  },
);
