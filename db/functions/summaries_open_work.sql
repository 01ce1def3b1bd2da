-- Statement trigger on jobs and quotes (insert, update, delete): the open work the dashboard
-- counts, as insert-only delta rows under one period ('-infinity': a count has no month):
-- the open jobs by status ("jobs_unscheduled", "jobs_scheduled", ...), the completed jobs not
-- invoiced ("jobs_to_invoice") and the approved quotes not converted ("quotes_to_schedule").
-- A row counts under at most one figure; an update moves it from its old figure to its new one,
-- and a statement whose rows move nothing (a rename, a new time) writes nothing.
-- Shard-local: the changed rows are summed per tenant and figure out of the transition tables
-- first (no other table named), then each tenant's rows are inserted with their own values; a
-- tenant being deleted (its rows go by cascade, its delta rows too) writes none.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_open_work() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_figure text := CASE TG_TABLE_NAME
    WHEN 'jobs' THEN $$CASE WHEN r.status = 'completed' THEN CASE WHEN r.invoice_id IS NULL THEN 'jobs_to_invoice' END
                            WHEN r.status <> 'cancelled' THEN 'jobs_' || r.status END$$
    ELSE $$CASE WHEN r.status = 'approved' AND r.job_id IS NULL THEN 'quotes_to_schedule' END$$ END;
  v_old text := format('SELECT r.tenant_id, %s AS figure, -1 AS sign FROM old_rows r', v_figure);
  v_new text := format('SELECT r.tenant_id, %s AS figure, 1 AS sign FROM new_rows r', v_figure);
  v_tenants uuid[];
  v_figures text[];
  v_amounts bigint[];
BEGIN
  EXECUTE format(
    'SELECT array_agg(x.tenant_id), array_agg(x.figure), array_agg(x.amount) FROM (
       SELECT c.tenant_id, c.figure, sum(c.sign) AS amount FROM (%s) c
        WHERE c.figure IS NOT NULL GROUP BY 1, 2 HAVING sum(c.sign) <> 0) x',
    CASE TG_OP WHEN 'INSERT' THEN v_new WHEN 'DELETE' THEN v_old ELSE v_old || ' UNION ALL ' || v_new END)
    INTO v_tenants, v_figures, v_amounts;
  FOR i IN 1 .. coalesce(array_length(v_tenants, 1), 0) LOOP
    IF EXISTS (SELECT 1 FROM tenants WHERE id = v_tenants[i]) THEN
      INSERT INTO summary_deltas (tenant_id, figure, period, amount)
      VALUES (v_tenants[i], v_figures[i], '-infinity', v_amounts[i]);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;
