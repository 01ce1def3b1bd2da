-- One tenant's summaries from scratch: its delta rows and open-invoice balances are replaced
-- by the figures its invoices, payments, quotes, visits, jobs and customers give now. Run by the
-- summaries command (in one repeatable-read transaction, so no change lands between the
-- delete and the sums) and when the tenant's time zone changes (its months and weeks move).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_rebuild(p_tenant uuid) RETURNS integer
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  v_zone text;
  n integer;
BEGIN
  SELECT time_zone INTO v_zone FROM tenants WHERE id = p_tenant;
  DELETE FROM summary_deltas WHERE tenant_id = p_tenant;
  DELETE FROM invoice_balances WHERE tenant_id = p_tenant;
  INSERT INTO summary_deltas (tenant_id, figure, period, party_id, currency, amount)
  SELECT p_tenant, f.figure, f.period, f.party_id, f.currency, f.amount FROM (
    SELECT 'invoiced' AS figure, date_trunc('month', issue_date)::date AS period, NULL::uuid AS party_id,
           currency::text AS currency, sum(total_cents)::bigint AS amount
      FROM invoices WHERE tenant_id = p_tenant AND status NOT IN ('draft', 'void') AND issue_date IS NOT NULL
     GROUP BY 2, 4
    UNION ALL
    SELECT 'collected', date_trunc('month', received_on)::date, NULL, currency::text, sum(amount_cents)::bigint
      FROM payments WHERE tenant_id = p_tenant GROUP BY 2, 4
    UNION ALL
    SELECT 'quotes_sent', date_trunc('month', sent_at AT TIME ZONE v_zone)::date, NULL, '', count(*)
      FROM quotes WHERE tenant_id = p_tenant AND sent_at IS NOT NULL GROUP BY 2
    UNION ALL
    SELECT 'quotes_approved', date_trunc('month', sent_at AT TIME ZONE v_zone)::date, NULL, '', count(*)
      FROM quotes WHERE tenant_id = p_tenant AND sent_at IS NOT NULL AND approved_at IS NOT NULL GROUP BY 2
    UNION ALL
    SELECT 'visits_completed', d.week, d.user_id, '', count(*) FROM (
      SELECT greatest(date_trunc('week', v.completed_at AT TIME ZONE v_zone), date_trunc('month', v.completed_at AT TIME ZONE v_zone))::date AS week, a.user_id
        FROM visits v LEFT JOIN visit_assignees a ON a.tenant_id = v.tenant_id AND a.visit_id = v.id
       WHERE v.tenant_id = p_tenant AND v.status = 'completed' AND v.completed_at IS NOT NULL
      UNION ALL
      SELECT greatest(date_trunc('week', j.completed_at AT TIME ZONE v_zone), date_trunc('month', j.completed_at AT TIME ZONE v_zone))::date, j.assignee_id
        FROM jobs j
       WHERE j.tenant_id = p_tenant AND j.status = 'completed' AND j.completed_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id)
    ) d GROUP BY 2, 3
    UNION ALL
    SELECT 'customers', '-infinity'::date, NULL, '', count(*) FROM customers WHERE tenant_id = p_tenant
    UNION ALL
    SELECT CASE WHEN status = 'completed' THEN 'jobs_to_invoice' ELSE 'jobs_' || status END, '-infinity'::date, NULL, '', count(*)
      FROM jobs WHERE tenant_id = p_tenant AND (status NOT IN ('completed', 'cancelled') OR (status = 'completed' AND invoice_id IS NULL))
     GROUP BY 1
    UNION ALL
    SELECT 'quotes_to_schedule', '-infinity'::date, NULL, '', count(*)
      FROM quotes WHERE tenant_id = p_tenant AND status = 'approved' AND job_id IS NULL
    UNION ALL
    SELECT f.figure, coalesce(i.due_date, 'infinity'), NULL, i.currency::text,
           sum(CASE f.figure WHEN 'owed' THEN i.total_cents - i.amount_paid_cents ELSE 1 END)::bigint
      FROM invoices i CROSS JOIN (VALUES ('owed'), ('owed_invoices')) f (figure)
     WHERE i.tenant_id = p_tenant AND i.status IN ('sent', 'partial')
     GROUP BY 1, 2, 4
  ) f WHERE f.amount <> 0;
  GET DIAGNOSTICS n = ROW_COUNT;
  INSERT INTO invoice_balances (tenant_id, invoice_id, due_date, currency, cents)
  SELECT tenant_id, id, due_date, currency, total_cents - amount_paid_cents
    FROM invoices WHERE tenant_id = p_tenant AND status IN ('sent', 'partial');
  RETURN n;
END
$fn$;
REVOKE ALL ON FUNCTION summaries_rebuild(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION summaries_rebuild(uuid) TO fieldservice_app;
