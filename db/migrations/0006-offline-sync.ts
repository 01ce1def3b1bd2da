import type { Migration } from "../migrate";

// Offline sync: one row per device ("client") with the id of the last
// mutation it had processed. The row is the lock that serialises pushes of one client, and
// its last_mutation_id commits in the same transaction as each mutation's effect.
//
// field_apply_mutation applies ONE field action in the caller's transaction. It is mechanism
// only: the rules come as arguments from app/services/field (which statuses a job may move
// from, whether the actor may act on jobs not assigned to them), which also validated the
// arguments. With a client id it first advances last_mutation_id, which locks the client
// row. field_push runs a whole push in one call, committing after every mutation, so a push
// costs one round trip however many mutations it carries (docs/decisions/031).
/** The function as this migration made it (migration 0084's down puts it back). */
export const FIELD_APPLY_MUTATION = `
    CREATE FUNCTION field_apply_mutation(
      p_tenant uuid, p_user uuid, p_client uuid, p_mutation_id bigint,
      p_type text,            -- job.status | job.note | job.time_entry; NULL = arguments refused, only count it
      p_job uuid, p_any_job boolean, p_status text, p_allowed_from text[],
      p_body text, p_started timestamptz, p_ended timestamptz, p_occurred timestamptz
    ) RETURNS jsonb LANGUAGE plpgsql AS $fn$
    DECLARE
      v_last bigint;
      v_status text;
      v_assignee uuid;
      v_outcome text := 'applied';
    BEGIN
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      IF p_client IS NOT NULL THEN
        -- Store the new id first: the update locks the client row until commit (a concurrent
        -- push of this client waits, then finds the id taken), and it only succeeds for the
        -- next id in order. A refused mutation keeps it too: it counts as processed.
        UPDATE sync_clients SET last_mutation_id = p_mutation_id, updated_at = now()
         WHERE tenant_id = p_tenant AND client_id = p_client AND user_id = p_user AND last_mutation_id = p_mutation_id - 1;
        IF NOT FOUND THEN
          SELECT c.last_mutation_id INTO v_last FROM sync_clients c
           WHERE c.tenant_id = p_tenant AND c.client_id = p_client AND c.user_id = p_user;
          IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'client_forbidden'); END IF;
          RETURN jsonb_build_object('outcome', CASE WHEN p_mutation_id <= v_last THEN 'duplicate' ELSE 'skipped' END, 'lastMutationId', v_last);
        END IF;
      END IF;

      IF p_type IS NULL THEN
        v_outcome := 'invalid';
      ELSE
        SELECT j.status, j.assignee_id INTO v_status, v_assignee FROM jobs j
         WHERE j.tenant_id = p_tenant AND j.id = p_job FOR UPDATE;
        IF NOT FOUND THEN
          v_outcome := 'not_found';
        ELSIF NOT p_any_job AND v_assignee IS DISTINCT FROM p_user THEN
          v_outcome := 'forbidden';
        ELSIF p_type = 'job.status' THEN
          IF v_status = ANY (p_allowed_from) THEN
            UPDATE jobs SET status = p_status, updated_at = now(),
                   completed_at = CASE WHEN p_status = 'completed' THEN p_occurred ELSE completed_at END
             WHERE tenant_id = p_tenant AND id = p_job;
            INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status, occurred_at)
            VALUES (p_tenant, p_job, p_user, v_status, p_status, p_occurred);
          ELSE
            v_outcome := 'conflict';
          END IF;
        ELSIF p_type = 'job.note' THEN
          INSERT INTO job_notes (tenant_id, job_id, author_id, body, occurred_at)
          VALUES (p_tenant, p_job, p_user, p_body, p_occurred);
        ELSIF p_type = 'job.time_entry' THEN
          INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note)
          VALUES (p_tenant, p_job, p_user, p_started, p_ended, p_body);
        ELSE
          RAISE EXCEPTION 'unknown field mutation type %', p_type;
        END IF;
      END IF;

      RETURN jsonb_build_object('outcome', v_outcome, 'lastMutationId', p_mutation_id, 'jobStatus', v_status);
    END
    $fn$;
`;

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE sync_clients (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      client_id uuid NOT NULL,
      -- The user that first pushed with this id; anyone else gets 403.
      user_id uuid NOT NULL,
      last_mutation_id bigint NOT NULL DEFAULT 0 CHECK (last_mutation_id >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, client_id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX sync_clients_user ON sync_clients (tenant_id, user_id);

    ${FIELD_APPLY_MUTATION}

    -- p_mutations: [{id, type (NULL when the arguments were refused), jobId, status, allowedFrom,
    -- body, startedAt, endedAt, occurredAt}]. p_results: {forbidden} or {lastMutationId, results}.
    CREATE PROCEDURE field_push(
      p_tenant uuid, p_user uuid, p_client uuid, p_any_job boolean, p_mutations jsonb, INOUT p_results jsonb DEFAULT NULL
    ) LANGUAGE plpgsql AS $fn$
    DECLARE
      v_owner uuid;
      v_last bigint;
      v_count int := jsonb_array_length(p_mutations);
      v_results jsonb := '[]';
      v_id bigint;
      r jsonb;
      m jsonb;
    BEGIN
      -- The client id belongs to the user that first used it. Each statement here sees rows
      -- committed before it started, so a concurrent first push's row is seen after the insert.
      PERFORM set_config('app.tenant_id', p_tenant::text, true);
      SELECT user_id, last_mutation_id INTO v_owner, v_last FROM sync_clients WHERE tenant_id = p_tenant AND client_id = p_client;
      IF NOT FOUND THEN
        INSERT INTO sync_clients (tenant_id, client_id, user_id) VALUES (p_tenant, p_client, p_user)
          ON CONFLICT (tenant_id, client_id) DO NOTHING;
        SELECT user_id, last_mutation_id INTO v_owner, v_last FROM sync_clients WHERE tenant_id = p_tenant AND client_id = p_client;
        COMMIT;
      END IF;
      IF v_owner IS DISTINCT FROM p_user THEN
        p_results := jsonb_build_object('forbidden', true);
        RETURN;
      END IF;

      FOR i IN 0 .. v_count - 1 LOOP
        m := p_mutations -> i;
        v_id := (m ->> 'id')::bigint;
        IF v_id <= v_last THEN
          -- last_mutation_id only grows: no need to lock anything to know this one is done.
          r := jsonb_build_object('outcome', 'duplicate', 'lastMutationId', v_last);
        ELSE
          PERFORM set_config('synchronous_commit', 'off', true); -- (field_apply_mutation sets the tenant)
          r := field_apply_mutation(p_tenant, p_user, p_client, v_id, m ->> 'type', (m ->> 'jobId')::uuid, p_any_job, m ->> 'status',
                 CASE WHEN jsonb_typeof(m -> 'allowedFrom') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(m -> 'allowedFrom')) END,
                 m ->> 'body', (m ->> 'startedAt')::timestamptz, (m ->> 'endedAt')::timestamptz, (m ->> 'occurredAt')::timestamptz);
          COMMIT;
          v_last := coalesce((r ->> 'lastMutationId')::bigint, v_last);
        END IF;
        v_results := v_results || jsonb_build_array(r);
      END LOOP;
      IF v_count > 0 AND v_last > 0 THEN
        -- The commits above did not wait for the disk; this one does, and the log is written in
        -- order, so everything the caller is about to report is durable before it answers.
        PERFORM set_config('app.tenant_id', p_tenant::text, true);
        UPDATE sync_clients SET updated_at = now() WHERE tenant_id = p_tenant AND client_id = p_client;
        COMMIT;
      END IF;
      p_results := jsonb_build_object('lastMutationId', v_last, 'results', v_results);
    END
    $fn$;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP PROCEDURE field_push(uuid, uuid, uuid, boolean, jsonb, jsonb);
    DROP FUNCTION field_apply_mutation(uuid, uuid, uuid, bigint, text, uuid, boolean, text, text[], text, timestamptz, timestamptz, timestamptz);
    DROP TABLE sync_clients;
  `);
};
