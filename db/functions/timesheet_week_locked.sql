-- Whether a person's time from p_start to p_end touches a week the office approved (a row of
-- timesheet_weeks): the days are the tenant's calendar days. A field entry that lands there is
-- kept as pending, never lost and never counted until the office accepts it.
-- PL/pgSQL, not SQL: an SQL function would be inlined into the calling query, which a cluster
-- distributed by tenant cannot plan as one tenant's query. Each table names the tenant itself
-- (not through the join): on a shard, Citus runs only what it can route to that tenant's shards.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.timesheet_week_locked(p_tenant uuid, p_user uuid, p_start timestamp with time zone, p_end timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM tenants t
      JOIN timesheet_weeks w ON w.tenant_id = p_tenant AND w.user_id = p_user
     WHERE t.id = p_tenant
       AND w.week_start <= (p_end AT TIME ZONE t.time_zone)::date
       AND w.week_start + 7 > (p_start AT TIME ZONE t.time_zone)::date);
END
$function$;
