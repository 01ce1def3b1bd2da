import type { Migration } from "../migrate";

// Records made by hand in the office (docs/decisions/125-127):
// - an invoice made from a job names it; the partial unique index makes "create invoice"
//   exactly once per job, however many clicks arrive at once;
// - a voided invoice says when and by whom;
// - a payment recorded by staff says who recorded it and the day the money was received;
// - a booking request names the quote or job made from it (each once), so it links both ways.
// Foreign keys are composite with tenant_id and NO ACTION: the app clears them, never the database.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE invoices
      ADD COLUMN job_id uuid,
      ADD COLUMN voided_at timestamptz,
      ADD COLUMN voided_by uuid,
      ADD CONSTRAINT invoices_job_fkey FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id),
      ADD CONSTRAINT invoices_voided_by_fkey FOREIGN KEY (tenant_id, voided_by) REFERENCES users (tenant_id, id);
    CREATE UNIQUE INDEX invoices_job_key ON invoices (tenant_id, job_id) WHERE job_id IS NOT NULL;

    ALTER TABLE payments
      ADD COLUMN received_on date,
      ADD COLUMN recorded_by uuid,
      ADD CONSTRAINT payments_recorded_by_fkey FOREIGN KEY (tenant_id, recorded_by) REFERENCES users (tenant_id, id);

    ALTER TABLE booking_requests
      ADD COLUMN quote_id uuid,
      ADD COLUMN job_id uuid,
      ADD CONSTRAINT booking_requests_quote_fkey FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id),
      ADD CONSTRAINT booking_requests_job_fkey FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id);
    CREATE UNIQUE INDEX booking_requests_quote_key ON booking_requests (tenant_id, quote_id) WHERE quote_id IS NOT NULL;
    CREATE UNIQUE INDEX booking_requests_job_key ON booking_requests (tenant_id, job_id) WHERE job_id IS NOT NULL;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE booking_requests DROP COLUMN quote_id, DROP COLUMN job_id;
    ALTER TABLE payments DROP COLUMN received_on, DROP COLUMN recorded_by;
    ALTER TABLE invoices DROP COLUMN job_id, DROP COLUMN voided_at, DROP COLUMN voided_by;
  `);
};
