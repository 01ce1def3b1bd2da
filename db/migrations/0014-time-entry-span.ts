import type { Migration } from "../migrate";

/**
 * A time entry spans at most 24 hours (docs/decisions/192): the sync's argument
 * schema refuses longer ones with a message; the database holds the rule too, for any other
 * path. NOT VALID: rows stored before (a probe's 10-year entry) are left for a person to fix,
 * new and changed rows are checked.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE time_entries ADD CONSTRAINT time_entries_at_most_a_day
      CHECK (ended_at - started_at <= interval '24 hours') NOT VALID;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`ALTER TABLE time_entries DROP CONSTRAINT IF EXISTS time_entries_at_most_a_day;`);
};
