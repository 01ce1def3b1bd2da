import type { Migration } from "../migrate";

// The reports aggregate a tenant's rows by date: each index below gives
// one of them a range scan inside the tenant, with the summed columns included so the scan
// does not visit the table (docs/decisions/180-reports.md).
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE INDEX invoices_issue_date ON invoices (tenant_id, issue_date) INCLUDE (status, currency, total_cents);
    CREATE INDEX payments_recorded ON payments (tenant_id, recorded_at) INCLUDE (invoice_id, currency, amount_cents);
    CREATE INDEX quotes_sent ON quotes (tenant_id, sent_at) INCLUDE (approved_at) WHERE sent_at IS NOT NULL;
    CREATE INDEX jobs_completed ON jobs (tenant_id, completed_at) INCLUDE (assignee_id) WHERE status = 'completed';
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP INDEX invoices_issue_date, payments_recorded, quotes_sent, jobs_completed;`);
};
