import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * What a job bills (docs/decisions/371-job-items-and-per-visit-billing.md):
 *
 * - `job_items`: the job's line items, copied from its quote's chosen items when the quote is
 *   converted and editable on the job; `per_visit` marks an item billed on every visit's invoice
 *   (a maintenance visit's fee) rather than once on the job's.
 * - `jobs.billing`: `on_completion` (one invoice for the job: its items and its time as labour)
 *   or `per_visit` (a draft invoice per completed visit; the job's own invoice then carries what
 *   no visit invoice did).
 * - `invoices.visit_id`: the visit an invoice bills; at most one invoice per visit, and the
 *   one-invoice-per-job rule now holds for the job's own invoice (no visit).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE job_items (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      position integer NOT NULL,
      description text NOT NULL CHECK (length(description) BETWEEN 1 AND 1000),
      quantity numeric(12, 3) NOT NULL DEFAULT 1 CHECK (quantity > 0),
      unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
      tax_rate numeric(6, 3) NOT NULL DEFAULT 0 CHECK (tax_rate BETWEEN 0 AND 100),
      per_visit boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX job_items_job ON job_items (tenant_id, job_id, position);
    ${tenantTableSecurity("job_items")}

    ALTER TABLE jobs ADD COLUMN billing text NOT NULL DEFAULT 'on_completion'
      CONSTRAINT jobs_billing_check CHECK (billing IN ('on_completion', 'per_visit'));
    ALTER TABLE invoices ADD COLUMN visit_id uuid;
    DROP INDEX invoices_job_key;
    CREATE UNIQUE INDEX invoices_job_key ON invoices (tenant_id, job_id) WHERE job_id IS NOT NULL AND visit_id IS NULL;
    CREATE UNIQUE INDEX invoices_visit_key ON invoices (tenant_id, visit_id) WHERE visit_id IS NOT NULL;
  `);
  // A foreign key from a table distributed before this migration comes in its own query (db/migrate.ts).
  await sql.query(`
    ALTER TABLE invoices ADD CONSTRAINT invoices_visit_fkey
      FOREIGN KEY (tenant_id, visit_id) REFERENCES visits (tenant_id, id);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX invoices_visit_key;
    ALTER TABLE invoices DROP CONSTRAINT invoices_visit_fkey;
    -- Visit invoices stay, without their job link (the old rule allows one invoice per job).
    UPDATE invoices SET job_id = NULL WHERE visit_id IS NOT NULL;
    DROP INDEX invoices_job_key;
    ALTER TABLE invoices DROP COLUMN visit_id;
    CREATE UNIQUE INDEX invoices_job_key ON invoices (tenant_id, job_id) WHERE job_id IS NOT NULL;
    ALTER TABLE jobs DROP COLUMN billing;
    DROP TABLE job_items;
  `);
};
