-- The mail worker records a message as sent.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_messages_sent(p_tenant uuid, p_id uuid, p_server text, p_attempt integer, p_response text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE r messages%ROWTYPE; v_now timestamptz := clock_timestamp();
    BEGIN
      UPDATE messages SET status = 'sent', sent_at = v_now, smtp_response = left(p_response, 1000),
             last_error = NULL, claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt
      RETURNING * INTO r;
      IF NOT FOUND THEN RETURN false; END IF;
      IF r.record_type IS NOT NULL AND r.kind IN ('quote_sent', 'invoice_sent', 'receipt', 'reminder') THEN
        INSERT INTO record_history (tenant_id, record_type, record_id, action, summary, source, details)
        VALUES (r.tenant_id, r.record_type, r.record_id, 'emailed',
                left(CASE WHEN r.kind = 'reminder' THEN 'Reminder sent to ' WHEN r.kind = 'receipt' THEN 'Receipt sent to ' ELSE 'Sent to ' END || r.to_address, 500),
                'system', jsonb_build_object('messageId', r.id, 'kind', r.kind));
      END IF;
      RETURN true;
    END $function$;
REVOKE ALL ON FUNCTION app_messages_sent(uuid, uuid, text, int, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_messages_sent(uuid, uuid, text, int, text) TO fieldservice_app;
