-- Statement trigger on payments (insert, update, delete): the change to "collected" (by the
-- month of the day the money arrived, and currency) as insert-only delta rows.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the changed rows are copied
-- out of the transition tables first, and each statement names one tenant, so on a cluster it
-- runs on the node that holds the tenant.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_payments() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o payments[] := '{}';
  n payments[] := '{}';
  v_tenant uuid;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r); END IF;
  FOR v_tenant IN SELECT DISTINCT r.tenant_id FROM unnest(o || n) r LOOP
    INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount)
    SELECT v_tenant, 'collected', date_trunc('month', x.received_on)::date, x.currency, sum(x.sign * x.amount_cents)
      FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
     WHERE x.tenant_id = v_tenant
     GROUP BY 3, x.currency
    HAVING sum(x.sign * x.amount_cents) <> 0;
  END LOOP;
  RETURN NULL;
END
$fn$;
