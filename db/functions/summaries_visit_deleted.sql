-- Row trigger before a completed visit is deleted: its count goes while its crew rows are
-- still there (they go with it, after).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visit_deleted() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
BEGIN
  IF OLD.completed_at IS NOT NULL THEN
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT OLD.tenant_id, 'visits_completed', greatest(date_trunc('week', OLD.completed_at AT TIME ZONE t.time_zone), date_trunc('month', OLD.completed_at AT TIME ZONE t.time_zone))::date, a.user_id, -1
      FROM tenants t
      LEFT JOIN visit_assignees a ON a.tenant_id = OLD.tenant_id AND a.visit_id = OLD.id
     WHERE t.id = OLD.tenant_id;
  END IF;
  RETURN OLD;
END
$fn$;
