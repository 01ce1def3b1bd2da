import type { Migration } from "../migrate";

/**
 * Indexes the dashboard can bound under row-level security
 * (docs/decisions/480-dashboard-counts-kept-or-indexed.md): a condition with coalesce() is
 * never an index condition there (PostgreSQL treats it as possibly leaking a row the policy
 * hides), so the app's role read every sent quote through quotes_awaiting's coalesce(), and every
 * past job for the next jobs on the schedule.
 *
 * - quotes_awaiting by valid_until itself: the still-valid and the never-expiring sent quotes
 *   are two ranges of it.
 * - jobs_open_unstarted: the open jobs with no start that are not unscheduled (on hold, ...),
 *   the "no start" half of the next jobs; usually empty.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX quotes_awaiting;
    CREATE INDEX quotes_awaiting ON quotes (tenant_id, valid_until) WHERE status = 'sent';
    CREATE INDEX jobs_open_unstarted ON jobs (tenant_id, id)
     WHERE scheduled_start IS NULL AND status NOT IN ('completed', 'cancelled', 'unscheduled');`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX jobs_open_unstarted;
    DROP INDEX quotes_awaiting;
    CREATE INDEX quotes_awaiting ON quotes (tenant_id, coalesce(valid_until, 'infinity'::date)) INCLUDE (valid_until)
     WHERE status = 'sent';`);
};
