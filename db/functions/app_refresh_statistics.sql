-- ANALYZE of the tables a CSV import writes in bulk, run as their owner (the app role owns
-- nothing); any other name is an error (docs/decisions/234-statistics-after-bulk-writes.md).
-- The list is BULK_WRITTEN_TABLES of db/statistics.ts
-- (tests/integration/sql-functions.test.ts checks they agree).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION app_refresh_statistics(p_tables text[]) RETURNS void
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY p_tables LOOP
    IF NOT t = ANY (ARRAY['customers', 'customer_properties', 'users', 'jobs', 'visits', 'visit_assignees',
                          'quotes', 'quote_items', 'invoices', 'invoice_items', 'payments']) THEN
      RAISE EXCEPTION 'app_refresh_statistics: % is not a table an import writes', t;
    END IF;
    EXECUTE format('ANALYZE %I', t);
  END LOOP;
END $fn$;
REVOKE ALL ON FUNCTION app_refresh_statistics(text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_refresh_statistics(text[]) TO fieldservice_app;
