-- Applies ONE field-app mutation in the caller's transaction; the rules come as arguments from app/services/field (docs/decisions/031, 212).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.field_apply_mutation(p_tenant uuid, p_user uuid, p_client uuid, p_mutation_id bigint, p_type text, p_job uuid, p_any_job boolean, p_status text, p_allowed_from text[], p_body text, p_started timestamp with time zone, p_ended timestamp with time zone, p_occurred timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
    DECLARE
      v_last bigint;
      v_status text;
      v_assignee uuid;
      v_outcome text := 'applied';
      v_reason text;
      v_missing jsonb;
      v_args jsonb;
      v_clock job_clocks%ROWTYPE;
      v_end timestamptz;
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
        IF p_type IN ('job.clock', 'job.checklist', 'job.signature') THEN v_args := p_body::jsonb; END IF;
        SELECT * INTO v_clock FROM job_clocks WHERE tenant_id = p_tenant AND job_id = p_job;
        IF v_status IS NULL THEN
          v_outcome := 'not_found';
        ELSIF NOT p_any_job AND v_assignee IS DISTINCT FROM p_user THEN
          v_outcome := 'forbidden';
        ELSIF p_type = 'job.status' THEN
          IF NOT (v_status = ANY (p_allowed_from)) THEN
            v_outcome := 'conflict';
          ELSIF p_status = 'completed' AND (SELECT t.checklist_required FROM tenants t WHERE t.id = p_tenant) THEN
            SELECT jsonb_agg(i.label ORDER BY i.position) INTO v_missing FROM job_checklist_items i
             WHERE i.tenant_id = p_tenant AND i.job_id = p_job AND i.done_at IS NULL;
            IF v_missing IS NOT NULL THEN
              v_outcome := 'conflict';
              v_reason := 'checklist_incomplete';
            END IF;
          END IF;
          IF v_outcome = 'applied' THEN
            UPDATE jobs SET status = p_status, updated_at = now(),
                   completed_at = CASE WHEN p_status = 'completed' THEN p_occurred ELSE completed_at END
             WHERE tenant_id = p_tenant AND id = p_job;
            INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status, occurred_at)
            VALUES (p_tenant, p_job, p_user, v_status, p_status, p_occurred);
            -- The one clock goes with the status: on the way and at work it runs, on hold and done it stops.
            IF p_status IN ('en_route', 'in_progress') THEN
              IF v_clock.job_id IS NULL THEN
                INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at, on_site_at)
                VALUES (p_tenant, p_job, p_user, p_occurred, CASE WHEN p_status = 'in_progress' THEN p_occurred END);
              ELSIF p_status = 'in_progress' AND v_clock.on_site_at IS NULL THEN
                UPDATE job_clocks SET on_site_at = greatest(p_occurred, v_clock.started_at) WHERE tenant_id = p_tenant AND job_id = p_job;
              END IF;
            ELSIF v_clock.job_id IS NOT NULL THEN
              v_reason := 'stop';
            END IF;
          END IF;
        ELSIF p_type = 'job.note' THEN
          INSERT INTO job_notes (tenant_id, job_id, author_id, body, occurred_at)
          VALUES (p_tenant, p_job, p_user, p_body, p_occurred);
        ELSIF p_type = 'job.time_entry' THEN
          INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note)
          VALUES (p_tenant, p_job, p_user, p_started, p_ended, p_body);
        ELSIF p_type = 'job.clock' THEN
          IF v_args ->> 'action' = 'start' THEN
            IF v_clock.job_id IS NOT NULL THEN
              v_outcome := 'conflict'; v_reason := 'clock_running';
            ELSIF v_status NOT IN ('en_route', 'in_progress') THEN
              v_outcome := 'conflict'; v_reason := 'clock_not_started';
            ELSE
              INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at, on_site_at)
              VALUES (p_tenant, p_job, p_user, p_occurred, CASE WHEN v_status = 'in_progress' THEN p_occurred END);
            END IF;
          ELSIF v_clock.job_id IS NULL THEN
            v_outcome := 'conflict'; v_reason := 'clock_stopped';
          ELSE
            v_reason := 'stop';
          END IF;
        ELSIF p_type = 'job.checklist' THEN
          IF v_status IN ('completed', 'cancelled') THEN
            v_outcome := 'conflict'; v_reason := 'closed';
          ELSE
            UPDATE job_checklist_items
               SET done_at = CASE WHEN (v_args ->> 'done')::boolean THEN p_occurred END,
                   done_by = CASE WHEN (v_args ->> 'done')::boolean THEN p_user END
             WHERE tenant_id = p_tenant AND job_id = p_job AND id = (v_args ->> 'itemId')::uuid;
            IF NOT FOUND THEN v_outcome := 'not_found'; v_reason := 'item'; END IF;
          END IF;
        ELSIF p_type = 'job.signature' THEN
          IF v_status = 'cancelled' THEN
            v_outcome := 'conflict'; v_reason := 'closed';
          ELSE
            INSERT INTO job_signatures (tenant_id, job_id, signer_name, image, signed_at, collected_by, updated_at)
            VALUES (p_tenant, p_job, v_args ->> 'name', decode(v_args ->> 'image', 'base64'), p_occurred, p_user, now())
            ON CONFLICT (tenant_id, job_id) DO UPDATE
               SET signer_name = EXCLUDED.signer_name, image = EXCLUDED.image, signed_at = EXCLUDED.signed_at,
                   collected_by = EXCLUDED.collected_by, updated_at = EXCLUDED.updated_at;
          END IF;
        ELSE
          RAISE EXCEPTION 'unknown field mutation type %', p_type;
        END IF;

        IF v_reason = 'stop' THEN
          -- The running clock becomes a time entry, from its start to this mutation's time (never
          -- before its start; at most 24 hours, time_entries' limit: a forgotten clock is capped).
          v_end := least(greatest(p_occurred, v_clock.started_at), v_clock.started_at + interval '24 hours');
          INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note)
          VALUES (p_tenant, p_job, v_clock.user_id, v_clock.started_at, v_end,
                  CASE WHEN v_end < p_occurred AND p_occurred - v_clock.started_at > interval '24 hours'
                       THEN 'The clock ran for more than 24 hours; this entry stops at 24 hours.' END);
          DELETE FROM job_clocks WHERE tenant_id = p_tenant AND job_id = p_job;
          v_reason := NULL;
        END IF;
      END IF;

      RETURN jsonb_build_object('outcome', v_outcome, 'lastMutationId', p_mutation_id, 'jobStatus', v_status, 'reason', v_reason, 'missing', v_missing);
    END
    $function$;
