import type { Migration } from "../migrate";
import { functionSql } from "../functions";

const FIGURES = ["invoiced", "collected", "quotes_sent", "quotes_approved", "visits_completed"];
const figureCheck = (figures: string[]) => `CHECK (figure IN (${figures.map((f) => `'${f}'`).join(", ")}))`;

/**
 * The dashboard's figures that counted tens of thousands of rows on every view
 * (docs/decisions/480-dashboard-counts-kept-or-indexed.md):
 *
 * - The tenant's customers, kept by the writes as the summaries are (migration 0260): a
 *   "customers" figure in summary_deltas, moved by a statement trigger on customers
 *   (db/functions/summaries_customers.sql), and made once here from the customers there are.
 * - The quotes awaiting a response (sent, not past valid_until): an index of the sent quotes by
 *   valid_until (none: for ever), so the count reads the entries of the quotes still awaiting
 *   only, not every sent quote's row.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck([...FIGURES, "customers"])};
  `);
  await sql.query(functionSql("summaries_customers"));
  await sql.query(`
    CREATE TRIGGER figures_customers_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION summaries_customers();
    CREATE TRIGGER figures_customers_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION summaries_customers();
  `);
  await sql.query(`
    INSERT INTO summary_deltas (tenant_id, figure, period, amount)
    SELECT tenant_id, 'customers', '-infinity', count(*) FROM customers GROUP BY tenant_id`);
  // valid_until again as a column: PostgreSQL answers from the index alone only when the
  // columns an expression names are in it too.
  await sql.query(`
    CREATE INDEX quotes_awaiting ON quotes (tenant_id, coalesce(valid_until, 'infinity'::date)) INCLUDE (valid_until)
     WHERE status = 'sent'`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX quotes_awaiting;
    DROP TRIGGER figures_customers_insert ON customers;
    DROP TRIGGER figures_customers_delete ON customers;
    DROP FUNCTION summaries_customers();
    DELETE FROM summary_deltas WHERE figure = 'customers';
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck(FIGURES)};
  `);
};
