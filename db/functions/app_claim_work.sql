-- Fair sharing's lease on a unit of heavy work per tenant and user (docs/decisions/193).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_claim_work(p_tenant uuid, p_user uuid, p_kind text, p_tenant_max integer, p_user_max integer, p_seconds integer)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE
      n_tenant int;
      n_user int;
      v_id uuid;
      v_now timestamptz;
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      PERFORM pg_advisory_xact_lock(hashtextextended('work_leases:' || p_tenant::text || ':' || p_kind, 0));
      v_now := clock_timestamp();
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind AND expires_at <= v_now;
      SELECT count(*), count(*) FILTER (WHERE user_id = p_user) INTO n_tenant, n_user
        FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind;
      IF n_tenant >= p_tenant_max OR (p_user IS NOT NULL AND n_user >= p_user_max) THEN
        RETURN NULL;
      END IF;
      INSERT INTO work_leases (tenant_id, user_id, kind, expires_at)
        VALUES (p_tenant, p_user, p_kind, v_now + make_interval(secs => p_seconds))
        RETURNING id INTO v_id;
      RETURN v_id;
    END $function$;
GRANT EXECUTE ON FUNCTION app_claim_work(uuid, uuid, text, int, int, int) TO fieldservice_app;
