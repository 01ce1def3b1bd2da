import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * The transactional outbox of e-mails (docs/decisions/140, 141).
 *
 * - `messages`: one row per e-mail, written in the same transaction as the effect it tells of
 *   (a quote sent, a payment recorded...). Its `message_id` (the `Message-ID` header) is fixed
 *   when the row is written, so every attempt of one row carries the same one.
 * - A worker claims due rows with `app_messages_claim`: `FOR UPDATE SKIP LOCKED`, status
 *   `sending`, `attempts + 1`, and `next_attempt_at` moved to the end of a lease. The claim is
 *   committed before the SMTP exchange, so no other worker takes the row while it is sent; a
 *   worker that dies leaves the row to be claimed again when the lease ends.
 * - `app_messages_sent` marks a row sent with the SMTP answer (only the claim that is still
 *   current: same server, same attempt), and for a record's message writes the record's
 *   history line "Sent to ann@example.com" in the same statement's transaction.
 * - `app_messages_retry` puts a row back with a later `next_attempt_at` (backoff), or fails it.
 * The functions are SECURITY DEFINER: the worker crosses tenants, and the app role sees one
 * tenant's rows only (as app_cleanup_batch of 0011); PL/pgSQL, and every key and unique index
 * starts with tenant_id, so the table stays distributable (decision 210).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE messages (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('quote_sent', 'invoice_sent', 'receipt', 'invite', 'reminder',
        'office_booking_request', 'office_quote_answered', 'office_portal_payment')),
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'local')),
      to_address text NOT NULL CHECK (length(to_address) BETWEEN 3 AND 320),
      to_name text,
      reply_to text,
      from_name text NOT NULL,
      subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
      text_body text NOT NULL,
      html_body text NOT NULL,
      message_id text NOT NULL,
      -- The link the bodies' {{link}} stands for, never the token itself (decision 140):
      -- 'portal:<link id>' (signed again when sent) or 'sealed:<encrypted URL>' (an invite).
      link_ref text,
      record_type text CHECK (record_type IN ('customer', 'quote', 'job', 'invoice', 'booking_request')),
      record_id uuid,
      -- A reminder's "once": one row per (tenant, key), e.g. 'invoice-due-before:<id>:<due date>'.
      dedupe_key text,
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      -- When a worker may take the row: queued -> its next try; sending -> the end of its lease.
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      claimed_by text,
      smtp_response text,
      last_error text,
      sent_at timestamptz,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id)
    );
    -- Derived from the row id, unique with it; the index keeps it so (tenant first: decision 210).
    CREATE UNIQUE INDEX messages_message_id ON messages (tenant_id, message_id);
    CREATE UNIQUE INDEX messages_dedupe ON messages (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
    CREATE INDEX messages_due ON messages (next_attempt_at) WHERE status IN ('queued', 'sending');
    CREATE INDEX messages_list ON messages (tenant_id, created_at DESC, id);
    CREATE INDEX messages_record ON messages (tenant_id, record_type, record_id, created_at DESC) WHERE record_id IS NOT NULL;
    ${tenantTableSecurity("messages")}

    CREATE FUNCTION app_messages_claim(p_server text, p_limit int, p_lease_ms int)
      RETURNS TABLE (tenant_id uuid, id uuid, attempts int, to_address text, to_name text, reply_to text, from_name text,
                     subject text, text_body text, html_body text, message_id text, link_ref text)
      LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    BEGIN
      RETURN QUERY
        UPDATE messages m
           SET status = 'sending', claimed_by = p_server, attempts = m.attempts + 1,
               next_attempt_at = clock_timestamp() + make_interval(secs => p_lease_ms / 1000.0)
          FROM (SELECT d.tenant_id, d.id FROM messages d
                 WHERE d.status IN ('queued', 'sending') AND d.next_attempt_at <= clock_timestamp()
                 ORDER BY d.next_attempt_at
                 LIMIT p_limit
                 FOR UPDATE SKIP LOCKED) due
         WHERE m.tenant_id = due.tenant_id AND m.id = due.id
        RETURNING m.tenant_id, m.id, m.attempts, m.to_address, m.to_name, m.reply_to, m.from_name,
                  m.subject, m.text_body, m.html_body, m.message_id, m.link_ref;
    END $fn$;

    CREATE FUNCTION app_messages_sent(p_tenant uuid, p_id uuid, p_server text, p_attempt int, p_response text)
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
        VALUES (r.tenant_id, r.record_type, r.record_id, 'emailed', left('Sent to ' || r.to_address, 500), 'system',
                jsonb_build_object('messageId', r.id, 'kind', r.kind));
      END IF;
      RETURN true;
    END $fn$;

    CREATE FUNCTION app_messages_retry(p_tenant uuid, p_id uuid, p_server text, p_attempt int, p_error text, p_delay_ms int, p_final boolean)
      RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    BEGIN
      UPDATE messages
         SET status = CASE WHEN p_final THEN 'failed' ELSE 'queued' END,
             next_attempt_at = clock_timestamp() + make_interval(secs => p_delay_ms / 1000.0),
             last_error = left(p_error, 1000), claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $fn$;

    -- A stopping worker hands back the rows it claimed but never gave to the SMTP server.
    CREATE FUNCTION app_messages_release(p_tenant uuid, p_id uuid, p_server text, p_attempt int)
      RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    BEGIN
      UPDATE messages SET status = 'queued', next_attempt_at = clock_timestamp(), attempts = attempts - 1, claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $fn$;

    REVOKE ALL ON FUNCTION app_messages_claim(text, int, int), app_messages_sent(uuid, uuid, text, int, text),
      app_messages_retry(uuid, uuid, text, int, text, int, boolean), app_messages_release(uuid, uuid, text, int) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_messages_claim(text, int, int), app_messages_sent(uuid, uuid, text, int, text),
      app_messages_retry(uuid, uuid, text, int, text, int, boolean), app_messages_release(uuid, uuid, text, int) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP FUNCTION app_messages_claim(text, int, int), app_messages_sent(uuid, uuid, text, int, text),
      app_messages_retry(uuid, uuid, text, int, text, int, boolean), app_messages_release(uuid, uuid, text, int);
    DROP TABLE messages;
  `);
};
