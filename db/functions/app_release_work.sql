-- Gives back a lease app_claim_work handed out (docs/decisions/193).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_release_work(p_tenant uuid, p_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND id = p_id;
    END $function$;
GRANT EXECUTE ON FUNCTION app_release_work(uuid, uuid) TO fieldservice_app;
