-- Statement trigger on visits and visit_assignees (their changed rows as `changed_rows`): each
-- job touched follows its visits (job_follow_visits) once per statement, unless the change came
-- from the job's row itself (jobs_sync_visit and jobs_add_visits set app.visit_sync). A job
-- deleted in the same statement (an import's undo cascading) is no longer found, and skipped.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the changed rows' ids are
-- copied out of the transition table, and every read names one tenant. Its table is named by
-- the trigger's argument ('visits' or 'crew'), not by TG_TABLE_NAME: on a cluster the trigger
-- fires on a shard, whose name is the table's with the shard's id.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION visits_sync_job() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_tenant uuid;
  v_ids uuid[];
  v_job uuid;
BEGIN
  IF current_setting('app.visit_sync', true) = 'on' THEN RETURN NULL; END IF;
  FOR v_tenant IN SELECT DISTINCT c.tenant_id FROM changed_rows c LOOP
    IF TG_ARGV[0] = 'visits' THEN
      v_ids := ARRAY(SELECT DISTINCT c.job_id FROM changed_rows c WHERE c.tenant_id = v_tenant);
    ELSIF TG_ARGV[0] = 'crew' THEN
      v_ids := ARRAY(SELECT DISTINCT c.visit_id FROM changed_rows c WHERE c.tenant_id = v_tenant);
      v_ids := ARRAY(SELECT DISTINCT v.job_id FROM visits v WHERE v.tenant_id = v_tenant AND v.id = ANY (v_ids));
    ELSE
      RAISE EXCEPTION 'visits_sync_job: the trigger''s argument is ''visits'' or ''crew'', not %', TG_ARGV[0];
    END IF;
    FOR v_job IN SELECT j.id FROM jobs j WHERE j.tenant_id = v_tenant AND j.id = ANY (v_ids) ORDER BY j.id LOOP
      PERFORM job_follow_visits(v_tenant, v_job);
    END LOOP;
  END LOOP;
  RETURN NULL;
END
$fn$;
