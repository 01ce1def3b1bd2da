import type { Migration } from "../migrate";
import { DISTRIBUTED_FUNCTIONS, DISTRIBUTION_ROOT, LOCAL_TABLES, REFERENCE_TABLES } from "../distribution";

const list = (names: readonly string[]) => `ARRAY[${names.map((n) => `'${n}'`).join(", ")}]::text[]`;

/**
 * On a Citus coordinator (the `citus` extension installed in this database), distributes the
 * schema by tenant as db/distribution.ts classifies it (docs/decisions/210-distribution.md,
 * docs/scale-out.md); on plain PostgreSQL it does nothing.
 *
 * - `tenants` by `id`, then every tenant table by `tenant_id`, co-located with it; reference
 *   tables copied to every node; local tables stay on the coordinator.
 * - Foreign keys are dropped before and re-created after, so the order of distribution does not
 *   matter (quotes and jobs refer to each other).
 * - The offline-sync procedures run on the worker holding the tenant (by `p_tenant`).
 * - `SET LOCAL app.tenant_id` (db/index.ts) reaches the workers' row-level security through
 *   `citus.propagate_set_commands = 'local'`, set for this database.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    DO $do$
    DECLARE
      fk record;
      t text;
      f record;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
      END IF;
      -- The tables' own triggers fire on the shards, and may read and write only the co-located
      -- shards of their row's tenant (invoices_job_link, jobs_schedule_sequence,
      -- payments_received_on). users_login_email wrote the reference table, which Citus refuses
      -- from a shard: migration 0096 replaces it with the app's writes (db/login-emails.ts).
      SET LOCAL citus.enable_unsafe_triggers = on;
      -- One connection per worker for the whole transaction: distributing a function after the
      -- tables in the same transaction is refused after a parallel (multi-connection) operation.
      SET LOCAL citus.multi_shard_modify_mode = 'sequential';
      CREATE TEMP TABLE distribution_fks ON COMMIT DROP AS
        SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
          FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace;
      FOR fk IN SELECT * FROM distribution_fks LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
      END LOOP;

      PERFORM create_distributed_table('${DISTRIBUTION_ROOT}', 'id');
      FOR t IN
        SELECT c.relname FROM pg_class c
         WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND c.relname <> '${DISTRIBUTION_ROOT}'
           AND c.relname <> ALL (${list([...REFERENCE_TABLES, ...LOCAL_TABLES])})
         ORDER BY 1
      LOOP
        PERFORM create_distributed_table(t, 'tenant_id', colocate_with => '${DISTRIBUTION_ROOT}');
      END LOOP;
      FOREACH t IN ARRAY ${list(REFERENCE_TABLES)} LOOP
        PERFORM create_reference_table(t);
      END LOOP;

      FOR fk IN SELECT * FROM distribution_fks LOOP
        EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
      END LOOP;

      FOR f IN SELECT * FROM (VALUES ${DISTRIBUTED_FUNCTIONS.map((d) => `('${d.signature}', '${d.argument}')`).join(", ")}) AS v(signature, argument) LOOP
        -- A function whose arguments changed later is distributed when its file is applied (db/functions.ts).
        CONTINUE WHEN to_regprocedure(f.signature) IS NULL;
        PERFORM create_distributed_function(f.signature::regprocedure, f.argument, colocate_with => '${DISTRIBUTION_ROOT}');
      END LOOP;

      EXECUTE format('ALTER DATABASE %I SET citus.propagate_set_commands = %L', current_database(), 'local');
    END
    $do$;
  `);
};

/** Undistributing is an operator's decision (undistribute_table), not a rollback step. */
export const down: Migration = async () => {};
