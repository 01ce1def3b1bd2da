import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * Automatic reminders (docs/decisions/143).
 * - tenants: quote follow-up after N days without an answer, invoice reminders N days before
 *   and N days after the due date, a visit reminder the day before a scheduled job. NULL (or
 *   false) is off, the default: nothing is sent on a business's behalf until it says so.
 * - customers.auto_reminders: the customer's "receives automatic follow-ups" (Jobber's words);
 *   the unsubscribe link of a reminder turns it off.
 * - app_reminders_due(limit): SECURITY DEFINER (it looks across tenants, like the outbox's
 *   claim), the reminders due now whose key has no message yet. Each is then written in its
 *   tenant's transaction with its key (`messages_dedupe`), so it is sent once however many
 *   servers run the job and however often.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE tenants
      ADD COLUMN reminder_quote_days integer CHECK (reminder_quote_days BETWEEN 1 AND 365),
      ADD COLUMN reminder_invoice_before_days integer CHECK (reminder_invoice_before_days BETWEEN 0 AND 365),
      ADD COLUMN reminder_invoice_after_days integer CHECK (reminder_invoice_after_days BETWEEN 1 AND 365),
      ADD COLUMN reminder_visit boolean NOT NULL DEFAULT false;
    ALTER TABLE customers ADD COLUMN auto_reminders boolean NOT NULL DEFAULT true;

    CREATE FUNCTION app_reminders_due(p_limit int)
      RETURNS TABLE (tenant_id uuid, record_type text, record_id uuid, reminder text, dedupe_key text)
      LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $fn$
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
        SELECT j.tenant_id, 'job', j.id, 'visit', 'visit:' || j.id || ':' || (j.scheduled_start AT TIME ZONE t.time_zone)::date
          FROM jobs j JOIN tenants t ON t.id = j.tenant_id
          JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
         WHERE t.reminder_visit AND j.status = 'scheduled' AND j.scheduled_start IS NOT NULL
           AND c.auto_reminders AND c.email IS NOT NULL
           AND (j.scheduled_start AT TIME ZONE t.time_zone)::date = (now() AT TIME ZONE t.time_zone)::date + 1
      )
      SELECT d.tenant_id, d.record_type, d.record_id, d.reminder, d.dedupe_key FROM due d
       WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.tenant_id = d.tenant_id AND m.dedupe_key = d.dedupe_key)
       LIMIT p_limit;
    END $fn$;
    REVOKE ALL ON FUNCTION app_reminders_due(int) FROM PUBLIC;

    -- A reminder's history line says it was a reminder.
    CREATE OR REPLACE FUNCTION app_messages_sent(p_tenant uuid, p_id uuid, p_server text, p_attempt int, p_response text)
      RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
    DECLARE r messages%ROWTYPE;
    BEGIN
      UPDATE messages SET status = 'sent', sent_at = clock_timestamp(), smtp_response = left(p_response, 1000),
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
    END $fn$;
    GRANT EXECUTE ON FUNCTION app_reminders_due(int) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP FUNCTION app_reminders_due(int);
    ALTER TABLE customers DROP COLUMN auto_reminders;
    ALTER TABLE tenants DROP COLUMN reminder_quote_days, DROP COLUMN reminder_invoice_before_days,
      DROP COLUMN reminder_invoice_after_days, DROP COLUMN reminder_visit;
  `);
};
