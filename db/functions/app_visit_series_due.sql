-- The tenants with open-ended visit series whose visits are not yet made 12 months ahead of
-- `p_now` (each series in its own zone), and how many such series each has: the horizon
-- worker's list (docs/decisions/315-recurring-visits.md). It crosses tenants, so it is
-- SECURITY DEFINER; the worker then makes the visits inside each tenant's own transaction.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_visit_series_due(p_now timestamptz, p_limit integer)
 RETURNS TABLE(tenant_id uuid, due integer)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
BEGIN
  RETURN QUERY
  SELECT s.tenant_id, count(*)::int AS due
    FROM visit_series s
   WHERE s.open_ended
     -- The index's bound (no zone is more than a day from UTC), then each series' own zone.
     AND s.made_until < (p_now AT TIME ZONE 'UTC') + interval '12 months 1 day'
     AND s.made_until < (p_now AT TIME ZONE s.time_zone) + interval '12 months'
   GROUP BY s.tenant_id
   ORDER BY s.tenant_id
   LIMIT p_limit;
END
$function$;
REVOKE ALL ON FUNCTION app_visit_series_due(timestamptz, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_visit_series_due(timestamptz, int) TO fieldservice_app;
