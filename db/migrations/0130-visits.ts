import type { Migration } from "../migrate";
import { functionSql } from "../functions";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * Visits (docs/decisions/276-visits.md): a job has one or more visits, each with a start, an end
 * (possibly days later), a crew and a status; a recurring job's visits come from its series.
 *
 * - `visit_series`: a job's recurrence, an RRULE computed as wall-clock times in the tenant's
 *   zone; `made_until` is how far ahead its visits exist (an open-ended series is kept 12 months
 *   ahead by the horizon worker).
 * - `visits`: `series_id` and `occurrence` (the wall-clock time the rule gave) name the
 *   occurrence a series visit was made for; the unique index on them is the guard that two
 *   workers never make the same one twice. `sequence` is the visit's iCalendar SEQUENCE.
 * - `visit_assignees`: the crew.
 * - `time_entries.visit_id`: the visit a time entry was worked on (NULL before visits).
 *
 * Every existing job with a time becomes one visit (its time, status and technician as the only
 * crew member), and its time entries name that visit. The job's row keeps its time and
 * technician: for a job with at most one visit they are that visit's, kept equal both ways by
 * triggers (db/functions/jobs_sync_visit.sql, jobs_add_visits.sql, visits_sync_job.sql), so
 * every route written for a job's own time keeps working. Rolling back drops the visits; the
 * jobs' rows still hold each job's time and technician.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE visit_series (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      -- RFC 5545 RRULE (FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYSETPOS, COUNT or UNTIL), no DTSTART.
      rule text NOT NULL CHECK (length(rule) BETWEEN 1 AND 500),
      -- The first occurrence as wall-clock time in time_zone.
      first_local timestamp NOT NULL,
      time_zone text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
      duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 44640),
      crew uuid[] NOT NULL DEFAULT '{}',
      open_ended boolean NOT NULL,
      -- Visits exist for every occurrence up to this wall-clock time.
      made_until timestamp NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX visit_series_job ON visit_series (tenant_id, job_id);
    -- The horizon worker's scan: open-ended series by how far ahead they are made.
    CREATE INDEX visit_series_horizon ON visit_series (made_until) WHERE open_ended;
    ${tenantTableSecurity("visit_series")}

    CREATE TABLE visits (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      starts_at timestamptz NOT NULL,
      -- NULL only for a job's time imported without an end (shown as one hour).
      ends_at timestamptz CHECK (ends_at IS NULL OR ends_at >= starts_at),
      status text NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'en_route', 'in_progress', 'on_hold', 'completed', 'cancelled')),
      note text CHECK (note IS NULL OR length(note) <= 2000),
      series_id uuid,
      occurrence timestamp,
      completed_at timestamptz,
      sequence integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, series_id) REFERENCES visit_series (tenant_id, id) ON DELETE CASCADE,
      CHECK ((series_id IS NULL) = (occurrence IS NULL))
    );
    CREATE INDEX visits_job ON visits (tenant_id, job_id, starts_at);
    -- The board's week and the field app's days: visits by start.
    CREATE INDEX visits_start ON visits (tenant_id, starts_at);
    CREATE UNIQUE INDEX visits_series_occurrence ON visits (tenant_id, series_id, occurrence) WHERE series_id IS NOT NULL;
    ${tenantTableSecurity("visits")}

    CREATE TABLE visit_assignees (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      visit_id uuid NOT NULL,
      user_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, visit_id, user_id),
      FOREIGN KEY (tenant_id, visit_id) REFERENCES visits (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
    );
    -- A technician's visits (the field app, their calendar feed, their schedule row).
    CREATE INDEX visit_assignees_user ON visit_assignees (tenant_id, user_id, visit_id);
    ${tenantTableSecurity("visit_assignees")}

    ALTER TABLE time_entries ADD COLUMN visit_id uuid;

    INSERT INTO visits (tenant_id, job_id, starts_at, ends_at, status, completed_at, sequence)
    SELECT j.tenant_id, j.id, j.scheduled_start, j.scheduled_end,
           CASE WHEN j.status = 'unscheduled' THEN 'scheduled' ELSE j.status END,
           CASE WHEN j.status = 'completed' THEN coalesce(j.completed_at, j.updated_at) END,
           j.schedule_sequence
      FROM jobs j WHERE j.scheduled_start IS NOT NULL;
    INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
    SELECT v.tenant_id, v.id, j.assignee_id FROM visits v
      JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
     WHERE j.assignee_id IS NOT NULL;
    UPDATE time_entries e SET visit_id = v.id FROM visits v
     WHERE v.tenant_id = e.tenant_id AND v.job_id = e.job_id;
  `);
  // A foreign key from a table distributed before this migration comes in its own query (db/migrate.ts).
  await sql.query(`
    ALTER TABLE time_entries ADD CONSTRAINT time_entries_visit_fkey
      FOREIGN KEY (tenant_id, visit_id) REFERENCES visits (tenant_id, id);
    CREATE INDEX time_entries_visit ON time_entries (tenant_id, visit_id) WHERE visit_id IS NOT NULL;
  `);
  // The triggers' functions are db/functions/ files (applied again after the migrations).
  for (const name of ["job_follow_visits", "visits_sync_job", "jobs_sync_visit", "jobs_add_visits"])
    await sql.query(functionSql(name));
  await sql.query(`
    CREATE TRIGGER jobs_sync_visit AFTER UPDATE OF scheduled_start, scheduled_end, assignee_id, status ON jobs
      FOR EACH ROW EXECUTE FUNCTION jobs_sync_visit();
    CREATE TRIGGER jobs_add_visits AFTER INSERT ON jobs REFERENCING NEW TABLE AS added_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION jobs_add_visits();
    CREATE TRIGGER visits_sync_job_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('visits');
    CREATE TRIGGER visits_sync_job_update AFTER UPDATE ON visits REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('visits');
    CREATE TRIGGER visits_sync_job_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('visits');
    CREATE TRIGGER visit_assignees_sync_job_insert AFTER INSERT ON visit_assignees REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('crew');
    CREATE TRIGGER visit_assignees_sync_job_update AFTER UPDATE ON visit_assignees REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('crew');
    CREATE TRIGGER visit_assignees_sync_job_delete AFTER DELETE ON visit_assignees REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION visits_sync_job('crew');
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TRIGGER jobs_sync_visit ON jobs;
    DROP TRIGGER jobs_add_visits ON jobs;
    DROP INDEX time_entries_visit;
    ALTER TABLE time_entries DROP COLUMN visit_id;
    DROP TABLE visit_assignees, visits, visit_series;
    DROP FUNCTION jobs_sync_visit(), jobs_add_visits(), visits_sync_job(), job_follow_visits(uuid, uuid);
  `);
};
