-- A whole offline-sync push in one call, committing after every mutation (docs/decisions/031).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE PROCEDURE public.field_push(IN p_tenant uuid, IN p_user uuid, IN p_client uuid, IN p_any_job boolean, IN p_mutations jsonb, INOUT p_results jsonb DEFAULT NULL::jsonb)
 LANGUAGE plpgsql
AS $procedure$
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
                 m ->> 'body', (m ->> 'startedAt')::timestamptz, (m ->> 'endedAt')::timestamptz, (m ->> 'occurredAt')::timestamptz,
                 (m ->> 'visitId')::uuid);
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
    $procedure$;
