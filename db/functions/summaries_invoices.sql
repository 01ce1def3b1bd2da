-- Statement trigger on invoices (insert, update, delete): the change to "invoiced" (issued,
-- neither draft nor void, by issue month and currency) as one delta row per month and
-- currency that moved; what is owed on the open (sent, partly paid) invoices by due date and
-- currency, "owed" (cents) and "owed_invoices" (how many), whose period is the due date
-- ('infinity' for none: never past due), so the ageing of receivables sums a few rows per due
-- date instead of every open invoice; and each open invoice's balance in invoice_balances (the
-- dashboard's unpaid and overdue read it). Insert-only deltas: no summary row is updated, so concurrent
-- payments never wait on one another here.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the changed rows are copied
-- out of the transition tables first, and each statement names one tenant, so on a cluster it
-- runs on the node that holds the tenant.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_invoices() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o invoices[] := '{}';
  n invoices[] := '{}';
  v_tenant uuid;
  v_gone uuid[];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r); END IF;
  FOR v_tenant IN SELECT DISTINCT r.tenant_id FROM unnest(o || n) r LOOP
    INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount)
    SELECT v_tenant, 'invoiced', date_trunc('month', x.issue_date)::date, x.currency, sum(x.sign * x.total_cents)
      FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
     WHERE x.tenant_id = v_tenant AND x.status NOT IN ('draft', 'void') AND x.issue_date IS NOT NULL
     GROUP BY 3, x.currency
    HAVING sum(x.sign * x.total_cents) <> 0;

    -- An open invoice left as it was (a note edited) moves nothing: its old and new rows cancel.
    INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount)
    SELECT v_tenant, f.figure, coalesce(x.due_date, 'infinity'), x.currency,
           sum(x.sign * CASE f.figure WHEN 'owed' THEN x.total_cents - x.amount_paid_cents ELSE 1 END)
      FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
     CROSS JOIN (VALUES ('owed'), ('owed_invoices')) f (figure)
     WHERE x.tenant_id = v_tenant AND x.status IN ('sent', 'partial')
     GROUP BY f.figure, 3, x.currency
    HAVING sum(x.sign * CASE f.figure WHEN 'owed' THEN x.total_cents - x.amount_paid_cents ELSE 1 END) <> 0;

    -- Open before, not open now: the balance goes.
    v_gone := ARRAY(SELECT r.id FROM unnest(o) r WHERE r.tenant_id = v_tenant
                    EXCEPT SELECT r.id FROM unnest(n) r WHERE r.tenant_id = v_tenant AND r.status IN ('sent', 'partial'));
    IF cardinality(v_gone) > 0 THEN
      DELETE FROM invoice_balances b WHERE b.tenant_id = v_tenant AND b.invoice_id = ANY (v_gone);
    END IF;
    INSERT INTO invoice_balances AS b (tenant_id, invoice_id, due_date, currency, cents)
    SELECT v_tenant, r.id, r.due_date, r.currency, r.total_cents - r.amount_paid_cents
      FROM unnest(n) r
     WHERE r.tenant_id = v_tenant AND r.status IN ('sent', 'partial')
       AND NOT EXISTS (SELECT 1 FROM unnest(o) p WHERE p.tenant_id = r.tenant_id AND p.id = r.id
                         AND p.status = r.status AND p.due_date IS NOT DISTINCT FROM r.due_date AND p.currency = r.currency
                         AND p.total_cents = r.total_cents AND p.amount_paid_cents = r.amount_paid_cents)
    ON CONFLICT (tenant_id, invoice_id) DO UPDATE
       SET due_date = excluded.due_date, currency = excluded.currency, cents = excluded.cents;
  END LOOP;
  RETURN NULL;
END
$fn$;
