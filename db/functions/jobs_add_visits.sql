-- Statement trigger on jobs' inserts: every new job with a time gets its one visit, with its
-- technician as the crew, in one set-based statement per table (an import of 50,000 jobs makes
-- its visits at once, not row by row).
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the new jobs are copied out
-- of the transition table, with each visit's id made here, and each insert is one tenant's.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION jobs_add_visits() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_prev text := current_setting('app.visit_sync', true);
  v_tenant uuid;
  n_visit uuid[];
  n_job uuid[];
  n_start timestamptz[];
  n_end timestamptz[];
  n_status text[];
  n_completed timestamptz[];
  n_assignee uuid[];
  v_count bigint;
BEGIN
  IF v_prev = 'on' THEN RETURN NULL; END IF;
  PERFORM set_config('app.visit_sync', 'on', true);
  FOR v_tenant IN SELECT DISTINCT a.tenant_id FROM added_jobs a WHERE a.scheduled_start IS NOT NULL LOOP
    SELECT array_agg(gen_random_uuid()), array_agg(a.id), array_agg(a.scheduled_start), array_agg(a.scheduled_end),
           array_agg(s.status), array_agg(CASE WHEN s.status = 'completed' THEN coalesce(a.completed_at, now()) END),
           array_agg(a.assignee_id)
      INTO n_visit, n_job, n_start, n_end, n_status, n_completed, n_assignee
      FROM added_jobs a
      CROSS JOIN LATERAL (SELECT CASE WHEN a.status IN ('scheduled', 'en_route', 'in_progress', 'on_hold', 'completed', 'cancelled')
                                      THEN a.status ELSE 'scheduled' END AS status) s
     WHERE a.tenant_id = v_tenant AND a.scheduled_start IS NOT NULL;
    -- Each insert returns its rows (counted): on a cluster an INSERT ... SELECT that returns
    -- nothing runs as a COPY, which row-level security refuses (docs/decisions/228-citus-run.md).
    WITH ins AS (
      INSERT INTO visits (tenant_id, id, job_id, starts_at, ends_at, status, completed_at)
      SELECT v_tenant, n.id, n.job_id, n.starts_at, n.ends_at, n.status, n.completed_at
        FROM unnest(n_visit, n_job, n_start, n_end, n_status, n_completed) n(id, job_id, starts_at, ends_at, status, completed_at)
      RETURNING 1
    ) SELECT count(*) INTO v_count FROM ins;
    WITH ins AS (
      INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
      SELECT v_tenant, n.id, n.user_id FROM unnest(n_visit, n_assignee) n(id, user_id) WHERE n.user_id IS NOT NULL
      RETURNING 1
    ) SELECT count(*) INTO v_count FROM ins;
  END LOOP;
  PERFORM set_config('app.visit_sync', coalesce(v_prev, ''), true);
  RETURN NULL;
END
$fn$;
