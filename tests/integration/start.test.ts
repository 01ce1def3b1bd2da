import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Client } from "../helpers/client";
import { spawn } from "node:child_process";
import pg from "pg";
import { embeddedAddressFile, freePort } from "../../db/embedded";
import { commandLine, processTree, ROOT, startServer, testServerEnv } from "../helpers/server";
import { DEFAULT_PASSWORD } from "../../scripts/seeds/factories";
import { LoopbackSmtp } from "../helpers/smtp";

test("with no DATABASE_URL the server starts an embedded PostgreSQL whose data survives a restart", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-start-"));
  fs.chmodSync(dataDir, 0o755);
  const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: undefined, PORTAL_TOKEN_SECRET: undefined };
  const email = `restart-${Date.now()}@example.test`;
  try {
    let server = await startServer(env);
    try {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).data.status, "ok");
      const c = new Client(server.url);
      const res = await c.post("/signup", {
        businessName: "Persistent Plumbing",
        name: "Pat",
        email,
        password: "a-long-password-1",
      });
      assert.equal(res.status, 303);
    } finally {
      await server.stop();
    }
    assert.ok(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION")), "the cluster lives in DATA_DIR/pg");
    assert.ok(fs.existsSync(path.join(dataDir, "secrets.json")), "development secrets are kept in DATA_DIR");
    server = await startServer(env);
    try {
      const c = new Client(server.url);
      const login = await c.post("/login", { email, password: "a-long-password-1" });
      assert.equal(login.status, 303, "the tenant signed up before the restart can sign in");
      const dash = await c.get("/");
      assert.match(await dash.text(), /Persistent Plumbing/);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a first start on a fresh database runs its background workers (e-mail, reminders, cleanup) without an error", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-workers-"));
  fs.chmodSync(dataDir, 0o755);
  const smtp = await new LoopbackSmtp().start();
  const env = {
    DATABASE_URL: undefined,
    DATA_DIR: dataDir,
    SESSION_SECRET: undefined,
    PORTAL_TOKEN_SECRET: undefined,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Fieldwork <no-reply@example.test>",
    MAIL_WORKER: "on",
    MAIL_POLL_MS: "50",
    REMINDERS_INTERVAL_MS: "100",
    CLEANUP_INTERVAL_MS: "400",
    LOG_LEVEL: "error",
    // As `npm start` runs: without the test runner's preload, which configures the database of
    // every process it starts before the app itself does.
    NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "")
      .split(" ")
      .filter((o) => !o.includes("db-options"))
      .join(" "),
  };
  try {
    const server = await startServer(env);
    try {
      const c = new Client(server.url);
      const res = await c.post("/signup", {
        businessName: "Early Workers",
        name: "Pat",
        email: `workers-${Date.now()}@example.test`,
        password: "a-long-password-1",
      });
      assert.equal(res.status, 303, server.logs.join(""));
      // Many polls of each worker: the e-mail worker every 50 ms, reminders every 100 ms, the
      // cleanup's ticks every 200 ms.
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    } finally {
      await server.stop();
    }
    const logs = server.logs.join("");
    assert.doesNotMatch(logs, /configureDb|a batch failed|reminders failed|cleanup failed/, logs);
  } finally {
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("npm start prints its embedded database's address; npm run seed:demo uses that database while it runs", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-seed-"));
  fs.chmodSync(dataDir, 0o755);
  const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: undefined, PORTAL_TOKEN_SECRET: undefined };
  const domain = `running-${Date.now()}.test`;
  try {
    const server = await startServer(env);
    try {
      const said = /Embedded PostgreSQL: (postgres:\/\/\S+)/.exec(server.logs.join(""));
      assert.ok(said, `the address is printed: ${server.logs.join("")}`);
      const file = JSON.parse(fs.readFileSync(path.join(dataDir, "embedded-database.json"), "utf8"));
      assert.equal(file.url, said[1], "and written to DATA_DIR");
      assert.equal(fs.statSync(path.join(dataDir, "embedded-database.json")).mode & 0o077, 0, "for this user only");

      const seedEnv = testServerEnv(0, { ...env, DEMO_EMAIL_DOMAIN: domain });
      const seed = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const out: string[] = [];
        const child = spawn(process.execPath, ["--import", "tsx", "scripts/seeds/demo.ts"], {
          cwd: ROOT,
          env: seedEnv,
          stdio: ["ignore", "pipe", "pipe"],
        });
        child.stdout.on("data", (d) => out.push(String(d)));
        child.stderr.on("data", (d) => out.push(String(d)));
        child.once("exit", (code) => resolve({ code, out: out.join("") }));
      });
      assert.equal(seed.code, 0, seed.out);
      assert.match(seed.out, /Using the embedded PostgreSQL of the running npm start/);
      // The demo login works on the running server: the seed wrote into its database.
      const c = new Client(server.url);
      const login = await c.post("/login", { email: `owner@${domain}`, password: DEFAULT_PASSWORD });
      assert.equal(login.status, 303, "the demo owner signs in on the running server");
    } finally {
      await server.stop();
    }
    assert.ok(!fs.existsSync(path.join(dataDir, "embedded-database.json")), "the address goes with the start");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("in production the session cookie is Secure and __Host- prefixed; a missing secret stops the start", async () => {
  const server = await startServer({ NODE_ENV: "production" });
  try {
    const c = new Client(server.url);
    const res = await c.get("/login");
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith("__Host-csrf="));
    assert.ok(cookie, "the pre-login cookie is __Host- prefixed");
    assert.match(cookie!, /Secure/);
    assert.match(cookie!, /HttpOnly/);
    assert.match(res.headers.get("strict-transport-security") ?? "", /max-age=/);
  } finally {
    await server.stop();
  }
  await assert.rejects(
    startServer({ NODE_ENV: "production", SESSION_SECRET: undefined }),
    /SESSION_SECRET: required in production/,
  );
});

