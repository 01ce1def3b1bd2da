import type { Migration } from "../migrate";

const FIGURES = ["invoiced", "collected", "quotes_sent", "quotes_approved", "visits_completed", "customers"];
const figureCheck = (figures: string[]) => `CHECK (figure IN (${figures.map((f) => `'${f}'`).join(", ")}))`;

/**
 * What is owed on the open invoices by due date and currency, kept by the writes as the other
 * summaries are (docs/decisions/504-what-is-owed-by-due-date.md): "owed" (cents) and
 * "owed_invoices" (how many) in summary_deltas, their period the due date ('infinity' for an
 * invoice without one), moved by the invoices' statement trigger (db/functions/summaries_invoices.sql,
 * applied after the migrations) and made once here from the open balances there are. The
 * ageing of receivables then sums a row or two per due date, not every open invoice.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck([...FIGURES, "owed", "owed_invoices"])};
  `);
  await sql.query(`
    INSERT INTO summary_deltas (tenant_id, figure, period, currency, amount)
    SELECT b.tenant_id, f.figure, coalesce(b.due_date, 'infinity'), b.currency,
           sum(CASE f.figure WHEN 'owed' THEN b.cents ELSE 1 END)
      FROM invoice_balances b CROSS JOIN (VALUES ('owed'), ('owed_invoices')) f (figure)
     GROUP BY b.tenant_id, f.figure, 3, b.currency
    HAVING sum(CASE f.figure WHEN 'owed' THEN b.cents ELSE 1 END) <> 0`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DELETE FROM summary_deltas WHERE figure IN ('owed', 'owed_invoices');
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck(FIGURES)};
  `);
};
