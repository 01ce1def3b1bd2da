/**
 * Planner statistics after a bulk write (docs/decisions/234-statistics-after-bulk-writes.md).
 *
 * PostgreSQL checks every foreign key row by row with a plan it caches per connection: made on
 * the table's statistics when the connection first needed it, and kept until the table's
 * statistics change. A plan made while `customers` held 50 rows reads a whole tenant's
 * customers for each check once it holds 50,000. ANALYZE replaces the statistics and makes
 * every connection plan those checks again.
 */
import { rows } from "./index";

/**
 * The tables a CSV import writes to in bulk, whose planner statistics the app refreshes after
 * an import commits and before an undo; db/functions/app_refresh_statistics.sql refuses any other.
 */
export const BULK_WRITTEN_TABLES = [
  "customers",
  "customer_properties",
  "users",
  "jobs",
  "visits",
  "visit_assignees",
  "quotes",
  "quote_items",
  "invoices",
  "invoice_items",
  "payments",
] as const;

export type BulkTable = (typeof BULK_WRITTEN_TABLES)[number];

/** ANALYZE of `tables` (as their owner: app_refresh_statistics, migration 0105), in its own statement. */
export async function refreshStatistics(tables: readonly BulkTable[]): Promise<void> {
  if (tables.length) await rows(`SELECT app_refresh_statistics($1::text[])`, [tables]);
}

/** Those of `tables` whose statistics were last gathered (by anyone) before `since`, or never. */
export async function statisticsOlderThan(tables: readonly BulkTable[], since: Date): Promise<BulkTable[]> {
  const fresh = await rows<{ relname: BulkTable }>(
    `SELECT relname FROM pg_stat_user_tables
      WHERE schemaname = 'public' AND relname = ANY($1::text[])
        AND greatest(last_analyze, last_autoanalyze) >= $2`,
    [tables, since],
  );
  const known = new Set(fresh.map((r) => r.relname));
  return tables.filter((t) => !known.has(t));
}