/** The command lines of a process and all its descendants (Linux /proc). */
const commandLines = (pid: number) => processTree(pid).map(commandLine);

test("a stop keeps the embedded database up until remix-serve has finished (an open event stream ends first)", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-stop-"));
  fs.chmodSync(dataDir, 0o755);
  const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: undefined, PORTAL_TOKEN_SECRET: undefined };
  try {
    const server = await startServer(env);
    try {
      const c = new Client(server.url);
      const signup = await c.post("/signup", {
        businessName: "Orderly Stops",
        name: "Pat",
        email: `stop-${Date.now()}@example.test`,
        password: "a-long-password-1",
      });
      assert.equal(signup.status, 303, server.logs.join(""));
      // A request still open when the stop comes: the event stream, cut by remix-serve's
      // graceful stop after 5 s.
      const stream = await fetch(`${server.url}/events`, { headers: { cookie: c.cookieHeader() } });
      assert.equal(stream.status, 200);
      const streamEnded = stream.text().then(
        () => true,
        () => true,
      );
      const { url } = JSON.parse(fs.readFileSync(embeddedAddressFile(dataDir), "utf8")) as { url: string };

      const stopped = server.stop();
      await new Promise((r) => setTimeout(r, 1_000));
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query<{ one: number }>("SELECT 1 AS one");
        assert.equal(rows[0].one, 1, "the database still serves while remix-serve finishes its requests");
      } finally {
        await db.end();
      }
      await stopped;
      assert.equal(await streamEnded, true);
      assert.equal(server.child.exitCode, 0, server.logs.join(""));
    } finally {
      await server.kill();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("`npm start` migrates, then serves the build with remix-serve (remix-serve build/index.js)", async () => {
  const port = await freePort();
  const start = spawn("npm", ["start"], {
    cwd: ROOT,
    env: testServerEnv(port),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: npm, the start script and remix-serve stop together
  });
  const logs: string[] = [];
  start.stdout.on("data", (d) => logs.push(String(d)));
  start.stderr.on("data", (d) => logs.push(String(d)));
  try {
    const deadline = Date.now() + 120_000;
    while (!logs.join("").includes(`[remix-serve] http://localhost:${port}`)) {
      assert.equal(start.exitCode, null, `npm start ended early:\n${logs.join("")}`);
      assert.ok(Date.now() < deadline, `npm start did not serve:\n${logs.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const health = await fetch(`http://localhost:${port}/healthz`);
    assert.equal(health.status, 200);
    const serving = commandLines(start.pid!).filter((cmd) =>
      cmd.includes("@remix-run/serve/dist/cli.js build/index.js"),
    );
    assert.equal(serving.length, 1, `one remix-serve process under npm start:\n${commandLines(start.pid!).join("\n")}`);
  } finally {
    const exited = new Promise((r) => start.once("exit", r));
    process.kill(-start.pid!, "SIGTERM");
    await exited;
  }
});

test("`remix-serve build/index.js` started without the preload stops with a clear message and serves nothing", async () => {
  const port = await freePort();
  const env = testServerEnv(port, { DB_SET_ROLE: undefined });
  // The runner's own preloads stay; only the server's is missing.
  env.NODE_OPTIONS = (env.NODE_OPTIONS ?? "")
    .split(" ")
    .filter((o) => !o.includes("serve-hooks"))
    .join(" ");
  const serve = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js"), "build/index.js"],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  serve.stdout.on("data", (d) => (out += d));
  serve.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => serve.once("exit", resolve));
  assert.equal(code, 1, out);
  assert.match(out, /must start with its preload: NODE_OPTIONS=--import=\.\/scripts\/serve-hooks\.mjs/);
  assert.doesNotMatch(out, /\[remix-serve\] http/);
  await assert.rejects(fetch(`http://localhost:${port}/healthz`));
});
