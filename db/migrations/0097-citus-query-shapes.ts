import type { Migration } from "../migrate";

/**
 * Function bodies Citus refuses, rewritten with the same meaning on one node
 * (docs/decisions/228-citus-run.md):
 * - `app_claim_work`: a volatile function (`clock_timestamp()`) in the WHERE clause of a DELETE
 *   on a distributed table is refused; the time is read once into a variable (a parameter to
 *   the planner). The lease's expiry is counted from the same instant.
 * - `app_claim_work` and `app_release_work` run as their owner (SECURITY DEFINER, every
 *   statement filtered by `p_tenant` as before): Citus runs them on the tenant's worker when it
 *   delegates the call, but on the coordinator when it does not (seen on the cluster for some
 *   calls), and from there their `set_config('app.tenant_id')` does not reach the workers'
 *   row-level security, so the lease's INSERT was refused.
 * - `app_messages_claim` (the mail worker, across tenants): Citus refuses `FOR UPDATE SKIP
 *   LOCKED` on a query over every shard. The due rows are read without a lock, then each is
 *   claimed by its key with the same conditions re-checked by the UPDATE (one tenant's row per
 *   statement). A row another worker claims meanwhile fails the re-check after that claim
 *   commits (PostgreSQL re-reads the row an UPDATE waited for), so a row is still claimed once;
 *   a second worker waits for the first's short claim instead of skipping its rows.
 * - `app_messages_sent`, `app_messages_retry`, `app_messages_release`: `clock_timestamp()` in
 *   an UPDATE's SET of a distributed table is refused; read once into a variable.
 */
const claimWork = (now: string) => `
    CREATE OR REPLACE FUNCTION app_claim_work(p_tenant uuid, p_user uuid, p_kind text, p_tenant_max int, p_user_max int, p_seconds int)
      RETURNS uuid LANGUAGE plpgsql ${now === "v_now" ? "SECURITY DEFINER " : ""}SET search_path = public AS $fn$
    DECLARE
      n_tenant int;
      n_user int;
      v_id uuid;
      ${now === "v_now" ? "v_now timestamptz;" : ""}
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      PERFORM pg_advisory_xact_lock(hashtextextended('work_leases:' || p_tenant::text || ':' || p_kind, 0));
      ${now === "v_now" ? "v_now := clock_timestamp();" : ""}
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind AND expires_at <= ${now};
      SELECT count(*), count(*) FILTER (WHERE user_id = p_user) INTO n_tenant, n_user
        FROM work_leases WHERE tenant_id = p_tenant AND kind = p_kind;
      IF n_tenant >= p_tenant_max OR (p_user IS NOT NULL AND n_user >= p_user_max) THEN
        RETURN NULL;
      END IF;
      INSERT INTO work_leases (tenant_id, user_id, kind, expires_at)
        VALUES (p_tenant, p_user, p_kind, ${now} + make_interval(secs => p_seconds))
        RETURNING id INTO v_id;
      RETURN v_id;
    END $fn$`;

const releaseWork = (definer: boolean) => `
    CREATE OR REPLACE FUNCTION app_release_work(p_tenant uuid, p_id uuid) RETURNS void
      LANGUAGE plpgsql ${definer ? "SECURITY DEFINER " : ""}SET search_path = public AS $fn$
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      DELETE FROM work_leases WHERE tenant_id = p_tenant AND id = p_id;
    END $fn$`;

const MESSAGE_COLUMNS = `m.tenant_id, m.id, m.attempts, m.to_address, m.to_name, m.reply_to, m.from_name,
                  m.subject, m.text_body, m.html_body, m.message_id, m.link_ref`;
const messagesClaim = (byKey: boolean) => `
    CREATE OR REPLACE FUNCTION app_messages_claim(p_server text, p_limit int, p_lease_ms int)
      RETURNS TABLE (tenant_id uuid, id uuid, attempts int, to_address text, to_name text, reply_to text, from_name text,
                     subject text, text_body text, html_body text, message_id text, link_ref text)
      LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    ${
      byKey
        ? `DECLARE
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
          RETURNING ${MESSAGE_COLUMNS};
      END LOOP;
    END`
        : `BEGIN
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
        RETURNING ${MESSAGE_COLUMNS};
    END`
    } $fn$`;

/** The three per-message functions (0050, `app_messages_sent` as 0051 left it), `now` the time they stamp. */
const messageUpdates = (now: string) => {
  const declare = now === "v_now" ? "v_now timestamptz := clock_timestamp();" : "";
  return [
    `CREATE OR REPLACE FUNCTION app_messages_sent(p_tenant uuid, p_id uuid, p_server text, p_attempt int, p_response text)
      RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
    DECLARE r messages%ROWTYPE; ${declare}
    BEGIN
      UPDATE messages SET status = 'sent', sent_at = ${now}, smtp_response = left(p_response, 1000),
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
    END $fn$`,
    `CREATE OR REPLACE FUNCTION app_messages_retry(p_tenant uuid, p_id uuid, p_server text, p_attempt int, p_error text, p_delay_ms int, p_final boolean)
      RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    ${declare ? `DECLARE ${declare}` : ""}
    BEGIN
      UPDATE messages
         SET status = CASE WHEN p_final THEN 'failed' ELSE 'queued' END,
             next_attempt_at = ${now} + make_interval(secs => p_delay_ms / 1000.0),
             last_error = left(p_error, 1000), claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $fn$`,
    `CREATE OR REPLACE FUNCTION app_messages_release(p_tenant uuid, p_id uuid, p_server text, p_attempt int)
      RETURNS boolean LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    ${declare ? `DECLARE ${declare}` : ""}
    BEGIN
      UPDATE messages SET status = 'queued', next_attempt_at = ${now}, attempts = attempts - 1, claimed_by = NULL
       WHERE tenant_id = p_tenant AND id = p_id AND status = 'sending' AND claimed_by = p_server AND attempts = p_attempt;
      RETURN FOUND;
    END $fn$`,
  ];
};

export const up: Migration = async ({ context: sql }) => {
  await sql.query(claimWork("v_now"));
  await sql.query(releaseWork(true));
  await sql.query(messagesClaim(true));
  for (const fn of messageUpdates("v_now")) await sql.query(fn);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(claimWork("clock_timestamp()"));
  await sql.query(releaseWork(false));
  await sql.query(messagesClaim(false));
  for (const fn of messageUpdates("clock_timestamp()")) await sql.query(fn);
};
