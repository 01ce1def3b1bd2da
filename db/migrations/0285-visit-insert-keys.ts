import type { Migration } from "../migrate";

/**
 * Fewer checks per visit row (docs/decisions/425-visit-inserts.md): a visit's `tenant_id` is
 * already checked by its key to its job (tenant_id, job_id), and a crew row's by its key to its
 * visit (tenant_id, visit_id); both cascade from the job, and the job from its tenant, so a
 * tenant's deletion still takes them. The direct keys to `tenants` cost one more lookup per row
 * when a recurring series adds hundreds or thousands of visits at once.
 *
 * `visits_job` is built anew: when the planner cannot tell a tenant's size (a tenant newer than
 * the table's statistics) the costs of `visits_job` and `visits_start` tie for a job's visits,
 * and the tie went to `visits_start`, reading every visit of the tenant to find one job's (the
 * job's row follows its visits after every change). Of tied paths the newer index wins.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE visits DROP CONSTRAINT visits_tenant_id_fkey;
    ALTER TABLE visit_assignees DROP CONSTRAINT visit_assignees_tenant_id_fkey;
    DROP INDEX visits_job;
    CREATE INDEX visits_job ON visits (tenant_id, job_id, starts_at);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE visits ADD CONSTRAINT visits_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE;
    ALTER TABLE visit_assignees ADD CONSTRAINT visit_assignees_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE;
  `);
};
