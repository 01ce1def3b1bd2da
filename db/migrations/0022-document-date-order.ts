import type { Migration } from "../migrate";

// Lists newest first by the document's date, then its number:
// the quote and invoice lists walk these indexes, finished jobs theirs. A document without an issue date (an old
// import) sorts as the earliest, so it comes last; -infinity keeps the key NOT NULL, which the
// keyset's row comparison needs. They replace 0021's plain (issue_date, number) indexes, which
// no query could use once NULL dates had to be ordered.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX quotes_date_order ON quotes (tenant_id, (coalesce(issue_date, '-infinity'::date)), number, id);
    CREATE INDEX invoices_date_order ON invoices (tenant_id, (coalesce(issue_date, '-infinity'::date)), number, id);
    DROP INDEX IF EXISTS quotes_issue_order, invoices_issue_order;
    -- Completed and cancelled jobs, newest first by their date (the start, else the completion).
    CREATE INDEX jobs_finished_order ON jobs (tenant_id, (coalesce(scheduled_start, completed_at, '-infinity'::timestamptz)), id);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX quotes_issue_order ON quotes (tenant_id, issue_date, number, id);
    CREATE INDEX invoices_issue_order ON invoices (tenant_id, issue_date, number, id);
    DROP INDEX quotes_date_order, invoices_date_order, jobs_finished_order;
  `);
};
