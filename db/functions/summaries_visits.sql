-- Statement trigger on visits (insert, update, delete): visits completed per technician and
-- week (tenant's zone), as insert-only delta rows. A completed visit counts once for each
-- member of its crew, or once under no one without a crew; a completed job without any visit
-- counts once for its technician (summaries_jobs), so a job that gains its first visit or
-- loses its last one moves its count here. A new visit has no crew yet (its crew rows come
-- after it; summaries_visit_assignees moves the count to them); a deleted visit's count left
-- in summaries_visit_deleted, before its crew rows went with it.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): what the changed rows say
-- is read from the transition tables alone, into arrays of the few columns the counts need;
-- every read of a table then names one tenant, so on a cluster it runs on the node that holds
-- the tenant. Each transition table is named only in its operation's branch (a query naming
-- old_rows cannot be planned in an insert's trigger).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visits() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_tenant uuid;
  v_tenants uuid[];
  v_zone text;
  -- completed visits whose own count moves: +1 / -1, the visit, when it was completed
  x_sign int[];
  x_id uuid[];
  x_at timestamptz[];
  -- jobs whose number of visits moved, and by how much
  c_job uuid[];
  c_added bigint[];
  -- the crew of those visits now; those jobs (completed ones) and how many visits they have now
  a_visit uuid[];
  a_user uuid[];
  j_id uuid[];
  j_at timestamptz[];
  j_who uuid[];
  k_job uuid[];
  k_count bigint[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    v_tenants := ARRAY(SELECT DISTINCT r.tenant_id FROM old_rows r);
  ELSE
    v_tenants := ARRAY(SELECT DISTINCT r.tenant_id FROM new_rows r);
  END IF;
  FOREACH v_tenant IN ARRAY v_tenants LOOP
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(1), array_agg(r.id), array_agg(r.completed_at) INTO x_sign, x_id, x_at
        FROM new_rows r WHERE r.tenant_id = v_tenant AND r.status = 'completed' AND r.completed_at IS NOT NULL;
      SELECT array_agg(c.job_id), array_agg(c.added) INTO c_job, c_added
        FROM (SELECT r.job_id, count(*) AS added FROM new_rows r WHERE r.tenant_id = v_tenant GROUP BY 1) c;
    ELSIF TG_OP = 'DELETE' THEN
      x_sign := NULL;
      SELECT array_agg(c.job_id), array_agg(c.added) INTO c_job, c_added
        FROM (SELECT r.job_id, -count(*) AS added FROM old_rows r WHERE r.tenant_id = v_tenant GROUP BY 1) c;
    ELSE
      SELECT array_agg(x.sign), array_agg(x.id), array_agg(x.completed_at) INTO x_sign, x_id, x_at
        FROM (SELECT -1 AS sign, r.id, r.status, r.completed_at FROM old_rows r WHERE r.tenant_id = v_tenant
              UNION ALL SELECT 1, r.id, r.status, r.completed_at FROM new_rows r WHERE r.tenant_id = v_tenant) x
       WHERE x.status = 'completed' AND x.completed_at IS NOT NULL;
      SELECT array_agg(c.job_id), array_agg(c.added) INTO c_job, c_added
        FROM (SELECT x.job_id, sum(x.sign) AS added
                FROM (SELECT -1 AS sign, r.job_id FROM old_rows r WHERE r.tenant_id = v_tenant
                      UNION ALL SELECT 1, r.job_id FROM new_rows r WHERE r.tenant_id = v_tenant) x
               GROUP BY 1 HAVING sum(x.sign) <> 0) c;
    END IF;

    -- An inserted visit has no crew yet: it counts under no one.
    IF TG_OP = 'UPDATE' AND x_id IS NOT NULL THEN
      SELECT array_agg(a.visit_id), array_agg(a.user_id) INTO a_visit, a_user
        FROM visit_assignees a WHERE a.tenant_id = v_tenant AND a.visit_id = ANY (x_id);
    ELSE
      a_visit := NULL;
    END IF;
    j_id := NULL;
    k_job := NULL;
    IF c_job IS NOT NULL THEN
      SELECT array_agg(j.id), array_agg(j.completed_at), array_agg(j.assignee_id) INTO j_id, j_at, j_who
        FROM jobs j WHERE j.tenant_id = v_tenant AND j.id = ANY (c_job) AND j.status = 'completed' AND j.completed_at IS NOT NULL;
      IF j_id IS NOT NULL THEN
        SELECT array_agg(v.job_id), array_agg(v.n) INTO k_job, k_count
          FROM (SELECT v.job_id, count(*) AS n FROM visits v WHERE v.tenant_id = v_tenant AND v.job_id = ANY (j_id) GROUP BY 1) v;
      END IF;
    END IF;
    CONTINUE WHEN x_id IS NULL AND j_id IS NULL;

    SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT v_tenant, 'visits_completed', d.week, d.party_id, sum(d.sign)
      FROM (
        -- a completed visit: once per member of its crew, or once under no one
        SELECT greatest(date_trunc('week', x.completed_at AT TIME ZONE v_zone), date_trunc('month', x.completed_at AT TIME ZONE v_zone))::date AS week,
               a.user_id AS party_id, x.sign
          FROM unnest(x_sign, x_id, x_at) x(sign, id, completed_at)
          LEFT JOIN unnest(a_visit, a_user) a(visit_id, user_id) ON a.visit_id = x.id
        UNION ALL
        -- a completed job that gained its first visit loses its own count; one that lost its last gets it back
        SELECT greatest(date_trunc('week', j.completed_at AT TIME ZONE v_zone), date_trunc('month', j.completed_at AT TIME ZONE v_zone))::date,
               j.assignee_id, (coalesce(k.n, 0) = 0)::int - (coalesce(k.n, 0) - c.added = 0)::int
          FROM unnest(j_id, j_at, j_who) j(id, completed_at, assignee_id)
          JOIN unnest(c_job, c_added) c(job_id, added) ON c.job_id = j.id
          LEFT JOIN unnest(k_job, k_count) k(job_id, n) ON k.job_id = j.id
      ) d
     GROUP BY d.week, d.party_id
    HAVING sum(d.sign) <> 0;
  END LOOP;
  RETURN NULL;
END
$fn$;
