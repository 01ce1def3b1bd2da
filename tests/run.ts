/**
 * `npm test`: builds the app, starts a throw-away PostgreSQL (embedded, or a fresh database
 * in TEST_DATABASE_URL), migrates it, starts the built server on a free port, runs every
 * test file with node's test runner and ends with "N passed, N failed".
 *
 *   npm test                      every test
 *   npm test -- tests/unit        only files under a path (or matching a substring); a run of
 *                                 unit tests alone needs no build, database or server
 *   SKIP_BUILD=1 npm test         reuse build/ (when only tests changed)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import pg from "pg";
import { startEmbedded, type EmbeddedDb } from "../db/embedded";
import { citusTestDatabase } from "./helpers/citus";
import { closeDb, configureDb, db } from "../db/index";
import { migrateUp } from "../db/migrate";
import { findChromium } from "./helpers/browser";
import { buildIfStale } from "../scripts/build.mjs";
import { ROOT, startServer } from "./helpers/server";

const started = Date.now();
const filters = process.argv.slice(2);

function testFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.test\.tsx?$/.test(entry.name)) out.push(p);
    }
  };
  for (const group of ["unit", "integration", "e2e"]) {
    const dir = path.join(ROOT, "tests", group);
    if (fs.existsSync(dir)) walk(dir);
  }
  return out.filter(
    (f) => !filters.length || filters.some((s) => path.relative(ROOT, f).includes(s.replace(/^\.\//, ""))),
  );
}

/** Runs one of the house checks (type check, lint, layers) and collects its output. */
function houseCheck(
  name: string,
  command: string,
  args: string[],
): Promise<{ name: string; status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (error) => resolve({ name, status: 1, output: String(error) }));
    child.on("close", (status) => resolve({ name, status, output }));
  });
}

