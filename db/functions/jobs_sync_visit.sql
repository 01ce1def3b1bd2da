-- Trigger on jobs (a row's time, technician or status changed): a job with at most one visit
-- keeps that visit equal to its row, so every route, form, import and field action written for
-- a job's own time keeps working (docs/decisions/276-visits.md). A time given makes the visit,
-- a time taken away removes it (the app refuses that once work happened), a new technician
-- takes the old one's place in the crew. A job with several visits is left alone: its row only
-- follows them (job_follow_visits).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION jobs_sync_visit() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_prev text := current_setting('app.visit_sync', true);
  v_count int;
  v_visit uuid;
  v_status text := CASE WHEN NEW.status IN ('scheduled', 'en_route', 'in_progress', 'on_hold', 'completed', 'cancelled')
                        THEN NEW.status ELSE 'scheduled' END;
  -- read once: a cluster refuses now() inside a modification's CASE (docs/decisions/228-citus-run.md)
  v_now timestamptz := now();
BEGIN
  IF v_prev = 'on' THEN RETURN NULL; END IF;
  SELECT count(*), (array_agg(v.id))[1] INTO v_count, v_visit FROM visits v
   WHERE v.tenant_id = NEW.tenant_id AND v.job_id = NEW.id;
  IF v_count > 1 THEN RETURN NULL; END IF;
  PERFORM set_config('app.visit_sync', 'on', true);
  IF v_count = 0 THEN
    IF NEW.scheduled_start IS NOT NULL THEN
      INSERT INTO visits (tenant_id, job_id, starts_at, ends_at, status, completed_at)
      VALUES (NEW.tenant_id, NEW.id, NEW.scheduled_start, NEW.scheduled_end, v_status,
              CASE WHEN v_status = 'completed' THEN coalesce(NEW.completed_at, v_now) END)
      RETURNING id INTO v_visit;
      IF NEW.assignee_id IS NOT NULL THEN
        INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES (NEW.tenant_id, v_visit, NEW.assignee_id);
      END IF;
    END IF;
  ELSIF NEW.scheduled_start IS NULL THEN
    -- Taken off the schedule: the visit goes, unless time was logged on it (then it is kept,
    -- cancelled, with its time entries; the app refuses to unschedule work under way).
    DELETE FROM visits v WHERE v.tenant_id = NEW.tenant_id AND v.id = v_visit
       AND NOT EXISTS (SELECT 1 FROM time_entries e WHERE e.tenant_id = NEW.tenant_id AND e.visit_id = v_visit);
    IF NOT FOUND THEN
      UPDATE visits SET status = 'cancelled', sequence = sequence + 1, updated_at = now()
       WHERE tenant_id = NEW.tenant_id AND id = v_visit AND status NOT IN ('completed', 'cancelled');
    END IF;
  ELSE
    UPDATE visits v
       SET starts_at = NEW.scheduled_start, ends_at = NEW.scheduled_end,
           status = CASE WHEN NEW.status IS DISTINCT FROM OLD.status THEN v_status ELSE v.status END,
           completed_at = CASE WHEN NEW.status IS DISTINCT FROM OLD.status AND v_status = 'completed'
                               THEN coalesce(NEW.completed_at, v_now) ELSE v.completed_at END,
           sequence = v.sequence + 1, updated_at = now()
     WHERE v.tenant_id = NEW.tenant_id AND v.id = v_visit
       AND (v.starts_at IS DISTINCT FROM NEW.scheduled_start OR v.ends_at IS DISTINCT FROM NEW.scheduled_end
            OR (NEW.status IS DISTINCT FROM OLD.status AND v.status IS DISTINCT FROM v_status));
    IF NEW.assignee_id IS DISTINCT FROM OLD.assignee_id THEN
      IF NEW.assignee_id IS NOT NULL THEN
        DELETE FROM visit_assignees
         WHERE tenant_id = NEW.tenant_id AND visit_id = v_visit AND user_id = NEW.assignee_id AND OLD.assignee_id IS NOT NULL;
      END IF;
      IF OLD.assignee_id IS NOT NULL AND NEW.assignee_id IS NOT NULL THEN
        UPDATE visit_assignees SET user_id = NEW.assignee_id
         WHERE tenant_id = NEW.tenant_id AND visit_id = v_visit AND user_id = OLD.assignee_id;
        IF NOT FOUND THEN
          INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES (NEW.tenant_id, v_visit, NEW.assignee_id)
          ON CONFLICT DO NOTHING;
        END IF;
      ELSIF NEW.assignee_id IS NULL THEN
        DELETE FROM visit_assignees WHERE tenant_id = NEW.tenant_id AND visit_id = v_visit AND user_id = OLD.assignee_id;
      ELSE
        INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES (NEW.tenant_id, v_visit, NEW.assignee_id)
        ON CONFLICT DO NOTHING;
      END IF;
    END IF;
  END IF;
  PERFORM set_config('app.visit_sync', coalesce(v_prev, ''), true);
  RETURN NULL;
END
$fn$;
