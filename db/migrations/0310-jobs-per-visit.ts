import type { Migration } from "../migrate";

/**
 * The jobs billed per visit, by their key: the dashboard's "visits to invoice" starts from them.
 * Without it that list read every job of the tenant to find the (usually few) billed per visit,
 * on each dashboard view: 100,000 rows on a large tenant, for a list that is most often empty.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`CREATE INDEX jobs_per_visit ON jobs (tenant_id, id) WHERE billing = 'per_visit'`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP INDEX jobs_per_visit`);
};
