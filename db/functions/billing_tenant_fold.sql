-- The tenant's billing state folded from its processed billing events (insert-only rows), run
-- after an event's commit: the newest event (by provider time, then arrival) sets the clock
-- and the provider, and each fact is the newest one given among the events since the state
-- last folded (none given: the value stays). The row is written only when the state moves
-- forward or changes, and its own condition is re-checked against the newest row version
-- when two folds race, so an older event never overwrites a newer one; a fold that finds the
-- state current neither locks nor writes. Every event's fold sees at least its own event, so
-- the last fold to write leaves the newest state. p_forward_only (a repeated delivery): write
-- only when the clock moves, so a repeat never undoes a change made by hand since. Returns
-- whether it wrote. SECURITY DEFINER: one tenant's own rows, by its id, in one round trip.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION billing_tenant_fold(p_tenant uuid, p_forward_only boolean) RETURNS boolean
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_since timestamptz;
  v_at timestamptz;
  v_provider text;
  v_plan text;
  v_status text;
  v_period timestamptz;
BEGIN
  SELECT coalesce(t.billing_event_at, '-infinity') INTO v_since FROM tenants t WHERE t.id = p_tenant;
  IF NOT FOUND THEN RETURN false; END IF;
  SELECT e.occurred_at, e.provider INTO v_at, v_provider FROM billing_events e
   WHERE e.tenant_id = p_tenant AND e.status = 'processed' ORDER BY e.occurred_at DESC, e.received_at DESC LIMIT 1;
  IF v_at IS NULL OR v_at < v_since THEN RETURN false; END IF;
  SELECT e.plan INTO v_plan FROM billing_events e
   WHERE e.tenant_id = p_tenant AND e.status = 'processed' AND e.occurred_at >= v_since AND e.plan IS NOT NULL
   ORDER BY e.occurred_at DESC, e.received_at DESC LIMIT 1;
  SELECT e.subscription_status INTO v_status FROM billing_events e
   WHERE e.tenant_id = p_tenant AND e.status = 'processed' AND e.occurred_at >= v_since
     AND e.subscription_status IS NOT NULL
   ORDER BY e.occurred_at DESC, e.received_at DESC LIMIT 1;
  SELECT e.current_period_end INTO v_period FROM billing_events e
   WHERE e.tenant_id = p_tenant AND e.status = 'processed' AND e.occurred_at >= v_since
     AND e.current_period_end IS NOT NULL
   ORDER BY e.occurred_at DESC, e.received_at DESC LIMIT 1;
  UPDATE tenants t
     SET plan = coalesce(v_plan, t.plan), subscription_status = coalesce(v_status, t.subscription_status),
         current_period_end = coalesce(v_period, t.current_period_end), billing_provider = v_provider,
         billing_event_at = v_at, updated_at = now()
   WHERE t.id = p_tenant
     AND (t.billing_event_at IS NULL OR t.billing_event_at < v_at
          OR (t.billing_event_at = v_at AND NOT p_forward_only
              AND (t.plan, t.subscription_status, t.current_period_end, t.billing_provider)
                  IS DISTINCT FROM (coalesce(v_plan, t.plan), coalesce(v_status, t.subscription_status),
                                    coalesce(v_period, t.current_period_end), v_provider)));
  RETURN FOUND;
END
$fn$;
