-- Row trigger before a completed visit is deleted: its count goes while its crew rows are
-- still there (they go with it, after). Each statement names the row's tenant (shard-local on a
-- cluster: docs/decisions/496-summaries-on-a-citus-cluster.md).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visit_deleted() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_zone text;
  v_crew uuid[];
BEGIN
  IF OLD.completed_at IS NOT NULL THEN
    SELECT time_zone INTO v_zone FROM tenants WHERE id = OLD.tenant_id;
    v_crew := ARRAY(SELECT a.user_id FROM visit_assignees a WHERE a.tenant_id = OLD.tenant_id AND a.visit_id = OLD.id);
    -- no crew: the count was under no one
    IF cardinality(v_crew) = 0 THEN v_crew := ARRAY[NULL::uuid]; END IF;
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT OLD.tenant_id, 'visits_completed', greatest(date_trunc('week', OLD.completed_at AT TIME ZONE v_zone), date_trunc('month', OLD.completed_at AT TIME ZONE v_zone))::date, u.user_id, -1
      FROM unnest(v_crew) u(user_id);
  END IF;
  RETURN OLD;
END
$fn$;
