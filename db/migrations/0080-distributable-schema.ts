import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * The schema made distributable by tenant on Citus while single-node PostgreSQL stays exactly
 * as correct (docs/decisions/210-distribution.md). The rules are checked by
 * tests/integration/distribution-schema.test.ts.
 *
 * - Foreign keys that set a column to NULL on delete become NO ACTION (Citus refuses SET NULL
 *   on a key holding the distribution column). Nothing is lost on one node: the app never
 *   deletes a row others refer to (an import's undo refuses while anything outside the import
 *   refers to its records), and deleting a tenant cascades to every referring row in the same
 *   statement, where NO ACTION is checked after the cascade.
 * - billing_events (a local table: stored before its tenant is known) and login_emails (a
 *   reference table read by sign-in across tenants) refer to no tenant table. A user's
 *   login_emails row leaves with the user through the trigger that writes it.
 * - The two SQL-language lookups are PL/pgSQL: an SQL function with parameters is inlined
 *   into the calling query and cannot be planned as one tenant's query on the cluster. Sign-in
 *   reads the reference table first, then each business's user by its key.
 */
const SET_NULL_KEYS: Array<[table: string, name: string, columns: string, target: string, nulled: string]> = [
  [
    "booking_requests",
    "booking_requests_tenant_id_portal_link_id_fkey",
    "tenant_id, portal_link_id",
    "portal_links",
    "portal_link_id",
  ],
  ["booking_requests", "booking_requests_tenant_id_triaged_by_fkey", "tenant_id, triaged_by", "users", "triaged_by"],
  ["import_runs", "import_runs_tenant_id_committed_by_fkey", "tenant_id, committed_by", "users", "committed_by"],
  ["import_runs", "import_runs_tenant_id_created_by_fkey", "tenant_id, created_by", "users", "created_by"],
  ["import_runs", "import_runs_tenant_id_undone_by_fkey", "tenant_id, undone_by", "users", "undone_by"],
  ["invites", "invites_tenant_id_created_by_fkey", "tenant_id, created_by", "users", "created_by"],
  ["invoices", "invoices_tenant_id_quote_id_fkey", "tenant_id, quote_id", "quotes", "quote_id"],
  ["job_events", "job_events_tenant_id_user_id_fkey", "tenant_id, user_id", "users", "user_id"],
  ["job_notes", "job_notes_tenant_id_author_id_fkey", "tenant_id, author_id", "users", "author_id"],
  ["jobs", "jobs_tenant_id_assignee_id_fkey", "tenant_id, assignee_id", "users", "assignee_id"],
  ["portal_links", "portal_links_tenant_id_created_by_fkey", "tenant_id, created_by", "users", "created_by"],
  ["portal_links", "portal_links_tenant_id_revoked_by_fkey", "tenant_id, revoked_by", "users", "revoked_by"],
  ["tenant_settings", "tenant_settings_tenant_id_updated_by_fkey", "tenant_id, updated_by", "users", "updated_by"],
  ["time_entries", "time_entries_tenant_id_user_id_fkey", "tenant_id, user_id", "users", "user_id"],
];

const rekey = (action: (nulled: string) => string) =>
  SET_NULL_KEYS.map(
    ([table, name, columns, target, nulled]) =>
      `ALTER TABLE ${table} DROP CONSTRAINT ${name},
         ADD CONSTRAINT ${name} FOREIGN KEY (${columns}) REFERENCES ${target} (tenant_id, id)${action(nulled)};`,
  ).join("\n");

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ${rekey(() => "")}

    ALTER TABLE billing_events DROP CONSTRAINT billing_events_tenant_id_fkey;

    ALTER TABLE login_emails DROP CONSTRAINT login_emails_tenant_id_user_id_fkey;
    CREATE OR REPLACE FUNCTION users_login_email() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO login_emails (tenant_id, email, user_id) VALUES (NEW.tenant_id, NEW.email, NEW.id);
      ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM login_emails WHERE tenant_id = OLD.tenant_id AND email = OLD.email;
        RETURN OLD;
      ELSIF NEW.email <> OLD.email THEN
        UPDATE login_emails SET email = NEW.email WHERE tenant_id = OLD.tenant_id AND email = OLD.email;
      END IF;
      RETURN NEW;
    END $fn$;
    DROP TRIGGER users_login_email ON users;
    CREATE TRIGGER users_login_email AFTER INSERT OR UPDATE OF email OR DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION users_login_email();

    DROP FUNCTION app_login_lookup(text);
    -- Every business the e-mail signs in to (at most 20), by name: the reference table first,
    -- then each business's user and name by key (one tenant's query each).
    CREATE FUNCTION app_login_lookup(p_email text)
      RETURNS TABLE (tenant_id uuid, id uuid, password_hash text, tenant_name text)
      LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $fn$
      DECLARE
        l record;
      BEGIN
        FOR l IN SELECT e.tenant_id, e.user_id FROM login_emails e WHERE e.email = p_email ORDER BY e.tenant_id LIMIT 20 LOOP
          RETURN QUERY SELECT u.tenant_id, u.id, u.password_hash, t.name
            FROM users u JOIN tenants t ON t.id = u.tenant_id
           WHERE u.tenant_id = l.tenant_id AND u.id = l.user_id AND t.id = l.tenant_id;
        END LOOP;
      END $fn$;

    DROP FUNCTION app_session_user(uuid, text);
    CREATE FUNCTION app_session_user(p_tenant uuid, p_session text)
      RETURNS TABLE ("sessionId" text, "tenantId" uuid, "tenantName" text, "timeZone" text,
                     id uuid, email text, name text, role text, flash jsonb)
      LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $fn$
      BEGIN
        RETURN QUERY SELECT s.id, s.tenant_id, t.name, t.time_zone, u.id, u.email, u.name, u.role, s.flash
          FROM sessions s
          JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
          JOIN tenants t ON t.id = s.tenant_id
         WHERE s.tenant_id = p_tenant AND t.id = p_tenant AND s.id = p_session AND s.expires_at > now();
      END $fn$;
    REVOKE ALL ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP FUNCTION app_session_user(uuid, text);
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
    DROP FUNCTION app_login_lookup(text);
    CREATE FUNCTION app_login_lookup(p_email text)
      RETURNS TABLE (tenant_id uuid, id uuid, password_hash text, tenant_name text)
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $fn$
        SELECT u.tenant_id, u.id, u.password_hash, t.name
          FROM login_emails l
          JOIN users u ON u.tenant_id = l.tenant_id AND u.id = l.user_id
          JOIN tenants t ON t.id = l.tenant_id
         WHERE l.email = p_email
         ORDER BY t.name, t.id
         LIMIT 20
      $fn$;
    REVOKE ALL ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_login_lookup(text), app_session_user(uuid, text) TO ${APP_ROLE};

    DROP TRIGGER users_login_email ON users;
    CREATE TRIGGER users_login_email AFTER INSERT OR UPDATE OF email ON users
      FOR EACH ROW EXECUTE FUNCTION users_login_email();
    ALTER TABLE login_emails ADD CONSTRAINT login_emails_tenant_id_user_id_fkey
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE;
    ALTER TABLE billing_events ADD CONSTRAINT billing_events_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE SET NULL;
    ${rekey((nulled) => ` ON DELETE SET NULL (${nulled})`)}
  `);
};
