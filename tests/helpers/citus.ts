// The test run's fresh database on a Citus cluster (docs/scale-out.md, scripts/citus-cluster.sh).
// Only when TEST_DATABASE_URL's server preloads citus and its database there has the extension
// with workers registered (the coordinator set up by the script): the new database is created
// on every worker with the extension, then the coordinator's copy gets the extension and the
// same workers, so migration 0081 distributes the schema. On any other server (plain
// PostgreSQL, the embedded one, CI) it does nothing.
import pg from "pg";

type Node = { nodename: string; nodeport: number; groupid: number };

function urlFor(base: string, host: string, port: number, database: string): string {
  const url = new URL(base);
  url.hostname = host;
  url.port = String(port);
  url.pathname = `/${database}`;
  return url.toString();
}

async function on<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The cluster's nodes as TEST_DATABASE_URL's database knows them; undefined when it is no Citus coordinator. */
async function clusterNodes(adminUrl: string): Promise<Node[] | undefined> {
  return on(adminUrl, async (c) => {
    const { rows } = await c.query<{ citus: boolean }>(
      `SELECT current_setting('shared_preload_libraries') ~ '\\mcitus\\M'
              AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`,
    );
    if (!rows[0]!.citus) return undefined;
    const nodes = await c.query<Node>(
      `SELECT nodename, nodeport, groupid FROM pg_dist_node WHERE isactive ORDER BY groupid, nodeid`,
    );
    return nodes.rows.some((n) => n.groupid !== 0) ? nodes.rows : undefined;
  });
}

/**
 * Called right after `CREATE DATABASE name` on the coordinator. Returns what drops the workers'
 * copies at the end, or undefined when the server is not a Citus coordinator.
 */
export async function citusTestDatabase(
  adminUrl: string,
  name: string,
): Promise<{ drop: () => Promise<void>; nodes: number } | undefined> {
  const nodes = await clusterNodes(adminUrl);
  if (!nodes) return undefined;
  const maintenance = new URL(adminUrl).pathname.slice(1) || "postgres";
  const coordinator = nodes.find((n) => n.groupid === 0);
  const workers = nodes.filter((n) => n.groupid !== 0);
  for (const w of workers) {
    await on(urlFor(adminUrl, w.nodename, w.nodeport, maintenance), (c) => c.query(`CREATE DATABASE ${name}`));
    await on(urlFor(adminUrl, w.nodename, w.nodeport, name), (c) => c.query(`CREATE EXTENSION citus`));
  }
  const url = new URL(adminUrl);
  await on(urlFor(adminUrl, url.hostname, Number(url.port || 5432), name), async (c) => {
    await c.query(`CREATE EXTENSION citus`);
    if (coordinator)
      await c.query(`SELECT citus_set_coordinator_host($1, $2)`, [coordinator.nodename, coordinator.nodeport]);
    for (const w of workers) await c.query(`SELECT citus_add_node($1, $2)`, [w.nodename, w.nodeport]);
  });
  return {
    nodes: nodes.length,
    drop: async () => {
      for (const w of workers) {
        await on(urlFor(adminUrl, w.nodename, w.nodeport, maintenance), (c) =>
          c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
        );
      }
    },
  };
}
