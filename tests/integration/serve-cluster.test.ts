// A server of several processes (WEB_CONCURRENCY, scripts/serve-cluster.mjs), as `npm start`
// runs them when asked: every serving process answers on the one port, one that dies is replaced
// while the others go on serving, a stop ends them all, and a process that cannot start stops
// the server instead of being restarted in a loop.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { test } from "node:test";
import { freePort } from "../../db/embedded";
import { parseEnv } from "../../app/utils/env.server";
import { serveArgs } from "../../scripts/start";
import { commandLine, processTree, ROOT, startServer, testServerEnv } from "../helpers/server";
import { eventually } from "../helpers/smtp";

const CLI = "@remix-run/serve/dist/cli.js";

/** The pids of the processes under the launcher `pid` that run remix-serve. */
const servingChildren = (pid: number) => processTree(pid).filter((p) => p !== pid && commandLine(p).includes(CLI));

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

/** A refused billing webhook on a connection of its own (the launcher deals connections in turn). */
function refusedWebhook(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/billing/stripe/webhook`,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}

test("the number of serving processes: WEB_CONCURRENCY, else one", () => {
  assert.equal(parseEnv({ NODE_ENV: "test", WEB_CONCURRENCY: "3" }).WEB_CONCURRENCY, 3);
  assert.equal(parseEnv({ NODE_ENV: "test" }).WEB_CONCURRENCY, 1);
  assert.match(serveArgs({ WEB_CONCURRENCY: "1" }).join(" "), /^\S+@remix-run\/serve\/dist\/cli\.js build\/index\.js$/);
  assert.match(serveArgs({}).join(" "), /^\S+@remix-run\/serve\/dist\/cli\.js build\/index\.js$/);
  assert.match(
    serveArgs({ WEB_CONCURRENCY: "2" }).join(" "),
    /^\S+scripts\/serve-cluster\.mjs \S+@remix-run\/serve\/dist\/cli\.js build\/index\.js$/,
  );
});

test("WEB_CONCURRENCY=2: both processes answer on the one port; one killed is replaced; a stop ends all", async () => {
  const server = await startServer({
    WEB_CONCURRENCY: "2",
    LOG_LEVEL: "info",
    BILLING_STRIPE_WEBHOOK_SECRET: "whsec_cluster_test_0123456789",
    BILLING_STRIPE_PRICE_PLANS: "price_pro:pro",
  });
  try {
    const primary = server.child.pid!;
    const first = await eventually("two serving processes", () => {
      const pids = servingChildren(primary);
      return pids.length === 2 && pids;
    });
    await eventually("both listening", () => server.logs.join("").split("[remix-serve]").length - 1 >= 2);

    // Each refusal is logged by the process that served it, with its pid.
    const codes = [];
    for (let i = 0; i < 8; i++) codes.push(await refusedWebhook(server.url));
    assert.ok(
      codes.every((c) => c === 400 || c === 401),
      `refused: ${codes.join(",")}`,
    );
    const loggedBy = () =>
      new Set(
        server.logs
          .join("")
          .split("\n")
          .filter((line) => line.includes('"billing webhook refused"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid),
      );
    await eventually("the refusals logged", () => loggedBy().size >= 2, 10_000);
    assert.deepEqual([...loggedBy()].sort(), [...first].sort(), "each serving process answered some");

    // One killed outright: a new one takes its place, and the server answers on.
    process.kill(first[0], "SIGKILL");
    const replaced = await eventually("a replacement", () => {
      const pids = servingChildren(primary);
      return pids.length === 2 && !pids.includes(first[0]) && pids;
    });
    assert.ok(replaced.includes(first[1]), "the other process was left alone");
    await eventually("the replacement listening", () => server.logs.join("").split("[remix-serve]").length - 1 >= 3);
    for (let i = 0; i < 4; i++) assert.equal(await refusedWebhook(server.url), codes[0]);
    await eventually(
      "the replacement answered",
      () => loggedBy().has(replaced.find((pid) => pid !== first[1])!),
      10_000,
    );

    await server.stop();
    assert.equal(server.child.exitCode, 0);
    await eventually("every serving process ended", () => replaced.every((pid) => !alive(pid)), 10_000);
  } finally {
    await server.kill();
  }
});

test("WEB_CONCURRENCY=2 without the preload: the server stops with the serving process's message, no restart loop", async () => {
  const port = await freePort();
  const env = testServerEnv(port, { DB_SET_ROLE: undefined, WEB_CONCURRENCY: "2" });
  env.NODE_OPTIONS = (env.NODE_OPTIONS ?? "")
    .split(" ")
    .filter((o) => !o.includes("serve-hooks"))
    .join(" ");
  const serve = spawn(process.execPath, serveArgs(env), { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  serve.stdout.on("data", (d) => (out += d));
  serve.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => serve.once("exit", resolve));
  assert.equal(code, 1, out);
  assert.match(out, /must start with its preload/);
  assert.match(out, /ended before it listened/);
  assert.doesNotMatch(out, /starting another/);
});
