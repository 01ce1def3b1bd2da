import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * The cleanup (docs/decisions/102): expired sessions, stale rate-limit rows and previews past
 * their life are removed in bounded batches, once per interval across every app server.
 *
 * - `maintenance_runs`: one row per run (which job, when, which server, its figures). A run
 *   claims its interval inside a transaction holding `pg_try_advisory_xact_lock`, and only
 *   when no run of the job started within the interval, so two servers never both run it.
 *   It holds no tenant data; row-level security is on with an open policy so the rule "every
 *   table has RLS" keeps no exception.
 * - `app_cleanup_batch(kind, batch)`: SECURITY DEFINER, since the app role sees one tenant's
 *   rows only and the cleanup crosses tenants; it deletes at most `batch` rows of one kind
 *   and answers how many.
 */
/** The cleanup's one cross-tenant function, as first written (migration 0083 adds a kind to it). */
export const CLEANUP_BATCH_FUNCTION = `
    CREATE FUNCTION app_cleanup_batch(p_kind text, p_batch int) RETURNS int
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
    DECLARE n int := 0;
    BEGIN
      IF p_kind = 'sessions' THEN
        DELETE FROM sessions s USING (
          SELECT tenant_id, id FROM sessions WHERE expires_at < now() LIMIT p_batch
        ) old WHERE s.tenant_id = old.tenant_id AND s.id = old.id;
      ELSIF p_kind = 'rate_limits' THEN
        -- rate-limiter-flexible stores the window's end in ms since the epoch.
        DELETE FROM rate_limits r USING (
          SELECT key FROM rate_limits WHERE expire IS NOT NULL AND expire < (extract(epoch FROM now()) * 1000)::bigint LIMIT p_batch
        ) old WHERE r.key = old.key;
      ELSIF p_kind = 'previews' THEN
        -- A preview lives 24 hours: its stored chunks go, the run says it was superseded.
        WITH old AS (
          SELECT d.tenant_id, d.run_id, d.kind, d.seq FROM import_run_data d
            JOIN import_runs r ON r.tenant_id = d.tenant_id AND r.id = d.run_id
           WHERE r.state IN ('previewed', 'superseded') AND r.created_at < now() - interval '24 hours'
           LIMIT p_batch
        ) DELETE FROM import_run_data d USING old
           WHERE d.tenant_id = old.tenant_id AND d.run_id = old.run_id AND d.kind = old.kind AND d.seq = old.seq;
        GET DIAGNOSTICS n = ROW_COUNT;
        UPDATE import_runs r SET state = 'superseded', superseded_at = now()
         WHERE r.state = 'previewed' AND r.created_at < now() - interval '24 hours'
           AND NOT EXISTS (SELECT 1 FROM import_run_data d WHERE d.tenant_id = r.tenant_id AND d.run_id = r.id);
        RETURN n;
      ELSE
        RAISE EXCEPTION 'unknown cleanup kind %', p_kind;
      END IF;
      GET DIAGNOSTICS n = ROW_COUNT;
      RETURN n;
    END $fn$;
`;

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE maintenance_runs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      job text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      finished_at timestamptz,
      server text,
      figures jsonb
    );
    CREATE INDEX maintenance_runs_job ON maintenance_runs (job, started_at DESC);
    ALTER TABLE maintenance_runs ENABLE ROW LEVEL SECURITY;
    ALTER TABLE maintenance_runs FORCE ROW LEVEL SECURITY;
    CREATE POLICY open_to_app ON maintenance_runs USING (true) WITH CHECK (true);
    GRANT SELECT, INSERT, UPDATE ON maintenance_runs TO ${APP_ROLE};

    ${CLEANUP_BATCH_FUNCTION}
    REVOKE ALL ON FUNCTION app_cleanup_batch(text, int) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_cleanup_batch(text, int) TO ${APP_ROLE};
    CREATE INDEX IF NOT EXISTS rate_limits_expire ON rate_limits (expire);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX IF EXISTS rate_limits_expire;
    DROP FUNCTION app_cleanup_batch(text, int);
    DROP TABLE maintenance_runs;
  `);
};
