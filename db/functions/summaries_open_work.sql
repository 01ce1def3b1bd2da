-- Triggers on jobs and quotes: the open work the dashboard counts, as insert-only delta rows
-- under one period ('-infinity': a count has no month): the open jobs by status
-- ("jobs_unscheduled", "jobs_scheduled", ...), the completed jobs not invoiced
-- ("jobs_to_invoice") and the approved quotes not converted ("quotes_to_schedule"). A row counts
-- under at most one figure. Inserts and deletes: one statement for all the rows (an import of
-- 100,000 jobs or its undo writes a row per figure). Updates: per row, and only for a row that
-- moves from one figure to another (the trigger's WHEN), so the many updates that move none (a
-- rename, a new time) cost nothing here.
-- Shard-local: the changed rows are summed per tenant and figure out of the transition tables
-- first (no other table named), then each tenant's rows are inserted with their own values; a
-- tenant being deleted (its rows go by cascade, its delta rows too) writes none. The trigger's
-- argument names its table ('jobs' or 'quotes'): on a shard the table's own name is the shard's.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_open_work() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  -- The figure a row `r` counts under (NULL: none).
  v_figure text := CASE TG_ARGV[0]
    WHEN 'jobs' THEN $$CASE WHEN r.status = 'completed' THEN CASE WHEN r.invoice_id IS NULL THEN 'jobs_to_invoice' END
                            WHEN r.status <> 'cancelled' THEN 'jobs_' || r.status END$$
    ELSE $$CASE WHEN r.status = 'approved' AND r.job_id IS NULL THEN 'quotes_to_schedule' END$$ END;
  v_tenants uuid[];
  v_figures text[];
  v_amounts bigint[];
  v_tenant uuid;
  v_was text;
  v_is text;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    v_tenant := NEW.tenant_id;
    EXECUTE format('SELECT (SELECT %1$s FROM (SELECT ($1).*) r), (SELECT %1$s FROM (SELECT ($2).*) r)', v_figure)
      INTO v_was, v_is USING OLD, NEW;
    IF v_was IS DISTINCT FROM v_is AND EXISTS (SELECT 1 FROM tenants WHERE id = v_tenant) THEN
      INSERT INTO summary_deltas (tenant_id, figure, period, amount)
      SELECT v_tenant, f.figure, '-infinity', f.amount FROM (VALUES (v_was, -1), (v_is, 1)) f (figure, amount)
       WHERE f.figure IS NOT NULL;
    END IF;
    RETURN NULL;
  END IF;
  -- A new quote is a draft almost always (one made in the builder): nothing to count, and no
  -- statement to plan.
  IF TG_ARGV[0] = 'quotes' AND TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows r WHERE r.status = 'approved' AND r.job_id IS NULL) THEN
      RETURN NULL;
    END IF;
  END IF;
  EXECUTE format(
    'SELECT array_agg(x.tenant_id), array_agg(x.figure), array_agg(x.amount) FROM (
       SELECT r.tenant_id, %s AS figure, count(*) AS amount FROM %s r GROUP BY 1, 2) x WHERE x.figure IS NOT NULL',
    v_figure, CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END)
    INTO v_tenants, v_figures, v_amounts;
  FOR i IN 1 .. coalesce(array_length(v_tenants, 1), 0) LOOP
    v_tenant := v_tenants[i];
    IF EXISTS (SELECT 1 FROM tenants WHERE id = v_tenant) THEN
      INSERT INTO summary_deltas (tenant_id, figure, period, amount)
      VALUES (v_tenant, v_figures[i], '-infinity', CASE TG_OP WHEN 'DELETE' THEN -v_amounts[i] ELSE v_amounts[i] END);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
