-- Folds one tenant's delta rows into one row per figure, period, person and currency (zeros
-- dropped), in one statement. Writers only ever insert delta rows, so they never wait on a
-- fold; rows a writer commits while it runs are left for the next fold. The board's version rows
-- (board_changes) fold into one row of their sum.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION summaries_fold(p_tenant uuid) RETURNS integer
 LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  before integer;
  after integer;
BEGIN
  WITH gone AS (
    DELETE FROM summary_deltas WHERE tenant_id = p_tenant
    RETURNING figure, period, party_id, currency, amount
  ), folded AS (
    INSERT INTO summary_deltas (tenant_id, figure, period, party_id, currency, amount)
    SELECT p_tenant, figure, period, party_id, currency, sum(amount)
      FROM gone GROUP BY figure, period, party_id, currency HAVING sum(amount) <> 0
    RETURNING 1
  ), board_gone AS (
    DELETE FROM board_changes WHERE tenant_id = p_tenant RETURNING amount
  ), board_folded AS (
    -- The board's version (db/functions/board_changed.sql) is the sum of its rows: one row keeps it.
    INSERT INTO board_changes (tenant_id, amount)
    SELECT p_tenant, sum(amount) FROM board_gone HAVING count(*) > 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM board_gone),
         (SELECT count(*) FROM folded) + (SELECT count(*) FROM board_folded) INTO before, after;
  RETURN before - after;
END
$fn$;
REVOKE ALL ON FUNCTION summaries_fold(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION summaries_fold(uuid) TO fieldservice_app;
