-- Applies ONE field-app mutation in the caller's transaction; the rules come as arguments from app/services/field (docs/decisions/031, 212).
-- A mutation acts on one visit of the job (docs/decisions/320-crews-and-visit-sync.md): the one
-- named by p_visit, else the caller's visit of the job that is under way, else the caller's visit
-- whose time is nearest p_occurred. A technician acts only on visits whose crew they are in (a
-- job without visits: only if it is assigned to them). Each crew member has their own clock; a
-- status that leaves "on the way" and "in progress" (on hold, completed) stops every clock on
-- the visit, each into its owner's time entry.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION public.field_apply_mutation(p_tenant uuid, p_user uuid, p_client uuid, p_mutation_id bigint, p_type text, p_job uuid, p_any_job boolean, p_status text, p_allowed_from text[], p_body text, p_started timestamp with time zone, p_ended timestamp with time zone, p_occurred timestamp with time zone, p_visit uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
    DECLARE
      v_last bigint;
      v_status text;
      v_from text;
      v_assignee uuid;
      v_outcome text := 'applied';
      v_reason text;
      v_missing jsonb;
      v_args jsonb;
      v_visit uuid;
      v_visit_status text;
      v_has_visits boolean;
      v_join boolean := false;
      v_clock job_clocks%ROWTYPE;
      v_stop text; -- 'all': every clock on the visit; 'own': the caller's
      v_end timestamptz;
      -- Whether a time entry lands in an approved week, asked before its INSERT: on a Citus
      -- shard a function that reads tables may not run inside another statement.
      v_state text;
      v_break_start timestamptz;
      v_break_visit uuid;
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
        IF v_status IS NULL THEN
          v_outcome := 'not_found';
        ELSIF p_visit IS NOT NULL THEN
          SELECT v.id, v.status INTO v_visit, v_visit_status FROM visits v
           WHERE v.tenant_id = p_tenant AND v.id = p_visit AND v.job_id = p_job FOR UPDATE;
          IF v_visit IS NULL THEN
            v_outcome := 'not_found';
          ELSIF NOT p_any_job AND NOT EXISTS (SELECT 1 FROM visit_assignees a
                 WHERE a.tenant_id = p_tenant AND a.visit_id = v_visit AND a.user_id = p_user) THEN
            v_outcome := 'forbidden';
          END IF;
        ELSE
          -- The caller's visit of the job under way, else the one whose time is nearest the mutation's.
          SELECT v.id, v.status INTO v_visit, v_visit_status FROM visits v
           WHERE v.tenant_id = p_tenant AND v.job_id = p_job
             AND (p_any_job OR EXISTS (SELECT 1 FROM visit_assignees a
                   WHERE a.tenant_id = p_tenant AND a.visit_id = v.id AND a.user_id = p_user))
           ORDER BY (v.status IN ('en_route', 'in_progress', 'on_hold')) DESC,
                    CASE WHEN p_occurred < v.starts_at THEN v.starts_at - p_occurred
                         WHEN p_occurred > coalesce(v.ends_at, v.starts_at) THEN p_occurred - coalesce(v.ends_at, v.starts_at)
                         ELSE interval '0' END,
                    (v.status IN ('completed', 'cancelled')), v.starts_at, v.id
           LIMIT 1 FOR UPDATE;
          IF v_visit IS NULL THEN
            v_has_visits := EXISTS (SELECT 1 FROM visits v WHERE v.tenant_id = p_tenant AND v.job_id = p_job);
            -- A job without visits (not scheduled) is its technician's, as before visits.
            IF NOT p_any_job AND (v_has_visits OR v_assignee IS DISTINCT FROM p_user) THEN
              v_outcome := 'forbidden';
            END IF;
          END IF;
        END IF;
        v_from := coalesce(v_visit_status, v_status);
        SELECT * INTO v_clock FROM job_clocks WHERE tenant_id = p_tenant AND job_id = p_job AND user_id = p_user;

        IF v_outcome <> 'applied' THEN
          NULL;
        ELSIF p_type = 'job.status' THEN
          IF v_visit IS NOT NULL AND v_from = p_status AND p_status IN ('en_route', 'in_progress') AND v_clock.job_id IS NULL
             AND (SELECT count(*) FROM visit_assignees a WHERE a.tenant_id = p_tenant AND a.visit_id = v_visit) > 1 THEN
            -- A crew member joining the visit a colleague already moved: their own clock starts.
            v_join := true;
          ELSIF NOT (v_from = ANY (p_allowed_from)) THEN
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
            IF v_join THEN
              NULL;
            ELSIF v_visit IS NOT NULL THEN
              -- The job's row follows its visits (visits_sync_job).
              UPDATE visits SET status = p_status, updated_at = now(),
                     completed_at = CASE WHEN p_status = 'completed' THEN p_occurred ELSE completed_at END
               WHERE tenant_id = p_tenant AND id = v_visit;
            ELSE
              UPDATE jobs SET status = p_status, updated_at = now(),
                     completed_at = CASE WHEN p_status = 'completed' THEN p_occurred ELSE completed_at END
               WHERE tenant_id = p_tenant AND id = p_job;
            END IF;
            IF NOT v_join THEN
              INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status, occurred_at)
              VALUES (p_tenant, p_job, p_user, v_from, p_status, p_occurred);
            END IF;
            -- The clocks go with the status: on the way and at work the caller's runs, on hold
            -- and done every clock on the visit stops.
            IF p_status IN ('en_route', 'in_progress') THEN
              IF v_clock.job_id IS NULL THEN
                INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at, on_site_at, visit_id)
                VALUES (p_tenant, p_job, p_user, p_occurred, CASE WHEN p_status = 'in_progress' THEN p_occurred END, v_visit);
              ELSIF p_status = 'in_progress' AND v_clock.on_site_at IS NULL THEN
                UPDATE job_clocks SET on_site_at = greatest(p_occurred, v_clock.started_at)
                 WHERE tenant_id = p_tenant AND job_id = p_job AND user_id = p_user;
              END IF;
            ELSE
              v_stop := 'all';
            END IF;
          END IF;
        ELSIF p_type = 'job.note' THEN
          INSERT INTO job_notes (tenant_id, job_id, author_id, body, occurred_at)
          VALUES (p_tenant, p_job, p_user, p_body, p_occurred);
        ELSIF p_type = 'job.time_entry' THEN
          v_state := CASE WHEN timesheet_week_locked(p_tenant, p_user, p_started, p_ended) THEN 'pending' ELSE 'counted' END;
          INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note, visit_id, state)
          VALUES (p_tenant, p_job, p_user, p_started, p_ended, p_body, v_visit, v_state);
        ELSIF p_type = 'job.clock' THEN
          IF v_args ->> 'action' = 'start' THEN
            IF v_clock.job_id IS NOT NULL THEN
              v_outcome := 'conflict'; v_reason := 'clock_running';
            ELSIF v_from NOT IN ('en_route', 'in_progress') THEN
              v_outcome := 'conflict'; v_reason := 'clock_not_started';
            ELSE
              INSERT INTO job_clocks (tenant_id, job_id, user_id, started_at, on_site_at, visit_id)
              VALUES (p_tenant, p_job, p_user, p_occurred, CASE WHEN v_from = 'in_progress' THEN p_occurred END, v_visit);
              -- Restarting one's own stopped clock on the same visit: the pause was a break (a
              -- timesheet line, never paid or billed).
              SELECT e.ended_at, e.visit_id INTO v_break_start, v_break_visit
                FROM time_entries e
               WHERE e.tenant_id = p_tenant AND e.job_id = p_job AND e.user_id = p_user AND e.kind <> 'break'
                 AND e.visit_id IS NOT DISTINCT FROM v_visit
                 AND e.ended_at < p_occurred AND e.ended_at > p_occurred - interval '12 hours'
               ORDER BY e.ended_at DESC LIMIT 1;
              IF FOUND THEN
                v_state := CASE WHEN timesheet_week_locked(p_tenant, p_user, v_break_start, p_occurred) THEN 'pending' ELSE 'counted' END;
                INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, visit_id, kind, state)
                VALUES (p_tenant, p_job, p_user, v_break_start, p_occurred, v_break_visit, 'break', v_state);
              END IF;
            END IF;
          ELSIF v_clock.job_id IS NULL THEN
            v_outcome := 'conflict'; v_reason := 'clock_stopped';
          ELSE
            v_stop := 'own';
          END IF;
        ELSIF p_type = 'job.checklist' THEN
          IF v_status IN ('completed', 'cancelled') THEN
            v_outcome := 'conflict'; v_reason := 'closed'; v_from := v_status;
          ELSE
            UPDATE job_checklist_items
               SET done_at = CASE WHEN (v_args ->> 'done')::boolean THEN p_occurred END,
                   done_by = CASE WHEN (v_args ->> 'done')::boolean THEN p_user END
             WHERE tenant_id = p_tenant AND job_id = p_job AND id = (v_args ->> 'itemId')::uuid;
            IF NOT FOUND THEN v_outcome := 'not_found'; v_reason := 'item'; END IF;
          END IF;
        ELSIF p_type = 'job.signature' THEN
          IF v_status = 'cancelled' THEN
            v_outcome := 'conflict'; v_reason := 'closed'; v_from := v_status;
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

        IF v_stop IS NOT NULL THEN
          -- Each running clock becomes its owner's time entry, from its start to this mutation's
          -- time (never before its start; at most 24 hours, time_entries' limit: a forgotten
          -- clock is capped).
          FOR v_clock IN
            SELECT * FROM job_clocks k
             WHERE k.tenant_id = p_tenant AND k.job_id = p_job
               AND CASE WHEN v_stop = 'own' THEN k.user_id = p_user
                        ELSE v_visit IS NULL OR k.visit_id IS NULL OR k.visit_id = v_visit END
             ORDER BY k.user_id FOR UPDATE
          LOOP
            v_end := least(greatest(p_occurred, v_clock.started_at), v_clock.started_at + interval '24 hours');
            v_state := CASE WHEN timesheet_week_locked(p_tenant, v_clock.user_id, v_clock.started_at, v_end) THEN 'pending' ELSE 'counted' END;
            -- The time before "Start work" (on_site_at) was travel: the timesheet shows it apart.
            INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note, visit_id, on_site_at, state)
            VALUES (p_tenant, p_job, v_clock.user_id, v_clock.started_at, v_end,
                    CASE WHEN v_end < p_occurred AND p_occurred - v_clock.started_at > interval '24 hours'
                         THEN 'The clock ran for more than 24 hours; this entry stops at 24 hours.' END,
                    coalesce(v_clock.visit_id, v_visit),
                    CASE WHEN v_clock.on_site_at IS NOT NULL THEN least(v_clock.on_site_at, v_end) ELSE v_end END,
                    v_state);
            DELETE FROM job_clocks WHERE tenant_id = p_tenant AND job_id = p_job AND user_id = v_clock.user_id;
          END LOOP;
        END IF;
      END IF;

      RETURN jsonb_build_object('outcome', v_outcome, 'lastMutationId', p_mutation_id, 'jobStatus', v_from, 'visitId', v_visit,
                                'reason', v_reason, 'missing', v_missing);
    END
    $function$;
