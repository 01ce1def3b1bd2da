import type { Migration } from "../migrate";
import { functionSql } from "../functions";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/** The tables the board's week of visits is read from: a write to any of them moves the version. */
const TABLES = ["visits", "visit_assignees", "jobs", "customers", "booking_requests", "job_clocks"];
const EVENTS = [
  ["insert", "INSERT", "NEW TABLE AS new_rows"],
  ["update", "UPDATE", "NEW TABLE AS new_rows"],
  ["delete", "DELETE", "OLD TABLE AS old_rows"],
] as const;

/**
 * The board's version per tenant (docs/decisions/501-the-board-keeps-its-visits-until-a-write.md):
 * insert-only rows in `board_changes`, one per tenant a statement on the board's tables changed
 * (db/functions/board_changed.sql), folded by the summaries' fold. The version is their sum, read
 * in the view's own statement; a kept copy of the week's visits is used only while it is equal.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE board_changes (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      amount bigint NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX board_changes_sum ON board_changes (tenant_id) INCLUDE (amount);
    ${tenantTableSecurity("board_changes")}
  `);
  await sql.query(functionSql("board_changed"));
  await sql.query(
    TABLES.flatMap((table) =>
      EVENTS.map(
        ([name, event, rows]) => `
    CREATE TRIGGER ${table}_board_${name} AFTER ${event} ON ${table} REFERENCING ${rows}
      FOR EACH STATEMENT EXECUTE FUNCTION board_changed();`,
      ),
    ).join(""),
  );
  await sql.query(functionSql("summaries_fold"));
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(
    TABLES.flatMap((table) => EVENTS.map(([name]) => `DROP TRIGGER ${table}_board_${name} ON ${table};`)).join(""),
  );
  // The table stays: the summaries' fold (its current definition) folds it.
  await sql.query(`DROP FUNCTION board_changed()`);
};
