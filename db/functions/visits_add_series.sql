-- A recurring series' visits made in one statement (docs/decisions/395-visit-speed.md): the
-- visits, each with its series' crew; an occurrence that already has its visit is skipped (the
-- unique index), whichever server or run made it. The statement triggers that make a job's row
-- follow its visits are held off (app.visit_sync) and each job touched follows once instead,
-- and only when its row can change: a scheduled job that still has an earlier scheduled visit
-- keeps its row as it is when later visits are added. Answers how many were made.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION visits_add_series(
  p_tenant uuid, p_jobs uuid[], p_series uuid[], p_occurrences timestamp[], p_starts timestamptz[], p_ends timestamptz[]
) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_prev text := current_setting('app.visit_sync', true);
  v_made integer;
  v_jobs uuid[];
  v_firsts timestamptz[];
  v_follow uuid[];
BEGIN
  PERFORM set_config('app.visit_sync', 'on', true);
  WITH v AS (
    INSERT INTO visits (tenant_id, job_id, series_id, occurrence, starts_at, ends_at)
    SELECT p_tenant, x.job_id, x.series_id, x.occurrence, x.starts_at, x.ends_at
      FROM unnest(p_jobs, p_series, p_occurrences, p_starts, p_ends) AS x(job_id, series_id, occurrence, starts_at, ends_at)
    ON CONFLICT (tenant_id, series_id, occurrence) WHERE series_id IS NOT NULL DO NOTHING
    RETURNING tenant_id, id, job_id, series_id, starts_at
  ), crew AS (
    INSERT INTO visit_assignees (tenant_id, visit_id, user_id)
    SELECT v.tenant_id, v.id, u.id FROM v
      JOIN visit_series s ON s.tenant_id = p_tenant AND s.id = v.series_id
      JOIN users u ON u.tenant_id = p_tenant AND u.id = ANY (s.crew)
    RETURNING 1
  ), by_job AS (
    SELECT v.job_id, min(v.starts_at) AS first_new, count(*) AS n FROM v GROUP BY v.job_id
  )
  SELECT coalesce(sum(b.n), 0)::int, array_agg(b.job_id), array_agg(b.first_new)
    INTO v_made, v_jobs, v_firsts
    FROM by_job b;
  -- A job whose row says scheduled has no visit under way (its row follows its visits), so
  -- the job's own status answers that without reading every visit of the tenant. The jobs are
  -- picked first and followed one call each: on a Citus cluster a function that reads tables
  -- may not run inside a statement on a shard.
  SELECT array_agg(j.id ORDER BY j.id) INTO v_follow
    FROM unnest(v_jobs, v_firsts) AS j(id, first_new)
    JOIN jobs jb ON jb.tenant_id = p_tenant AND jb.id = j.id
   WHERE jb.status <> 'scheduled'
      OR NOT EXISTS (SELECT 1 FROM visits o WHERE o.tenant_id = p_tenant AND o.job_id = j.id
                        AND o.status = 'scheduled' AND o.starts_at < j.first_new);
  FOR i IN 1 .. coalesce(array_length(v_follow, 1), 0) LOOP
    PERFORM job_follow_visits(p_tenant, v_follow[i]);
  END LOOP;
  PERFORM set_config('app.visit_sync', coalesce(v_prev, ''), true);
  RETURN v_made;
END
$fn$;
