import type { Migration } from "../migrate";

const TRIGGERS = [
  ["visits_sync_job_insert", "INSERT", "visits", "NEW"],
  ["visits_sync_job_update", "UPDATE", "visits", "NEW"],
  ["visits_sync_job_delete", "DELETE", "visits", "OLD"],
  ["visit_assignees_sync_job_insert", "INSERT", "visit_assignees", "NEW"],
  ["visit_assignees_sync_job_update", "UPDATE", "visit_assignees", "NEW"],
  ["visit_assignees_sync_job_delete", "DELETE", "visit_assignees", "OLD"],
] as const;

const triggers = (argument: (table: string) => string) =>
  TRIGGERS.map(
    ([name, event, table, rows]) => `
    DROP TRIGGER ${name} ON ${table};
    CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${rows} TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job(${argument(table)});`,
  ).join("");

/**
 * The visit triggers' function (db/functions/visits_sync_job.sql) is told which table fired it
 * by the trigger's argument, 'visits' or 'crew', instead of matching TG_TABLE_NAME: on a Citus
 * cluster the trigger fires on a shard, whose name is the table's with the shard's id
 * (docs/decisions/496-summaries-on-a-citus-cluster.md). Databases made before this had the
 * triggers without an argument.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(triggers((table) => (table === "visits" ? "'visits'" : "'crew'")));
};

/** Down keeps the arguments: the current function file reads them (an older one ignores them). */
export const down: Migration = async () => {};
