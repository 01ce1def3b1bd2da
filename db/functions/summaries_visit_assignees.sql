-- Statement trigger on visit_assignees (insert, update, delete): a completed visit's count
-- moves with its crew: each member added counts, each removed stops counting, and the count
-- under no one comes or goes as the crew becomes empty or stops being empty. A visit deleted
-- with its crew left its count already (summaries_visit_deleted) and is skipped by the join.
-- The changed rows are read straight from the transition tables (see summaries_visits.sql):
-- the operation names the source once, and one statement counts for all three.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visit_assignees() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_source text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, r.tenant_id, r.visit_id, r.user_id FROM new_rows r'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, r.tenant_id, r.visit_id, r.user_id FROM old_rows r'
    ELSE 'SELECT -1 AS sign, r.tenant_id, r.visit_id, r.user_id FROM old_rows r
          UNION ALL SELECT 1, r.tenant_id, r.visit_id, r.user_id FROM new_rows r' END;
BEGIN
  -- A crew added to visits not completed (a new visit's, every series visit's) moves no count.
  -- (Nested: a condition naming new_rows is planned as one query, also in a delete's trigger.)
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows r JOIN visits v ON v.tenant_id = r.tenant_id AND v.id = r.visit_id
                    WHERE v.status = 'completed') THEN
      RETURN NULL;
    END IF;
  END IF;
  EXECUTE format($q$
  WITH x AS MATERIALIZED (%s),
  done AS (
    SELECT x.sign, x.tenant_id, x.visit_id, x.user_id, v.completed_at, t.time_zone
      FROM x
      JOIN visits v ON v.tenant_id = x.tenant_id AND v.id = x.visit_id
      JOIN tenants t ON t.id = x.tenant_id
     WHERE v.status = 'completed' AND v.completed_at IS NOT NULL
  )
  INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
  SELECT d.tenant_id, 'visits_completed', d.week, d.party_id, sum(d.sign)
    FROM (
      SELECT y.tenant_id, greatest(date_trunc('week', y.completed_at AT TIME ZONE y.time_zone), date_trunc('month', y.completed_at AT TIME ZONE y.time_zone))::date AS week,
             y.user_id AS party_id, y.sign
        FROM done y
      UNION ALL
      SELECT c.tenant_id, greatest(date_trunc('week', c.completed_at AT TIME ZONE c.time_zone), date_trunc('month', c.completed_at AT TIME ZONE c.time_zone))::date, NULL,
             (k.now_count = 0)::int - (k.now_count - c.added = 0)::int
        FROM (SELECT y.tenant_id, y.visit_id, y.completed_at, y.time_zone, sum(y.sign) AS added
                FROM done y GROUP BY 1, 2, 3, 4) c
        CROSS JOIN LATERAL (SELECT count(*) AS now_count FROM visit_assignees a WHERE a.tenant_id = c.tenant_id AND a.visit_id = c.visit_id) k
       WHERE c.added <> 0
    ) d
   GROUP BY d.tenant_id, d.week, d.party_id
  HAVING sum(d.sign) <> 0$q$, v_source);
  RETURN NULL;
END
$fn$;
