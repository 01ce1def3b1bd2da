import type { Migration } from "../migrate";

// The schedule (docs/decisions/130-133).
// - jobs.schedule_sequence is the iCalendar SEQUENCE of the job's event: it counts the job's
//   moves (start, end, assignee) and its cancellation or reopening. A trigger keeps it, so
//   every writer (the schedule action, the job form, an import, the field app) bumps it in
//   the same statement, and none can forget: a calendar that saw version n takes version n+1.
// - calendar_feeds: one row per subscription link of a member's jobs. The token is signed
//   over (tenant, feed id) like a portal token; the row says whose jobs and whether it was
//   revoked, so revoking stops the feed at once. At most one live feed per member.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE jobs ADD COLUMN schedule_sequence integer NOT NULL DEFAULT 0 CHECK (schedule_sequence >= 0);

    CREATE FUNCTION jobs_bump_schedule_sequence() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF NEW.scheduled_start IS DISTINCT FROM OLD.scheduled_start
         OR NEW.scheduled_end IS DISTINCT FROM OLD.scheduled_end
         OR NEW.assignee_id IS DISTINCT FROM OLD.assignee_id
         OR ((NEW.status = 'cancelled') IS DISTINCT FROM (OLD.status = 'cancelled')) THEN
        NEW.schedule_sequence := OLD.schedule_sequence + 1;
      END IF;
      RETURN NEW;
    END
    $fn$;
    CREATE TRIGGER jobs_schedule_sequence BEFORE UPDATE ON jobs
      FOR EACH ROW EXECUTE FUNCTION jobs_bump_schedule_sequence();

    -- The board reads one technician row's jobs of a day or week by time.
    CREATE INDEX jobs_schedule_window ON jobs (tenant_id, scheduled_start, assignee_id) WHERE scheduled_start IS NOT NULL;

    CREATE TABLE calendar_feeds (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL,
      created_by uuid NOT NULL,
      revoked_at timestamptz,
      revoked_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id),
      FOREIGN KEY (tenant_id, revoked_by) REFERENCES users (tenant_id, id)
    );
    CREATE UNIQUE INDEX calendar_feeds_live ON calendar_feeds (tenant_id, user_id) WHERE revoked_at IS NULL;

    -- Row-level security as on every tenant table (0009 covered the tables made before it).
    ALTER TABLE calendar_feeds ENABLE ROW LEVEL SECURITY;
    ALTER TABLE calendar_feeds FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON calendar_feeds
      USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
      WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
    GRANT SELECT, INSERT, UPDATE, DELETE ON calendar_feeds TO fieldservice_app;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TABLE calendar_feeds;
    DROP INDEX jobs_schedule_window;
    DROP TRIGGER jobs_schedule_sequence ON jobs;
    DROP FUNCTION jobs_bump_schedule_sequence();
    ALTER TABLE jobs DROP COLUMN schedule_sequence;
  `);
};
