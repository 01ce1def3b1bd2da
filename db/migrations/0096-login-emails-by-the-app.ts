import type { Migration } from "../migrate";

/**
 * Sign-in's reference table `login_emails` is written by the app, in the same transaction as
 * the users it mirrors (db/login-emails.ts), no longer by a trigger on `users`: on Citus the
 * trigger fires on the worker holding the user's shard, and a write to a reference table from
 * there is refused ("cannot execute a distributed query from a query on a shard"), so no user
 * could be created (docs/decisions/228-citus-run.md). On one node nothing changes: every path
 * that inserts or deletes users writes the table (sign-up, adding a member, an import and its
 * undo, the seeds); none changes a user's e-mail.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TRIGGER users_login_email ON users;
    DROP FUNCTION users_login_email();
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE FUNCTION users_login_email() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
    CREATE TRIGGER users_login_email AFTER INSERT OR UPDATE OF email OR DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION users_login_email();
  `);
};
