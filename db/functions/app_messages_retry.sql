-- The mail worker records a failed attempt and when to try again.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_messages_retry(p_tenant uuid, p_id uuid, p_server text, p_attempt integer, p_error text, p_delay_ms integer, p_final boolean)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE v_now timestamptz := clock_timestamp();
    BEGIN
      UPDATE messages
         SET status = CASE WHEN p_final THEN 'failed' ELSE 'queued' END,
             next_attempt_at = v_now + make_interval(secs => p_delay_ms / 1000.0),
             last_error = left(p_error, 1000), claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $function$;
REVOKE ALL ON FUNCTION app_messages_retry(uuid, uuid, text, int, text, int, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_messages_retry(uuid, uuid, text, int, text, int, boolean) TO fieldservice_app;
