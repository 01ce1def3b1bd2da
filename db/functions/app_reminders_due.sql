-- The automatic reminders due now, across tenants (quote follow-ups, invoices, visits).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.app_reminders_due(p_limit integer)
 RETURNS TABLE(tenant_id uuid, record_type text, record_id uuid, reminder text, dedupe_key text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public'
AS $function$
    BEGIN
      RETURN QUERY
      WITH due AS (
        SELECT i.tenant_id, 'invoice'::text AS record_type, i.id AS record_id, 'invoice_before'::text AS reminder,
               'invoice-before:' || i.id || ':' || i.due_date AS dedupe_key
          FROM invoices i JOIN tenants t ON t.id = i.tenant_id
          JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
         WHERE t.reminder_invoice_before_days IS NOT NULL AND i.status IN ('sent', 'partial') AND i.due_date IS NOT NULL
           AND c.auto_reminders AND c.email IS NOT NULL
           AND (now() AT TIME ZONE t.time_zone)::date BETWEEN i.due_date - t.reminder_invoice_before_days AND i.due_date
        UNION ALL
        SELECT i.tenant_id, 'invoice', i.id, 'invoice_after', 'invoice-after:' || i.id || ':' || i.due_date
          FROM invoices i JOIN tenants t ON t.id = i.tenant_id
          JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
         WHERE t.reminder_invoice_after_days IS NOT NULL AND i.status IN ('sent', 'partial') AND i.due_date IS NOT NULL
           AND c.auto_reminders AND c.email IS NOT NULL
           AND (now() AT TIME ZONE t.time_zone)::date >= i.due_date + t.reminder_invoice_after_days
        UNION ALL
        SELECT q.tenant_id, 'quote', q.id, 'quote_follow_up', 'quote-follow-up:' || q.id || ':' || q.sent_at::date
          FROM quotes q JOIN tenants t ON t.id = q.tenant_id
          JOIN customers c ON c.tenant_id = q.tenant_id AND c.id = q.customer_id
         WHERE t.reminder_quote_days IS NOT NULL AND q.status = 'sent' AND q.sent_at IS NOT NULL
           AND (q.valid_until IS NULL OR q.valid_until >= (now() AT TIME ZONE t.time_zone)::date)
           AND c.auto_reminders AND c.email IS NOT NULL
           AND q.sent_at <= now() - make_interval(days => t.reminder_quote_days)
        UNION ALL
        -- One reminder per visit starting tomorrow (docs/decisions/321-visit-reminders.md): the key
        -- names the visit and its day; a job's reminder sent under the key of before visits
        -- ('visit:<job>:<day>') counts for that day's visit of the job.
        SELECT v.tenant_id, 'job', v.job_id, 'visit', 'visit:' || v.job_id || ':' || v.id || ':' || (v.starts_at AT TIME ZONE t.time_zone)::date
          FROM visits v JOIN tenants t ON t.id = v.tenant_id
          JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
          JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
         WHERE t.reminder_visit AND v.status = 'scheduled' AND j.status NOT IN ('cancelled', 'completed')
           AND v.starts_at > now() AND v.starts_at < now() + interval '50 hours'
           AND c.auto_reminders AND c.email IS NOT NULL
           AND (v.starts_at AT TIME ZONE t.time_zone)::date = (now() AT TIME ZONE t.time_zone)::date + 1
           AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.tenant_id = v.tenant_id
                              AND m.dedupe_key = 'visit:' || v.job_id || ':' || (v.starts_at AT TIME ZONE t.time_zone)::date)
      )
      SELECT d.tenant_id, d.record_type, d.record_id, d.reminder, d.dedupe_key FROM due d
       WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.tenant_id = d.tenant_id AND m.dedupe_key = d.dedupe_key)
       LIMIT p_limit;
    END $function$;
REVOKE ALL ON FUNCTION app_reminders_due(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_reminders_due(int) TO fieldservice_app;
