-- A verified billing event stored once: its row claims (provider, event id) with the unique
-- key (a repeat, even one racing the first delivery, waits for it and finds the key taken:
-- 'duplicate'), with the facts it brings. A 'processed' event stays processed only when its
-- tenant exists and it is not older than the state last folded onto the tenant (then
-- 'ignored' with p_unknown_reason or p_older_reason). The tenant row is only read here: the
-- state is folded by billing_tenant_fold after the commit, so events of one tenant never wait
-- on its row. Returns the stored status, or 'duplicate'. SECURITY DEFINER (billing_events and
-- the tenant's clock are read by the event's own tenant id): one statement, one round trip.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION billing_events_claim(
  p_provider text, p_event_id text, p_type text, p_status text, p_reason text, p_tenant uuid,
  p_occurred_at timestamptz, p_payload text, p_plan text, p_subscription_status text,
  p_current_period_end timestamptz, p_unknown_reason text, p_older_reason text
) RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_known boolean := false;
  v_at timestamptz;
  v_status text := p_status;
  v_reason text := p_reason;
BEGIN
  IF p_tenant IS NOT NULL THEN
    SELECT true, t.billing_event_at INTO v_known, v_at FROM tenants t WHERE t.id = p_tenant;
    v_known := coalesce(v_known, false);
  END IF;
  IF v_status = 'processed' AND NOT v_known THEN
    v_status := 'ignored';
    v_reason := p_unknown_reason;
  ELSIF v_status = 'processed' AND v_at > p_occurred_at THEN
    -- Strictly older only: events of the same second apply in arrival order.
    v_status := 'ignored';
    v_reason := p_older_reason;
  END IF;
  INSERT INTO billing_events (provider, event_id, type, status, reason, tenant_id, occurred_at, payload,
                              plan, subscription_status, current_period_end)
  VALUES (p_provider, p_event_id, p_type, v_status, v_reason, CASE WHEN v_known THEN p_tenant END, p_occurred_at,
          p_payload, p_plan, p_subscription_status, p_current_period_end)
  ON CONFLICT (provider, event_id) DO NOTHING;
  IF NOT FOUND THEN RETURN 'duplicate'; END IF;
  RETURN v_status;
END
$fn$;
