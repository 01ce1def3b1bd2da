-- Statement trigger on quotes (insert, update, delete): quotes sent, and of those approved, by
-- the month (tenant's zone) the quote was sent, as insert-only delta rows.
-- Shard-local (docs/decisions/496-summaries-on-a-citus-cluster.md): the changed rows are copied
-- out of the transition tables first, and each statement names one tenant, so on a cluster it
-- runs on the node that holds the tenant.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_quotes() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o quotes[] := '{}';
  n quotes[] := '{}';
  v_tenant uuid;
  v_zone text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r WHERE r.sent_at IS NOT NULL); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r WHERE r.sent_at IS NOT NULL); END IF;
  FOR v_tenant IN SELECT DISTINCT r.tenant_id FROM unnest(o || n) r LOOP
    SELECT time_zone INTO v_zone FROM tenants WHERE id = v_tenant;
    INSERT INTO summary_deltas (tenant_id, figure, period, amount)
    SELECT v_tenant, f.figure, date_trunc('month', x.sent_at AT TIME ZONE v_zone)::date, sum(x.sign)
      FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
      CROSS JOIN LATERAL (VALUES ('quotes_sent', true), ('quotes_approved', x.approved_at IS NOT NULL)) f(figure, counts)
     WHERE x.tenant_id = v_tenant AND f.counts
     GROUP BY f.figure, 3
    HAVING sum(x.sign) <> 0;
  END LOOP;
  RETURN NULL;
END
$fn$;
