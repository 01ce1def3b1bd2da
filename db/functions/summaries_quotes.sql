-- Statement trigger on quotes (insert, update, delete): quotes sent, and of those approved, by
-- the month (tenant's zone) the quote was sent, as insert-only delta rows.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_quotes() RETURNS trigger
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  o quotes[] := '{}';
  n quotes[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN o := ARRAY(SELECT r FROM old_rows r); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN n := ARRAY(SELECT r FROM new_rows r); END IF;
  INSERT INTO summary_deltas (tenant_id, figure, period, amount)
  SELECT x.tenant_id, f.figure, date_trunc('month', x.sent_at AT TIME ZONE t.time_zone)::date, sum(x.sign)
    FROM (SELECT -1 AS sign, r.* FROM unnest(o) r UNION ALL SELECT 1, r.* FROM unnest(n) r) x
    JOIN tenants t ON t.id = x.tenant_id
    CROSS JOIN LATERAL (VALUES ('quotes_sent', true), ('quotes_approved', x.approved_at IS NOT NULL)) f(figure, counts)
   WHERE x.sent_at IS NOT NULL AND f.counts
   GROUP BY x.tenant_id, f.figure, 3
  HAVING sum(x.sign) <> 0;
  RETURN NULL;
END
$fn$;
