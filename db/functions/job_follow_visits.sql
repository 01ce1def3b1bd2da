-- A job's row follows its visits (docs/decisions/276-visits.md): scheduled_start, scheduled_end
-- and assignee_id are those of the visit that stands for the job (the one under way, else the
-- next open one, else the latest), and the status follows the rules of a job with visits:
-- unscheduled (no visit), scheduled, in progress (a visit under way; a one-visit job keeps that
-- visit's own status), completed (every visit completed or cancelled and no more are due).
-- A cancelled job stays cancelled. Writes only when something differs.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION job_follow_visits(p_tenant uuid, p_job uuid) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_prev text := current_setting('app.visit_sync', true);
  v_job record;
  v_rep record;
  v_count int;
  v_under_way boolean;
  v_open boolean;
  v_completed timestamptz;
  v_more_due boolean;
  v_assignee uuid;
  v_status text;
  -- read once: a cluster refuses now() inside a modification's CASE (docs/decisions/228-citus-run.md)
  v_now timestamptz := now();
BEGIN
  SELECT j.status, j.assignee_id, j.completed_at INTO v_job FROM jobs j
   WHERE j.tenant_id = p_tenant AND j.id = p_job FOR UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT count(*), coalesce(bool_or(v.status IN ('en_route', 'in_progress', 'on_hold')), false),
         coalesce(bool_or(v.status IN ('scheduled', 'en_route', 'in_progress', 'on_hold')), false), max(v.completed_at)
    INTO v_count, v_under_way, v_open, v_completed
    FROM visits v WHERE v.tenant_id = p_tenant AND v.job_id = p_job;
  SELECT v.id, v.starts_at, v.ends_at, v.status INTO v_rep FROM visits v
   WHERE v.tenant_id = p_tenant AND v.job_id = p_job
   ORDER BY (v.status IN ('en_route', 'in_progress', 'on_hold')) DESC, (v.status = 'scheduled') DESC,
            CASE WHEN v.status = 'scheduled' THEN v.starts_at END ASC, v.starts_at DESC, v.id
   LIMIT 1;
  IF v_rep.id IS NOT NULL THEN
    SELECT a.user_id INTO v_assignee FROM visit_assignees a
     WHERE a.tenant_id = p_tenant AND a.visit_id = v_rep.id ORDER BY a.created_at, a.user_id LIMIT 1;
  ELSE
    v_assignee := v_job.assignee_id; -- no visit: the job keeps its technician, unscheduled
  END IF;
  v_more_due := EXISTS (SELECT 1 FROM visit_series s WHERE s.tenant_id = p_tenant AND s.job_id = p_job AND s.open_ended);
  v_status := CASE
    WHEN v_job.status = 'cancelled' THEN 'cancelled'
    WHEN v_count = 0 THEN CASE WHEN v_job.status = 'scheduled' THEN 'unscheduled' ELSE v_job.status END
    WHEN v_under_way THEN CASE WHEN v_count = 1 THEN v_rep.status ELSE 'in_progress' END
    WHEN v_open OR v_more_due THEN 'scheduled'
    WHEN v_completed IS NOT NULL THEN 'completed'
    ELSE v_job.status
  END;
  PERFORM set_config('app.visit_sync', 'on', true);
  UPDATE jobs j
     SET scheduled_start = v_rep.starts_at, scheduled_end = v_rep.ends_at, assignee_id = v_assignee, status = v_status,
         completed_at = CASE WHEN v_status = 'completed' AND j.status <> 'completed' THEN coalesce(v_completed, v_now) ELSE j.completed_at END,
         updated_at = v_now
   WHERE j.tenant_id = p_tenant AND j.id = p_job
     AND (j.scheduled_start, j.scheduled_end, j.assignee_id, j.status)
         IS DISTINCT FROM (v_rep.starts_at, v_rep.ends_at, v_assignee, v_status);
  PERFORM set_config('app.visit_sync', coalesce(v_prev, ''), true);
END
$fn$;
