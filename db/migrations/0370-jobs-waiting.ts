import type { Migration } from "../migrate";

/**
 * The jobs waiting for a visit (no start, not completed or cancelled), oldest first: the board's
 * "Unscheduled" list takes the 100 oldest and their count from it. Without it both read every
 * waiting job of the tenant through jobs_schedule_order and sorted them, on every board view.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX jobs_waiting ON jobs (tenant_id, created_at, id)
     WHERE coalesce(scheduled_start, 'infinity'::timestamptz) = 'infinity'::timestamptz
       AND status NOT IN ('completed', 'cancelled')`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP INDEX jobs_waiting`);
};
