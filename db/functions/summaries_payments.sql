-- Statement trigger on payments (insert, update, delete): the change to "collected" (by the
-- month of the day the money arrived, and currency) as insert-only delta rows.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_payments() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o payments[] := '{}';
  n payments[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r); END IF;
  INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount)
  SELECT x.tenant_id, 'collected', date_trunc('month', x.received_on)::date, x.currency, sum(x.sign * x.amount_cents)
    FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
   GROUP BY x.tenant_id, 3, x.currency
  HAVING sum(x.sign * x.amount_cents) <> 0;
  RETURN NULL;
END
$fn$;
