-- The mail worker gives a claimed message back unsent.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_messages_release(p_tenant uuid, p_id uuid, p_server text, p_attempt integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE v_now timestamptz := clock_timestamp();
    BEGIN
      UPDATE messages SET status = 'queued', next_attempt_at = v_now, attempts = attempts - 1, claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $function$;
REVOKE ALL ON FUNCTION app_messages_release(uuid, uuid, text, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_messages_release(uuid, uuid, text, int) TO fieldservice_app;
