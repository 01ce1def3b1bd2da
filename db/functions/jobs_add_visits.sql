-- Statement trigger on jobs' inserts: every new job with a time gets its one visit, with its
-- technician as the crew, in one set-based statement (an import of 50,000 jobs makes its
-- visits at once, not row by row).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION jobs_add_visits() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_prev text := current_setting('app.visit_sync', true);
BEGIN
  IF v_prev = 'on' THEN RETURN NULL; END IF;
  PERFORM set_config('app.visit_sync', 'on', true);
  WITH made AS (
    INSERT INTO visits (tenant_id, job_id, starts_at, ends_at, status, completed_at)
    SELECT a.tenant_id, a.id, a.scheduled_start, a.scheduled_end, s.status,
           CASE WHEN s.status = 'completed' THEN coalesce(a.completed_at, now()) END
      FROM added_jobs a
      CROSS JOIN LATERAL (SELECT CASE WHEN a.status IN ('scheduled', 'en_route', 'in_progress', 'on_hold', 'completed', 'cancelled')
                                      THEN a.status ELSE 'scheduled' END AS status) s
     WHERE a.scheduled_start IS NOT NULL
    RETURNING tenant_id, id, job_id
  )
  INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
  SELECT m.tenant_id, m.id, a.assignee_id FROM made m JOIN added_jobs a ON a.tenant_id = m.tenant_id AND a.id = m.job_id
   WHERE a.assignee_id IS NOT NULL;
  PERFORM set_config('app.visit_sync', coalesce(v_prev, ''), true);
  RETURN NULL;
END
$fn$;
