import type { Migration } from "../migrate";

/**
 * Crews (docs/decisions/320-crews-and-visit-sync.md): every member of a visit's crew has their
 * own clock. `job_clocks` held the one running clock of a job; it now holds one per technician
 * and job (the key takes `user_id`), and names the visit it runs on (`visit_id`; a clock
 * started before visits names the job's one visit). Stopping a clock makes that technician's
 * time entry on that visit; the first "Complete" of a crew stops every member's clock.
 *
 * Rolling back keeps the earliest clock of each job (the one the old key allowed) and turns the
 * others into time entries up to now, so no worked time is lost.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE job_clocks ADD COLUMN visit_id uuid;
    UPDATE job_clocks k SET visit_id = (
      SELECT v.id FROM visits v WHERE v.tenant_id = k.tenant_id AND v.job_id = k.job_id
       ORDER BY (v.status IN ('en_route', 'in_progress', 'on_hold')) DESC, v.starts_at DESC, v.id LIMIT 1);
    ALTER TABLE job_clocks DROP CONSTRAINT job_clocks_pkey;
    ALTER TABLE job_clocks ADD PRIMARY KEY (tenant_id, job_id, user_id);
  `);
  // A foreign key from a table distributed before this migration comes in its own query (db/migrate.ts).
  await sql.query(`
    ALTER TABLE job_clocks ADD CONSTRAINT job_clocks_visit_fkey
      FOREIGN KEY (tenant_id, visit_id) REFERENCES visits (tenant_id, id) ON DELETE CASCADE;
  `);
  await sql.query(`CREATE INDEX job_clocks_visit ON job_clocks (tenant_id, visit_id) WHERE visit_id IS NOT NULL`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, visit_id)
    SELECT k.tenant_id, k.job_id, k.user_id, k.started_at, least(greatest(now(), k.started_at), k.started_at + interval '24 hours'), k.visit_id
      FROM job_clocks k
     WHERE EXISTS (SELECT 1 FROM job_clocks o WHERE o.tenant_id = k.tenant_id AND o.job_id = k.job_id
                      AND (o.started_at, o.user_id) < (k.started_at, k.user_id));
    DELETE FROM job_clocks k
     WHERE EXISTS (SELECT 1 FROM job_clocks o WHERE o.tenant_id = k.tenant_id AND o.job_id = k.job_id
                      AND (o.started_at, o.user_id) < (k.started_at, k.user_id));
    DROP INDEX job_clocks_visit;
    ALTER TABLE job_clocks DROP CONSTRAINT job_clocks_visit_fkey;
    ALTER TABLE job_clocks DROP COLUMN visit_id;
    ALTER TABLE job_clocks DROP CONSTRAINT job_clocks_pkey;
    ALTER TABLE job_clocks ADD PRIMARY KEY (tenant_id, job_id);
  `);
};
