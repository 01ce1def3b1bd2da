-- Statement trigger on visits and visit_assignees (their changed rows as `changed_rows`): each
-- job touched follows its visits (job_follow_visits) once per statement, unless the change came
-- from the job's row itself (jobs_sync_visit and jobs_add_visits set app.visit_sync). A job
-- deleted in the same statement (an import's undo cascading) is skipped by the join.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION visits_sync_job() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF current_setting('app.visit_sync', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_TABLE_NAME = 'visits' THEN
    PERFORM job_follow_visits(j.tenant_id, j.id)
       FROM (SELECT DISTINCT c.tenant_id, c.job_id FROM changed_rows c) c
       JOIN jobs j ON j.tenant_id = c.tenant_id AND j.id = c.job_id;
  ELSE
    PERFORM job_follow_visits(j.tenant_id, j.id)
       FROM (SELECT DISTINCT v.tenant_id, v.job_id FROM changed_rows c
               JOIN visits v ON v.tenant_id = c.tenant_id AND v.id = c.visit_id) c
       JOIN jobs j ON j.tenant_id = c.tenant_id AND j.id = c.job_id;
  END IF;
  RETURN NULL;
END
$fn$;
