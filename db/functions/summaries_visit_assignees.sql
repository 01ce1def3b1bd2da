-- Statement trigger on visit_assignees (insert, update, delete): a completed visit's count
-- moves with its crew: each member added counts, each removed stops counting, and the count
-- under no one comes or goes as the crew becomes empty or stops being empty. A visit deleted
-- with its crew left its count already (summaries_visit_deleted) and is skipped by the join.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visit_assignees() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o visit_assignees[] := '{}';
  n visit_assignees[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r); END IF;
  INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
  SELECT d.tenant_id, 'visits_completed', d.week, d.party_id, sum(d.sign)
    FROM (
      SELECT x.tenant_id, greatest(date_trunc('week', v.completed_at AT TIME ZONE t.time_zone), date_trunc('month', v.completed_at AT TIME ZONE t.time_zone))::date AS week, x.user_id AS party_id, x.sign
        FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
        JOIN visits v ON v.tenant_id = x.tenant_id AND v.id = x.visit_id
        JOIN tenants t ON t.id = x.tenant_id
       WHERE v.status = 'completed' AND v.completed_at IS NOT NULL
      UNION ALL
      SELECT v.tenant_id, greatest(date_trunc('week', v.completed_at AT TIME ZONE t.time_zone), date_trunc('month', v.completed_at AT TIME ZONE t.time_zone))::date, NULL,
             (k.now_count = 0)::int - (k.now_count - c.added = 0)::int
        FROM (SELECT x.tenant_id, x.visit_id, sum(x.sign) AS added
                FROM (SELECT -1 AS sign, r.tenant_id, r.visit_id FROM unnest(o) r
                      UNION ALL SELECT 1, r.tenant_id, r.visit_id FROM unnest(n) r) x
               GROUP BY 1, 2) c
        JOIN visits v ON v.tenant_id = c.tenant_id AND v.id = c.visit_id
        JOIN tenants t ON t.id = v.tenant_id
        CROSS JOIN LATERAL (SELECT count(*) AS now_count FROM visit_assignees a WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id) k
       WHERE c.added <> 0 AND v.status = 'completed' AND v.completed_at IS NOT NULL
    ) d
   GROUP BY d.tenant_id, d.week, d.party_id
  HAVING sum(d.sign) <> 0;
  RETURN NULL;
END
$fn$;
