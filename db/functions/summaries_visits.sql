-- Statement trigger on visits (insert, update, delete): visits completed per technician and
-- week (tenant's zone), as insert-only delta rows. A completed visit counts once for each
-- member of its crew, or once under no one without a crew; a completed job without any visit
-- counts once for its technician (summaries_jobs), so a job that gains its first visit or
-- loses its last one moves its count here. A new visit has no crew yet (its crew rows come
-- after it; summaries_visit_assignees moves the count to them); a deleted visit's count left
-- in summaries_visit_deleted, before its crew rows went with it.
-- Each operation reads its transition tables directly (one statement per operation: a query
-- naming old_rows cannot be planned in an insert's trigger): copying every changed row into an
-- array first cost more than the rest of the trigger when a series adds thousands of visits.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_visits() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT d.tenant_id, 'visits_completed', d.week, d.party_id, sum(d.sign)
      FROM (
        -- a new visit counts under no one (no join: its crew comes after it)
        SELECT x.tenant_id, greatest(date_trunc('week', x.completed_at AT TIME ZONE t.time_zone), date_trunc('month', x.completed_at AT TIME ZONE t.time_zone))::date AS week,
               NULL::uuid AS party_id, 1 AS sign
          FROM new_rows x
          JOIN tenants t ON t.id = x.tenant_id
         WHERE x.status = 'completed' AND x.completed_at IS NOT NULL
        UNION ALL
        -- jobs that gained their first visit: their own count goes
        SELECT j.tenant_id, greatest(date_trunc('week', j.completed_at AT TIME ZONE t.time_zone), date_trunc('month', j.completed_at AT TIME ZONE t.time_zone))::date, j.assignee_id,
               (now_count = 0)::int - (now_count - c.added = 0)::int
          FROM (SELECT r.tenant_id, r.job_id, count(*) AS added FROM new_rows r GROUP BY 1, 2) c
          JOIN jobs j ON j.tenant_id = c.tenant_id AND j.id = c.job_id
          JOIN tenants t ON t.id = j.tenant_id
          CROSS JOIN LATERAL (SELECT count(*) AS now_count FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id) k
         WHERE j.status = 'completed' AND j.completed_at IS NOT NULL
      ) d
     GROUP BY d.tenant_id, d.week, d.party_id
    HAVING sum(d.sign) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    -- jobs that lost their last visit: their own count comes back
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT d.tenant_id, 'visits_completed', d.week, d.party_id, sum(d.sign)
      FROM (
        SELECT j.tenant_id, greatest(date_trunc('week', j.completed_at AT TIME ZONE t.time_zone), date_trunc('month', j.completed_at AT TIME ZONE t.time_zone))::date AS week,
               j.assignee_id AS party_id, (now_count = 0)::int - (now_count - c.added = 0)::int AS sign
          FROM (SELECT r.tenant_id, r.job_id, -count(*) AS added FROM old_rows r GROUP BY 1, 2) c
          JOIN jobs j ON j.tenant_id = c.tenant_id AND j.id = c.job_id
          JOIN tenants t ON t.id = j.tenant_id
          CROSS JOIN LATERAL (SELECT count(*) AS now_count FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id) k
         WHERE j.status = 'completed' AND j.completed_at IS NOT NULL
      ) d
     GROUP BY d.tenant_id, d.week, d.party_id
    HAVING sum(d.sign) <> 0;
  ELSE
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, amount)
    SELECT d.tenant_id, 'visits_completed', d.week, d.party_id, sum(d.sign)
      FROM (
        -- a changed visit with its crew: the old row's count goes, the new one's comes
        SELECT x.tenant_id, greatest(date_trunc('week', x.completed_at AT TIME ZONE t.time_zone), date_trunc('month', x.completed_at AT TIME ZONE t.time_zone))::date AS week,
               a.user_id AS party_id, x.sign
          FROM (SELECT -1 AS sign, r.tenant_id, r.id, r.status, r.completed_at FROM old_rows r
                UNION ALL SELECT 1, r.tenant_id, r.id, r.status, r.completed_at FROM new_rows r) x
          JOIN tenants t ON t.id = x.tenant_id
          LEFT JOIN visit_assignees a ON a.tenant_id = x.tenant_id AND a.visit_id = x.id
         WHERE x.status = 'completed' AND x.completed_at IS NOT NULL
        UNION ALL
        -- a visit moved to another job: as the delete from one and the insert into the other
        SELECT j.tenant_id, greatest(date_trunc('week', j.completed_at AT TIME ZONE t.time_zone), date_trunc('month', j.completed_at AT TIME ZONE t.time_zone))::date, j.assignee_id,
               (now_count = 0)::int - (now_count - c.added = 0)::int
          FROM (SELECT x.tenant_id, x.job_id, sum(x.sign) AS added
                  FROM (SELECT -1 AS sign, r.tenant_id, r.job_id FROM old_rows r
                        UNION ALL SELECT 1, r.tenant_id, r.job_id FROM new_rows r) x
                 GROUP BY 1, 2) c
          JOIN jobs j ON j.tenant_id = c.tenant_id AND j.id = c.job_id
          JOIN tenants t ON t.id = j.tenant_id
          CROSS JOIN LATERAL (SELECT count(*) AS now_count FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id) k
         WHERE c.added <> 0 AND j.status = 'completed' AND j.completed_at IS NOT NULL
      ) d
     GROUP BY d.tenant_id, d.week, d.party_id
    HAVING sum(d.sign) <> 0;
  END IF;
  RETURN NULL;
END
$fn$;
