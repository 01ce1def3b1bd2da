import type { Migration } from "../migrate";
import { functionSql } from "../functions";

const BEFORE = [
  "invoiced",
  "collected",
  "quotes_sent",
  "quotes_approved",
  "visits_completed",
  "customers",
  "owed",
  "owed_invoices",
];
/** The open jobs by status, the completed jobs to invoice, the approved quotes to schedule. */
const OPEN_WORK = [
  "jobs_unscheduled",
  "jobs_scheduled",
  "jobs_en_route",
  "jobs_in_progress",
  "jobs_on_hold",
  "jobs_to_invoice",
  "quotes_to_schedule",
];
/** When an update moves a row from one figure to another (or into or out of one). */
const MOVES: Record<string, string> = {
  jobs: `(OLD.status, OLD.invoice_id IS NULL) IS DISTINCT FROM (NEW.status, NEW.invoice_id IS NULL)`,
  quotes: `(OLD.status = 'approved' AND OLD.job_id IS NULL) IS DISTINCT FROM (NEW.status = 'approved' AND NEW.job_id IS NULL)`,
};
const figureCheck = (figures: string[]) => `CHECK (figure IN (${figures.map((f) => `'${f}'`).join(", ")}))`;

/**
 * The dashboard's counts of open work, kept by the writes as its customers are (migration
 * 0380; docs/decisions/515-the-dashboards-counts-all-kept.md): the open jobs by status, the
 * completed jobs not invoiced and the approved quotes not converted, as figures in
 * summary_deltas moved by triggers on jobs and on quotes (db/functions/summaries_open_work.sql:
 * per statement for inserts and deletes, per row for an update that moves a row's figure), and
 * made once here from the rows there are. The dashboard then sums a few rows instead of counting
 * tens of thousands of index entries.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck([...BEFORE, ...OPEN_WORK])};
  `);
  await sql.query(functionSql("summaries_open_work"));
  for (const table of ["jobs", "quotes"])
    await sql.query(`
      CREATE TRIGGER open_work_${table}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION summaries_open_work('${table}');
      CREATE TRIGGER open_work_${table}_update AFTER UPDATE ON ${table} FOR EACH ROW
        WHEN (${MOVES[table]}) EXECUTE FUNCTION summaries_open_work('${table}');
      CREATE TRIGGER open_work_${table}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION summaries_open_work('${table}');
    `);
  await sql.query(`
    INSERT INTO summary_deltas (tenant_id, figure, period, amount)
    SELECT tenant_id, CASE WHEN status = 'completed' THEN 'jobs_to_invoice' ELSE 'jobs_' || status END, '-infinity'::date, count(*)
      FROM jobs WHERE status NOT IN ('completed', 'cancelled') OR (status = 'completed' AND invoice_id IS NULL)
     GROUP BY 1, 2
    UNION ALL
    SELECT tenant_id, 'quotes_to_schedule', '-infinity'::date, count(*)
      FROM quotes WHERE status = 'approved' AND job_id IS NULL GROUP BY 1`);
};

export const down: Migration = async ({ context: sql }) => {
  for (const table of ["jobs", "quotes"])
    await sql.query(`
      DROP TRIGGER open_work_${table}_insert ON ${table};
      DROP TRIGGER open_work_${table}_update ON ${table};
      DROP TRIGGER open_work_${table}_delete ON ${table};
    `);
  await sql.query(`
    DROP FUNCTION summaries_open_work();
    DELETE FROM summary_deltas WHERE figure IN (${OPEN_WORK.map((f) => `'${f}'`).join(", ")});
    ALTER TABLE summary_deltas DROP CONSTRAINT summary_deltas_figure_check;
    ALTER TABLE summary_deltas ADD CONSTRAINT summary_deltas_figure_check ${figureCheck(BEFORE)};
  `);
};
