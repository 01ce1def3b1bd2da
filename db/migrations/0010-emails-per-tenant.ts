import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * One e-mail, several businesses (docs/decisions/100): an e-mail is unique
 * within a tenant only. `users_email_key` (the one global unique index, which also kept `users`
 * from being distributed by tenant_id) goes.
 *
 * Sign-in needs e-mail -> (tenant, user): `login_emails`, a tenant table like the others
 * (tenant_id in its key and foreign key, row-level security), written by a trigger on `users`
 * so it changes in the same transaction as the user row, whichever code path writes the user
 * (signup, team add, the set-based import commit). Sign-in reads it through the SECURITY
 * DEFINER function `app_login_lookup`, now answering one row per business.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX users_email_key;
    CREATE UNIQUE INDEX users_tenant_email_key ON users (tenant_id, email);

    CREATE TABLE login_emails (
      tenant_id uuid NOT NULL,
      email text NOT NULL,
      user_id uuid NOT NULL,
      PRIMARY KEY (tenant_id, email),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX login_emails_email ON login_emails (email);
    INSERT INTO login_emails (tenant_id, email, user_id) SELECT tenant_id, email, id FROM users;
    ALTER TABLE login_emails ENABLE ROW LEVEL SECURITY;
    ALTER TABLE login_emails FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON login_emails
      USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
      WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
    GRANT SELECT, INSERT, UPDATE, DELETE ON login_emails TO ${APP_ROLE};

    CREATE FUNCTION users_login_email() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO login_emails (tenant_id, email, user_id) VALUES (NEW.tenant_id, NEW.email, NEW.id);
      ELSIF NEW.email <> OLD.email THEN
        UPDATE login_emails SET email = NEW.email WHERE tenant_id = OLD.tenant_id AND email = OLD.email;
      END IF;
      RETURN NEW;
    END $fn$;
    CREATE TRIGGER users_login_email AFTER INSERT OR UPDATE OF email ON users
      FOR EACH ROW EXECUTE FUNCTION users_login_email();

    DROP FUNCTION app_login_lookup(text);
    -- Every business the e-mail signs in to (at most 20: a person is not in more), with its name
    -- for the "which business?" page. Only sign-in calls it.
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
    REVOKE ALL ON FUNCTION app_login_lookup(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_login_lookup(text) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP FUNCTION app_login_lookup(text);
    CREATE FUNCTION app_login_lookup(p_email text)
      RETURNS TABLE (tenant_id uuid, id uuid, password_hash text)
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $fn$
        SELECT u.tenant_id, u.id, u.password_hash FROM users u WHERE u.email = p_email
      $fn$;
    REVOKE ALL ON FUNCTION app_login_lookup(text) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_login_lookup(text) TO ${APP_ROLE};
    DROP TRIGGER users_login_email ON users;
    DROP FUNCTION users_login_email();
    DROP TABLE login_emails;
    DROP INDEX users_tenant_email_key;
    CREATE UNIQUE INDEX users_email_key ON users (email);
  `);
};
