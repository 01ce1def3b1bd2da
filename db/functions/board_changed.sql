-- Statement trigger on each table the board's week of visits is read from (visits, their crews,
-- jobs, customers, booking requests, job clocks): one insert-only row per tenant a statement
-- changed, so the tenant's board version (the sum of its rows) moves with every committed write
-- and a kept copy of the visits is known stale by the next view
-- (docs/decisions/501-the-board-keeps-its-visits-until-a-write.md). Writers only insert: no
-- writer waits on another's version row.
-- Shard-local: the tenants are read out of the transition table first (no other table named),
-- then each tenant's row is inserted with its own value; a tenant being deleted writes none.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION board_changed() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_tenants uuid[];
  v_tenant uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT r.tenant_id) INTO v_tenants FROM old_rows r;
  ELSE
    SELECT array_agg(DISTINCT r.tenant_id) INTO v_tenants FROM new_rows r;
  END IF;
  FOR i IN 1 .. coalesce(array_length(v_tenants, 1), 0) LOOP
    v_tenant := v_tenants[i];
    IF EXISTS (SELECT 1 FROM tenants WHERE id = v_tenant) THEN
      INSERT INTO board_changes (tenant_id, amount) VALUES (v_tenant, 1);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
