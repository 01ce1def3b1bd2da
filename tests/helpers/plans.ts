// What a query's plan read, from EXPLAIN (ANALYZE, FORMAT JSON) run in the tenant: tests judge
// the big firm's queries by the rows they read and the tables they scan whole, never by time.
import { inTenant, one } from "../../db/index";
import { APP_ROLE } from "../../db/migrations/0009-row-level-security";

/**
 * Rows the plan read from its tables (rows returned per loop, plus those its filters removed),
 * in all and per table, and its seq scans.
 */
export async function planReads(
  tenantId: string,
  sql: string,
  bind: unknown[],
  opts: { asOnBigTables?: boolean; asApp?: boolean } = {},
) {
  const plan = await inTenant(tenantId, async (t) => {
    // A test tenant's tables are small enough for PostgreSQL to scan whole; the big firm's are
    // not. `asOnBigTables` plans as it would there (an index wherever one fits).
    if (opts.asOnBigTables) {
      // On a Citus coordinator the setting must reach the workers, where the shards are planned;
      // on PostgreSQL alone the first line only sets an unused placeholder.
      await one(`SET LOCAL citus.propagate_set_commands = 'local'`, [], t);
      await one(`SET LOCAL enable_seqscan = off`, [], t);
    }
    // `asApp`: as the app's role, under row-level security, where a condition PostgreSQL
    // thinks may leak a hidden row (coalesce() of a column, say) is never an index condition.
    if (opts.asApp) await one(`SET LOCAL ROLE ${APP_ROLE}`, [], t);
    return (await one<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, bind, t))!["QUERY PLAN"];
  });
  let read = 0;
  const byTable: Record<string, number> = {};
  const seqScans: string[] = [];
  /** Every table a scan node of the plan reads (once per node). */
  const scans: string[] = [];
  /** Each scan node as "<node type> <table>" (an Index Only Scan reads no table rows). */
  const nodes: string[] = [];
  // On a Citus coordinator the plan is a "Custom Scan" whose "Distributed Query" holds each
  // task's plan on its worker, with the shards' names (`invoices_102106`): those plans are walked
  // as the plan, under the tables' own names, so the same checks hold on a cluster.
  const remote = (node: Record<string, unknown>) =>
    (
      (node["Distributed Query"] as { Job?: { Tasks?: Array<{ "Remote Plan"?: unknown[][] }> } } | undefined)?.Job
        ?.Tasks ?? []
    ).flatMap((task) => (task["Remote Plan"] ?? []).flat() as Array<{ Plan: Record<string, unknown> }>);
  const walk = (node: Record<string, unknown>, onShard = false) => {
    if (onShard && node["Relation Name"] !== undefined)
      node = { ...node, "Relation Name": String(node["Relation Name"]).replace(/_\d+$/, "") };
    for (const task of remote(node)) walk(task.Plan, true);
    const type = String(node["Node Type"]);
    if (type === "Seq Scan") seqScans.push(String(node["Relation Name"]));
    if (/^(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)$/.test(type)) {
      scans.push(String(node["Relation Name"]));
      nodes.push(`${type} ${String(node["Relation Name"])}`);
      // EXPLAIN gives the rows and the rows removed as averages per loop.
      const loops = Number(node["Actual Loops"] ?? 1);
      const n =
        (Number(node["Actual Rows"] ?? 0) +
          Number(node["Rows Removed by Filter"] ?? 0) +
          Number(node["Rows Removed by Index Recheck"] ?? 0)) *
        loops;
      read += n;
      const table = String(node["Relation Name"]);
      byTable[table] = (byTable[table] ?? 0) + n;
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, onShard);
  };
  walk((plan as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
  return { read, byTable, seqScans, scans, nodes };
}
