import type { Migration } from "../migrate";

/**
 * Tenant isolation enforced by PostgreSQL (docs/decisions/080). The app serves requests as
 * `fieldservice_app` (SET ROLE on each pooled connection): it owns nothing, has no
 * BYPASSRLS, and sees a tenant's rows only inside a transaction that set `app.tenant_id`
 * (`inTenant`). Migrations, seeds and tests run as the owner.
 *
 * Tables without tenant_id are global: rate_limits, schema_migrations, billing_events (a
 * provider's event may name no tenant we know).
 */
export const APP_ROLE = "fieldservice_app";
// maintenance_runs (migration 0011) is global too: the cleanup's runs across all servers.
export const GLOBAL_TABLES = ["tenants", "rate_limits", "schema_migrations", "billing_events", "maintenance_runs"];

const CURRENT_TENANT = "NULLIF(current_setting('app.tenant_id', true), '')::uuid";
/** Inside a quoted SQL string (EXECUTE format('...')), quotes double. */
const quoted = (s: string) => s.replace(/'/g, "''");

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
        CREATE ROLE ${APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
      END IF;
    END $$;
    -- The migrating user may take the role (needed when it is not a superuser).
    DO $$ BEGIN
      EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
    EXCEPTION WHEN OTHERS THEN NULL;
    END $$;
    GRANT USAGE ON SCHEMA public TO ${APP_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${APP_ROLE};
    REVOKE ALL ON schema_migrations FROM ${APP_ROLE};

    ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
    ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON tenants USING (id = ${CURRENT_TENANT}) WITH CHECK (id = ${CURRENT_TENANT});

    DO $$ DECLARE r record; BEGIN
      FOR r IN
        SELECT c.table_name FROM information_schema.columns c
          JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
           AND c.table_name <> ALL (ARRAY[${GLOBAL_TABLES.map((t) => `'${t}'`).join(", ")}])
      LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', r.table_name);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.table_name);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = ${quoted(CURRENT_TENANT)}) WITH CHECK (tenant_id = ${quoted(CURRENT_TENANT)})', r.table_name);
      END LOOP;
    END $$;

    -- The two lookups that must cross tenants, as narrow SECURITY DEFINER functions:
    -- sign-in finds a user by email; a request finds its session (one round trip).
    CREATE FUNCTION app_login_lookup(p_email text)
      RETURNS TABLE (tenant_id uuid, id uuid, password_hash text)
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $fn$
        SELECT u.tenant_id, u.id, u.password_hash FROM users u WHERE u.email = p_email
      $fn$;
    CREATE FUNCTION app_session_user(p_tenant uuid, p_session text)
      RETURNS TABLE ("sessionId" text, "tenantId" uuid, "tenantName" text, "timeZone" text,
                     id uuid, email text, name text, role text, flash jsonb)
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $fn$
        SELECT s.id, s.tenant_id, t.name, t.time_zone, u.id, u.email, u.name, u.role, s.flash
          FROM sessions s
          JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
          JOIN tenants t ON t.id = s.tenant_id
         WHERE s.tenant_id = p_tenant AND s.id = p_session AND s.expires_at > now()
      $fn$;
    REVOKE ALL ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP FUNCTION IF EXISTS app_login_lookup(text), app_session_user(uuid, text);
    DO $$ DECLARE r record; BEGIN
      FOR r IN SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant_isolation' LOOP
        EXECUTE format('DROP POLICY tenant_isolation ON %I', r.tablename);
        EXECUTE format('ALTER TABLE %I NO FORCE ROW LEVEL SECURITY', r.tablename);
        EXECUTE format('ALTER TABLE %I DISABLE ROW LEVEL SECURITY', r.tablename);
      END LOOP;
    END $$;
    REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${APP_ROLE};
    REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${APP_ROLE};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM ${APP_ROLE};
    REVOKE USAGE ON SCHEMA public FROM ${APP_ROLE};
  `);
};
