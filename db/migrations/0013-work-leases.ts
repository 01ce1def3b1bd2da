import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

const CURRENT_TENANT = "NULLIF(current_setting('app.tenant_id', true), '')::uuid";

/**
 * Fair sharing (docs/decisions/193): a lease per piece of expensive work a request is
 * doing (a search, a report, an import preview or commit), so that one tenant, and one user,
 * can run only so many at once, across every app server.
 *
 * - `work_leases`: one row per running piece of work, with the tenant, the user and the kind.
 *   A lease ends when its request ends (deleted), or at `expires_at` if the server died.
 * - `app_claim_work(...)`: in one statement, serialised per tenant and kind by a
 *   transaction-scoped advisory lock: drops the tenant's expired leases of the kind, counts the
 *   live ones (the tenant's and the user's) and takes a lease when both are under their limit.
 *   It sets `app.tenant_id` itself, so row-level security applies as everywhere else.
 * - `app_release_work(tenant, id)`: ends a lease.
 * - Customer search: one or two characters search the start of the name or e-mail (a trigram
 *   index cannot help with fewer than three), by these two indexes.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE work_leases (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      user_id uuid,
      kind text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX work_leases_kind ON work_leases (tenant_id, kind, expires_at);
    ALTER TABLE work_leases ENABLE ROW LEVEL SECURITY;
    ALTER TABLE work_leases FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON work_leases USING (tenant_id = ${CURRENT_TENANT}) WITH CHECK (tenant_id = ${CURRENT_TENANT});
    GRANT SELECT, INSERT, UPDATE, DELETE ON work_leases TO ${APP_ROLE};

    CREATE FUNCTION app_claim_work(p_tenant uuid, p_user uuid, p_kind text, p_tenant_max int, p_user_max int, p_seconds int)
      RETURNS uuid LANGUAGE plpgsql SET search_path = public AS $fn$
    DECLARE
      n_tenant int;
      n_user int;
      v_id uuid;
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      PERFORM pg_advisory_xact_lock(hashtextextended('work_leases:' || p_tenant::text || ':' || p_kind, 0));
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind AND expires_at <= clock_timestamp();
      SELECT count(*), count(*) FILTER (WHERE user_id = p_user) INTO n_tenant, n_user
        FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind;
      IF n_tenant >= p_tenant_max OR (p_user IS NOT NULL AND n_user >= p_user_max) THEN
        RETURN NULL;
      END IF;
      INSERT INTO work_leases (tenant_id, user_id, kind, expires_at)
        VALUES (p_tenant, p_user, p_kind, clock_timestamp() + make_interval(secs => p_seconds))
        RETURNING id INTO v_id;
      RETURN v_id;
    END $fn$;

    CREATE FUNCTION app_release_work(p_tenant uuid, p_id uuid) RETURNS void
      LANGUAGE plpgsql SET search_path = public AS $fn$
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND id = p_id;
    END $fn$;
    GRANT EXECUTE ON FUNCTION app_claim_work(uuid, uuid, text, int, int, int), app_release_work(uuid, uuid) TO ${APP_ROLE};

    CREATE INDEX customers_name_prefix ON customers (tenant_id, lower(name) text_pattern_ops);
    CREATE INDEX customers_email_prefix ON customers (tenant_id, lower(email) text_pattern_ops);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX IF EXISTS customers_email_prefix, customers_name_prefix;
    DROP FUNCTION IF EXISTS app_claim_work(uuid, uuid, text, int, int, int), app_release_work(uuid, uuid);
    DROP TABLE IF EXISTS work_leases;
  `);
};
