-- Statement trigger on customers (insert, delete): the tenant's number of customers as
-- insert-only delta rows under the figure "customers" (one period, '-infinity': the count has
-- no month), so the dashboard sums a few rows instead of counting every customer on each view.
-- An import of 50,000 customers, or its undo, writes one row. A customer never changes tenant,
-- so an update moves no count.
-- Shard-local: the changed rows are counted per tenant out of the transition table first (no
-- other table named), then each tenant's row is inserted with its own value; a tenant being
-- deleted (its customers go by cascade, its delta rows too) writes none.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_customers() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_tenants uuid[];
  v_counts bigint[];
  v_tenant uuid;
  v_sign integer := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(c.tenant_id), array_agg(c.n) INTO v_tenants, v_counts
      FROM (SELECT r.tenant_id, count(*) AS n FROM new_rows r GROUP BY r.tenant_id) c;
  ELSE
    SELECT array_agg(c.tenant_id), array_agg(c.n) INTO v_tenants, v_counts
      FROM (SELECT r.tenant_id, count(*) AS n FROM old_rows r GROUP BY r.tenant_id) c;
  END IF;
  FOR i IN 1 .. coalesce(array_length(v_tenants, 1), 0) LOOP
    v_tenant := v_tenants[i];
    IF EXISTS (SELECT 1 FROM tenants WHERE id = v_tenant) THEN
      INSERT INTO summary_deltas (tenant_id, figure, period, amount)
      VALUES (v_tenant, 'customers', '-infinity', v_sign * v_counts[i]);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
