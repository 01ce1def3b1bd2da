-- The mail worker claims due messages across tenants (FOR UPDATE SKIP LOCKED, one lease each).
-- The one current definition: db/functions.ts applies it when this file changes.
-- Dropped first: its result columns changed (list_unsubscribe), which CREATE OR REPLACE cannot do.
DROP FUNCTION IF EXISTS public.app_messages_claim(text, integer, integer);
CREATE OR REPLACE FUNCTION public.app_messages_claim(p_server text, p_limit integer, p_lease_ms integer)
 RETURNS TABLE(tenant_id uuid, id uuid, attempts integer, to_address text, to_name text, reply_to text, from_name text, subject text, text_body text, html_body text, message_id text, link_ref text, list_unsubscribe text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE
      d record;
      v_now timestamptz := clock_timestamp();
      v_until timestamptz := clock_timestamp() + make_interval(secs => p_lease_ms / 1000.0);
    BEGIN
      FOR d IN SELECT x.tenant_id, x.id FROM messages x
                WHERE x.status IN ('queued', 'sending') AND x.next_attempt_at <= v_now
                ORDER BY x.next_attempt_at
                LIMIT p_limit LOOP
        RETURN QUERY
          UPDATE messages m
             SET status = 'sending', claimed_by = p_server, attempts = m.attempts + 1, next_attempt_at = v_until
           WHERE m.tenant_id = d.tenant_id AND m.id = d.id
             AND m.status IN ('queued', 'sending') AND m.next_attempt_at <= v_now
          RETURNING m.tenant_id, m.id, m.attempts, m.to_address, m.to_name, m.reply_to, m.from_name,
                  m.subject, m.text_body, m.html_body, m.message_id, m.link_ref, m.list_unsubscribe;
      END LOOP;
    END $function$;
REVOKE ALL ON FUNCTION app_messages_claim(text, int, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_messages_claim(text, int, int) TO fieldservice_app;
