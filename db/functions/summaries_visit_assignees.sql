-- Statement trigger on visit_assignees (insert, update, delete): a completed visit's count
-- moves with its crew: each member added counts, each removed stops counting, and the count
-- under no one comes or goes as the crew becomes empty or stops being empty. A visit deleted
-- with its crew left its count already (summaries_visit_deleted) and is skipped: it is no
-- longer found among the visits.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the changed crew rows are
-- copied out of the transition tables (each named only in its operation's branch), and every
-- read of a table names one tenant, so on a cluster it runs on the node that holds the tenant.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visit_assignees() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_tenant uuid;
  v_tenants uuid[];
  v_zone text;
  -- the crew rows that came (+1) or went (-1)
  x_sign int[];
  x_visit uuid[];
  x_user uuid[];
  -- the completed visits among theirs, and how many members each has now
  v_id uuid[];
  v_at timestamptz[];
  k_visit uuid[];
  k_count bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    v_tenants := ARRAY(SELECT DISTINCT r.tenant_id FROM old_rows r);
  ELSE
    v_tenants := ARRAY(SELECT DISTINCT r.tenant_id FROM new_rows r);
  END IF;
  FOREACH v_tenant IN ARRAY v_tenants LOOP
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(1), array_agg(r.visit_id), array_agg(r.user_id) INTO x_sign, x_visit, x_user
        FROM new_rows r WHERE r.tenant_id = v_tenant;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(-1), array_agg(r.visit_id), array_agg(r.user_id) INTO x_sign, x_visit, x_user
        FROM old_rows r WHERE r.tenant_id = v_tenant;
    ELSE
      SELECT array_agg(x.sign), array_agg(x.visit_id), array_agg(x.user_id) INTO x_sign, x_visit, x_user
        FROM (SELECT -1 AS sign, r.visit_id, r.user_id FROM old_rows r WHERE r.tenant_id = v_tenant
              UNION ALL SELECT 1, r.visit_id, r.user_id FROM new_rows r WHERE r.tenant_id = v_tenant) x;
    END IF;
    -- A crew added to visits not completed (a new visit's, every series visit's) moves no count.
    SELECT array_agg(v.id), array_agg(v.completed_at) INTO v_id, v_at
      FROM visits v
     WHERE v.tenant_id = v_tenant AND v.id = ANY (x_visit) AND v.status = 'completed' AND v.completed_at IS NOT NULL;
    CONTINUE WHEN v_id IS NULL;
    SELECT array_agg(a.visit_id), array_agg(a.n) INTO k_visit, k_count
      FROM (SELECT a.visit_id, count(*) AS n FROM visit_assignees a
             WHERE a.tenant_id = v_tenant AND a.visit_id = ANY (v_id) GROUP BY 1) a;
    SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;

    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT v_tenant, 'visits_completed', d.week, d.party_id, sum(d.sign)
      FROM (
        -- each member added or removed
        SELECT greatest(date_trunc('week', v.completed_at AT TIME ZONE v_zone), date_trunc('month', v.completed_at AT TIME ZONE v_zone))::date AS week,
               x.user_id AS party_id, x.sign
          FROM unnest(x_sign, x_visit, x_user) x(sign, visit_id, user_id)
          JOIN unnest(v_id, v_at) v(id, completed_at) ON v.id = x.visit_id
        UNION ALL
        -- the count under no one, as the crew stops or starts being empty
        SELECT greatest(date_trunc('week', c.completed_at AT TIME ZONE v_zone), date_trunc('month', c.completed_at AT TIME ZONE v_zone))::date, NULL,
               (coalesce(k.n, 0) = 0)::int - (coalesce(k.n, 0) - c.added = 0)::int
          FROM (SELECT v.id, v.completed_at, sum(x.sign) AS added
                  FROM unnest(x_sign, x_visit) x(sign, visit_id)
                  JOIN unnest(v_id, v_at) v(id, completed_at) ON v.id = x.visit_id
                 GROUP BY 1, 2) c
          LEFT JOIN unnest(k_visit, k_count) k(visit_id, n) ON k.visit_id = c.id
         WHERE c.added <> 0
      ) d
     GROUP BY d.week, d.party_id
    HAVING sum(d.sign) <> 0;
  END LOOP;
  RETURN NULL;
END
$fn$;
