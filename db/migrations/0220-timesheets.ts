import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * Timesheets (docs/decisions/385-timesheets.md):
 *
 * - `tenants.week_starts_on` (an ISO weekday, 1 = Monday) and the overtime rules: over
 *   `overtime_weekly_minutes` a week (default 40 h) and, when set, over `overtime_daily_minutes`
 *   a day.
 * - `time_entries.kind` (`work`, `travel`, `break`), `state` (`counted`, or `pending`: a
 *   technician's manual entry, or a field entry that reached an approved week), `origin` (who
 *   made it: `field`, `office`, `technician`) and `on_site_at` (a field clock's "Start work":
 *   the time before it was travel). `job_id` may be empty: an hour the office adds that belongs
 *   to no job (the yard, training).
 * - `timesheet_weeks`: a person's approved week (a row is the lock; reopening deletes it).
 * - `timesheet_changes`: the history of every correction, approval and reopening, with reasons.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE tenants
      ADD COLUMN week_starts_on smallint NOT NULL DEFAULT 1 CONSTRAINT tenants_week_starts_on_check CHECK (week_starts_on BETWEEN 1 AND 7),
      ADD COLUMN overtime_weekly_minutes integer NOT NULL DEFAULT 2400 CONSTRAINT tenants_overtime_weekly_minutes_check CHECK (overtime_weekly_minutes BETWEEN 60 AND 10080),
      ADD COLUMN overtime_daily_minutes integer CONSTRAINT tenants_overtime_daily_minutes_check CHECK (overtime_daily_minutes IS NULL OR overtime_daily_minutes BETWEEN 60 AND 1440);

    ALTER TABLE time_entries
      ADD COLUMN kind text NOT NULL DEFAULT 'work' CONSTRAINT time_entries_kind_check CHECK (kind IN ('work', 'travel', 'break')),
      ADD COLUMN state text NOT NULL DEFAULT 'counted' CONSTRAINT time_entries_state_check CHECK (state IN ('counted', 'pending')),
      ADD COLUMN origin text NOT NULL DEFAULT 'field' CONSTRAINT time_entries_origin_check CHECK (origin IN ('field', 'office', 'technician')),
      ADD COLUMN on_site_at timestamptz,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
      ALTER COLUMN job_id DROP NOT NULL;
    ALTER TABLE time_entries ADD CONSTRAINT time_entries_on_site_within CHECK (on_site_at IS NULL OR on_site_at BETWEEN started_at AND ended_at);
    CREATE INDEX time_entries_user_time ON time_entries (tenant_id, user_id, started_at);

    CREATE TABLE timesheet_weeks (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      week_start date NOT NULL,
      approved_at timestamptz NOT NULL DEFAULT now(),
      approved_by uuid,
      PRIMARY KEY (tenant_id, user_id, week_start),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, approved_by) REFERENCES users (tenant_id, id)
    );
    ${tenantTableSecurity("timesheet_weeks")}

    CREATE TABLE timesheet_changes (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL,
      week_start date NOT NULL,
      entry_id uuid,
      action text NOT NULL CHECK (action IN ('add', 'update', 'delete', 'accept', 'discard', 'approve', 'reopen')),
      reason text CHECK (reason IS NULL OR length(reason) <= 500),
      before jsonb,
      after jsonb,
      actor_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, actor_id) REFERENCES users (tenant_id, id)
    );
    CREATE INDEX timesheet_changes_week ON timesheet_changes (tenant_id, user_id, week_start, created_at);
    ${tenantTableSecurity("timesheet_changes")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TABLE timesheet_changes;
    DROP TABLE timesheet_weeks;
    DROP INDEX time_entries_user_time;
    -- Entries without a job (the office's hours for no job) and breaks have no place in the old table.
    DELETE FROM time_entries WHERE job_id IS NULL OR kind = 'break';
    ALTER TABLE time_entries
      DROP CONSTRAINT time_entries_on_site_within,
      ALTER COLUMN job_id SET NOT NULL,
      DROP COLUMN updated_at,
      DROP COLUMN on_site_at,
      DROP COLUMN origin,
      DROP COLUMN state,
      DROP COLUMN kind;
    ALTER TABLE tenants
      DROP COLUMN overtime_daily_minutes,
      DROP COLUMN overtime_weekly_minutes,
      DROP COLUMN week_starts_on;
  `);
};
