// What a query's plan read, from EXPLAIN (ANALYZE, FORMAT JSON) run in the tenant: tests judge
// the big firm's queries by the rows they read and the tables they scan whole, never by time.
import { inTenant, one } from "../../db/index";

/** Rows the plan read from its tables (rows returned per loop, plus those its filters removed), its seq scans and all its scans. */
export async function planReads(tenantId: string, sql: string, bind: unknown[]) {
  const plan = await inTenant(
    tenantId,
    async (t) =>
      (await one<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, bind, t))!["QUERY PLAN"],
  );
  let read = 0;
  const seqScans: string[] = [];
  /** Every table a scan node of the plan reads (once per node). */
  const scans: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const type = String(node["Node Type"]);
    if (type === "Seq Scan") seqScans.push(String(node["Relation Name"]));
    if (/^(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)$/.test(type))
      scans.push(String(node["Relation Name"]));
    if (/^(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)$/.test(type))
      read +=
        Number(node["Actual Rows"] ?? 0) * Number(node["Actual Loops"] ?? 1) +
        Number(node["Rows Removed by Filter"] ?? 0) +
        Number(node["Rows Removed by Index Recheck"] ?? 0);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
  return { read, seqScans, scans };
}