async function database(): Promise<{ url: string; stop: () => Promise<void> }> {
  const external = process.env.TEST_DATABASE_URL;
  if (!external) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldservice-test-pg-"));
    fs.chmodSync(dir, 0o755);
    const embedded: EmbeddedDb = await startEmbedded(path.join(dir, "data"), { database: "fieldservice_test" });
    return {
      url: embedded.url,
      stop: async () => {
        await embedded.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // A fresh database inside the given server, dropped at the end.
  const name = `fieldservice_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: external });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  // On a Citus coordinator (scripts/citus-cluster.sh): the database on every node, the workers
  // registered in it. Nothing on any other server.
  const citus = await citusTestDatabase(external, name);
  if (citus) console.log(`Citus: the test database ${name} spans ${citus.nodes} nodes.`);
  const url = new URL(external);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      const c = new pg.Client({ connectionString: external });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await citus?.drop();
    },
  };
}

/**
 * What integration and browser tests need: the production build (remade only when the sources
 * changed, scripts/build.mjs), a migrated throw-away database and the built server. Returns
 * what stops them.
 */
async function startServices(fileCount: number): Promise<{ stop: () => Promise<void>; chromium: boolean }> {
  // The production build, remade only when the sources changed (scripts/build.mjs).
  if (!process.env.SKIP_BUILD && buildIfStale()) console.log("Built the app.");
  const chromium = findChromium();
  if (!chromium) {
    // On CI the browser tests are part of the promise: a missing Chromium fails the run
    // instead of turning them into skips that pass.
    if (process.env.CI === "true") {
      console.log(
        "\nChromium was not found (set CHROMIUM_PATH or install `chromium`), and on CI (CI=true) the browser tests must run.",
      );
      console.log("0 passed, 1 failed");
      process.exit(1);
    }
    console.log(
      "\n*** Chromium was not found (set CHROMIUM_PATH or install `chromium`): the browser tests will be SKIPPED. ***\n",
    );
  }

  const dbHandle = await database();
  process.env.DATABASE_URL = dbHandle.url;
  configureDb({ url: dbHandle.url });
  // The test files' own database use: db/ reads no environment (tests/helpers/db-options.mjs).
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--import=${path.join(ROOT, "tests/helpers/db-options.mjs")}`]
    .filter(Boolean)
    .join(" ");
  process.env.SESSION_SECRET ??= "test-session-secret-0123456789abcdef";
  process.env.PORTAL_TOKEN_SECRET ??= "test-portal-secret-0123456789abcdef";
  await migrateUp(db());
  await closeDb();
  const server = await startServer();
  process.env.BASE_URL = server.url;
  process.env.APP_URL = server.url;
  process.env.TEST_SERVER_PID = String(server.child.pid);
  console.log(`Database ready, server on ${server.url}; running ${fileCount} test files.\n`);
  let finished = false;
  server.child.once("exit", (code, signal) => {
    if (finished) return;
    console.error(
      `\n*** The shared test server exited during the run (code ${code}, signal ${signal}). Its last output:\n${server.logs.join("").slice(-4000)}\n`,
    );
  });
  return {
    chromium: !!chromium,
    stop: async () => {
      finished = true;
      await server.stop();
      await dbHandle.stop();
    },
  };
}

async function main() {
  const files = testFiles();
  if (!files.length) {
    console.error(`No test files match ${filters.join(" ")}`);
    process.exit(1);
  }
  // The whole suite (what CI runs) starts with the house checks, side by side: the type check,
  // the lint, the format (Prettier) and the layers and cycles (docs/architecture.md). Any error fails `npm test`
  // before a test runs. A run of a few files skips them (SKIP_TYPECHECK=1 skips them always).
  if (!filters.length && !process.env.SKIP_TYPECHECK) {
    const started = Date.now();
    const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);
    const checks = await Promise.all([
      houseCheck("the type check (tsc --noEmit)", process.execPath, [
        path.join(ROOT, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "-p",
        ROOT,
      ]),
      houseCheck("the lint (eslint .)", bin("eslint"), ["--max-warnings", "0", "."]),
      houseCheck("the format (prettier --check .)", bin("prettier"), ["--check", "--log-level", "warn", "."]),
      houseCheck("the layers and cycles (depcruise)", bin("depcruise"), [
        "app",
        "db",
        "scripts",
        "--config",
        ".dependency-cruiser.cjs",
        "--output-type",
        "err",
      ]),
    ]);
    const failed = checks.filter((c) => c.status !== 0);
    for (const c of failed) console.log(`${c.output}\n${c.name} failed: fix the errors above.`);
    if (failed.length) {
      console.log(`0 passed, ${failed.length} failed`);
      process.exit(1);
    }
    console.log(
      `Type check, lint, format, layers and cycles passed (${((Date.now() - started) / 1000).toFixed(1)} s).`,
    );
  }
  // Unit tests are pure: a run of them alone starts no build, database, server or browser.
  const unitOnly = files.every((f) => path.relative(ROOT, f).startsWith(path.join("tests", "unit") + path.sep));
  const services = unitOnly ? { stop: async () => {}, chromium: true } : await startServices(files.length);
  if (unitOnly) console.log(`Unit tests only: no build, database or server; running ${files.length} test files.\n`);

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures: string[] = [];
  // Each test is bounded by itself (a long one says its own `timeout`); a file only by a guard
  // against a hang, far above any file's time on a loaded machine, so a busy machine that
  // makes a long file slow does not fail a run whose tests all pass.
  const stream = run({
    files,
    concurrency: Number(process.env.TEST_CONCURRENCY ?? 2),
    timeout: Number(process.env.TEST_FILE_TIMEOUT_MS ?? 60 * 60_000),
  });
  stream.on("test:pass", (t) => {
    if (t.details?.type === "suite" || (t.nesting === 0 && files.includes(t.name))) return;
    if (t.skip || t.todo) skipped++;
    else passed++;
  });
  stream.on("test:fail", (t) => {
    if (t.details?.type === "suite" || (t.nesting === 0 && files.includes(t.name))) {
      // A file that failed outside any test (a crash at import) counts as one failure.
      if (t.nesting === 0 && files.includes(t.name)) {
        failed++;
        failures.push(`${path.relative(ROOT, t.name)} (the file itself failed)`);
      }
      return;
    }
    failed++;
    failures.push(`${t.file ? path.relative(ROOT, t.file) + ": " : ""}${t.name}`);
  });
  await new Promise<void>((resolve) => {
    stream.compose(new spec()).pipe(process.stdout);
    stream.on("end", () => resolve());
    stream.on("close", () => resolve());
  });

  await services.stop();
  if (failures.length) {
    console.log("\nFailed:");
    for (const f of failures) console.log(`  - ${f}`);
  }
  console.log(
    `\nTook ${((Date.now() - started) / 1000).toFixed(1)} s.${services.chromium ? "" : " Browser tests were skipped: no Chromium."}`,
  );
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
