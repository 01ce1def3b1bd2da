-- Triggers on jobs: a completed job without any visit (closed by the office, imported done)
-- counts once for its technician in visits completed per technician and week (tenant's zone);
-- with visits, the visits count instead (summaries_visits). Inserts: one statement for all the
-- rows. Updates: per row, after, and before any other trigger of the row makes or changes its
-- visits, so the count moves from the old row to the new one first. Deletes: per row, before,
-- while the job's visits (deleted with it) still say whether it counted.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): every statement names one
-- tenant, and the inserted rows are copied out of the transition table first.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_jobs() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_zone text;
  v_job uuid;
  v_tenant uuid;
  j_id uuid[];
  j_at timestamptz[];
  j_who uuid[];
  j_visited uuid[];
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    FOR v_tenant IN SELECT DISTINCT j.tenant_id FROM new_rows j WHERE j.status = 'completed' AND j.completed_at IS NOT NULL LOOP
      SELECT array_agg(j.id), array_agg(j.completed_at), array_agg(j.assignee_id) INTO j_id, j_at, j_who
        FROM new_rows j WHERE j.tenant_id = v_tenant AND j.status = 'completed' AND j.completed_at IS NOT NULL;
      -- jobs that have visits count through them
      j_visited := ARRAY(SELECT DISTINCT v.job_id FROM visits v WHERE v.tenant_id = v_tenant AND v.job_id = ANY (j_id));
      SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;
      INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
      SELECT v_tenant, 'visits_completed', greatest(date_trunc('week', j.completed_at AT TIME ZONE v_zone), date_trunc('month', j.completed_at AT TIME ZONE v_zone))::date, j.assignee_id, count(*)
        FROM unnest(j_id, j_at, j_who) j(id, completed_at, assignee_id)
       WHERE NOT (j.id = ANY (j_visited))
       GROUP BY 3, 4;
    END LOOP;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN v_job := OLD.id; v_tenant := OLD.tenant_id; ELSE v_job := NEW.id; v_tenant := NEW.tenant_id; END IF;
  IF EXISTS (SELECT 1 FROM visits v WHERE v.tenant_id = v_tenant AND v.job_id = v_job) THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
  END IF;
  SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;
  IF OLD.status = 'completed' AND OLD.completed_at IS NOT NULL THEN
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    VALUES (v_tenant, 'visits_completed', greatest(date_trunc('week', OLD.completed_at AT TIME ZONE v_zone), date_trunc('month', OLD.completed_at AT TIME ZONE v_zone))::date, OLD.assignee_id, -1);
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.status = 'completed' AND NEW.completed_at IS NOT NULL THEN
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    VALUES (v_tenant, 'visits_completed', greatest(date_trunc('week', NEW.completed_at AT TIME ZONE v_zone), date_trunc('month', NEW.completed_at AT TIME ZONE v_zone))::date, NEW.assignee_id, 1);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END
$fn$;
