-- One batch of the maintenance cleanup: the expired rows of one kind, across tenants.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_cleanup_batch(p_kind text, p_batch integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    DECLARE n int := 0;
    BEGIN
      IF p_kind = 'sessions' THEN
        DELETE FROM sessions s USING (
          SELECT tenant_id, id FROM sessions WHERE expires_at < now() LIMIT p_batch
        ) old WHERE s.tenant_id = old.tenant_id AND s.id = old.id;
      ELSIF p_kind = 'rate_limits' THEN
        -- rate-limiter-flexible stores the window's end in ms since the epoch.
        DELETE FROM rate_limits r USING (
          SELECT key FROM rate_limits WHERE expire IS NOT NULL AND expire < (extract(epoch FROM now()) * 1000)::bigint LIMIT p_batch
        ) old WHERE r.key = old.key;
      ELSIF p_kind = 'previews' THEN
        -- A preview lives 24 hours: its stored chunks go, the run says it was superseded.
        WITH old AS (
          SELECT d.tenant_id, d.run_id, d.kind, d.seq FROM import_run_data d
            JOIN import_runs r ON r.tenant_id = d.tenant_id AND r.id = d.run_id
           WHERE r.state IN ('previewed', 'superseded') AND r.created_at < now() - interval '24 hours'
           LIMIT p_batch
        ) DELETE FROM import_run_data d USING old
           WHERE d.tenant_id = old.tenant_id AND d.run_id = old.run_id AND d.kind = old.kind AND d.seq = old.seq;
        GET DIAGNOSTICS n = ROW_COUNT;
        UPDATE import_runs r SET state = 'superseded', superseded_at = now()
         WHERE r.state = 'previewed' AND r.created_at < now() - interval '24 hours'
           AND NOT EXISTS (SELECT 1 FROM import_run_data d WHERE d.tenant_id = r.tenant_id AND d.run_id = r.id);
        RETURN n;

      ELSIF p_kind = 'messages' THEN
        -- Finished outbox rows older than 30 days go. A reminder's row stays, its bodies emptied:
        -- it is the memory that the reminder was sent once (its unique dedupe key).
        DELETE FROM messages m USING (
          SELECT tenant_id, id FROM messages
           WHERE status IN ('sent', 'failed', 'local') AND dedupe_key IS NULL AND created_at < now() - interval '30 days'
           LIMIT p_batch
        ) old WHERE m.tenant_id = old.tenant_id AND m.id = old.id;
        GET DIAGNOSTICS n = ROW_COUNT;
        UPDATE messages m SET text_body = '', html_body = '' FROM (
          SELECT tenant_id, id FROM messages
           WHERE status IN ('sent', 'failed', 'local') AND dedupe_key IS NOT NULL AND html_body <> '' AND created_at < now() - interval '30 days'
           LIMIT p_batch
        ) old WHERE m.tenant_id = old.tenant_id AND m.id = old.id;
        RETURN n;
      ELSIF p_kind = 'summaries' THEN
        -- The summaries' delta rows of up to p_batch tenants with rows to fold, each folded
        -- into one row per figure, period, person and currency; returns the rows removed.
        SELECT coalesce(sum(summaries_fold(f.tenant_id)), 0) INTO n FROM (
          SELECT tenant_id FROM summary_deltas GROUP BY tenant_id
          HAVING count(*) > count(DISTINCT (figure, period, party_id, currency)) LIMIT p_batch
        ) f;
        RETURN n;
      ELSE
        RAISE EXCEPTION 'unknown cleanup kind %', p_kind;
      END IF;
      GET DIAGNOSTICS n = ROW_COUNT;
      RETURN n;
    END $function$;
REVOKE ALL ON FUNCTION app_cleanup_batch(text, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_cleanup_batch(text, int) TO fieldservice_app;
