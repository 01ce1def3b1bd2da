import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * The tables a CSV import wrote to in bulk when this migration was written (the current list is
 * db/statistics.ts, and the function's current definition db/functions/app_refresh_statistics.sql).
 */
const TABLES = [
  "customers",
  "customer_properties",
  "users",
  "jobs",
  "quotes",
  "quote_items",
  "invoices",
  "invoice_items",
  "payments",
] as const;

/**
 * `app_refresh_statistics(tables)`: ANALYZE of the named tables, run as their owner (the app
 * role owns nothing, and ANALYZE of a table needs its owner). Only the tables above; any other
 * name is an error. ANALYZE reads a sample of the table and returns nothing, so it shows no
 * tenant's rows to the caller.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE FUNCTION app_refresh_statistics(p_tables text[]) RETURNS void
      LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $fn$
    DECLARE
      t text;
    BEGIN
      FOREACH t IN ARRAY p_tables LOOP
        IF NOT t = ANY (ARRAY[${TABLES.map((t) => `'${t}'`).join(", ")}]) THEN
          RAISE EXCEPTION 'app_refresh_statistics: % is not a table an import writes', t;
        END IF;
        EXECUTE format('ANALYZE %I', t);
      END LOOP;
    END $fn$;
    REVOKE ALL ON FUNCTION app_refresh_statistics(text[]) FROM PUBLIC;
    GRANT EXECUTE ON FUNCTION app_refresh_statistics(text[]) TO ${APP_ROLE};
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP FUNCTION IF EXISTS app_refresh_statistics(text[])`);
};
