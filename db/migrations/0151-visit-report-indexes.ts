import type { Migration } from "../migrate";

/**
 * Readers of visits by when (docs/decisions/320-crews-and-visit-sync.md, 321-visit-reminders.md):
 * - the report of visits completed per week reads a tenant's completed visits by completion time;
 * - the reminders' due query looks, across tenants, for scheduled visits starting within two days.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX visits_completed ON visits (tenant_id, completed_at) WHERE status = 'completed';
    CREATE INDEX visits_scheduled_start ON visits (starts_at) WHERE status = 'scheduled';
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP INDEX visits_completed; DROP INDEX visits_scheduled_start;`);
};
