import type { Migration } from "../migrate";

// CSV import runs (docs/decisions/070). A run is one uploaded file:
// previewed -> committed -> undone, or previewed -> superseded by a newer preview of its type.
// The preview itself lives in import_run_data (not in process memory), so any app server can
// show or commit a preview another one made.
/** The foreign keys from jobs, quotes and invoices to customers, re-created with `onDelete`. */
const customerForeignKeys = (onDelete: string) =>
  ["jobs", "quotes", "invoices"]
    .map(
      (t) => `ALTER TABLE ${t} DROP CONSTRAINT ${t}_tenant_id_customer_id_fkey,
        ADD CONSTRAINT ${t}_tenant_id_customer_id_fkey FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ${onDelete};`,
    )
    .join("\n");

export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE import_runs (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      type text NOT NULL CHECK (type IN ('customers', 'jobs', 'quotes', 'invoices', 'team')),
      state text NOT NULL DEFAULT 'previewed' CHECK (state IN ('previewed', 'superseded', 'committed', 'undone')),
      file_name text CHECK (file_name IS NULL OR length(file_name) <= 255),
      file_bytes bigint NOT NULL CHECK (file_bytes >= 0),
      -- The file's known columns, in file order: the preview table's header.
      headers jsonb NOT NULL,
      -- File-level warnings (unknown or unnamed columns), as shown to the user.
      warnings jsonb NOT NULL DEFAULT '[]',
      row_count integer NOT NULL CHECK (row_count >= 0),
      valid_count integer NOT NULL CHECK (valid_count >= 0),
      invalid_count integer NOT NULL CHECK (invalid_count >= 0),
      error_count integer NOT NULL CHECK (error_count >= 0),
      -- Quotes and invoices: documents (distinct numbers) and line items in the file.
      document_count integer,
      item_count integer,
      -- Records the commit created (customers, team members, jobs, quotes or invoices).
      imported_count integer,
      created_by uuid,
      committed_by uuid,
      undone_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      superseded_at timestamptz,
      committed_at timestamptz,
      undone_at timestamptz,
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (created_by),
      FOREIGN KEY (tenant_id, committed_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (committed_by),
      FOREIGN KEY (tenant_id, undone_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (undone_by),
      CHECK (valid_count + invalid_count = row_count),
      CHECK ((state IN ('committed', 'undone')) = (committed_at IS NOT NULL)),
      CHECK ((state = 'undone') = (undone_at IS NOT NULL))
    );
    -- At most one live preview per type: "the most recent preview" is the one in this state.
    CREATE UNIQUE INDEX import_runs_one_preview ON import_runs (tenant_id, type) WHERE state = 'previewed';
    -- "The most recent committed import of the tenant" (undo).
    CREATE INDEX import_runs_committed ON import_runs (tenant_id, committed_at DESC) WHERE state = 'committed';
    CREATE INDEX import_runs_recent ON import_runs (tenant_id, created_at DESC);

    -- A preview's content, in chunks of JSON text (docs/decisions/071):
    --   rows    every data row as shown in the preview: [row number, cells, errors]
    --   invalid the rows with errors only, same shape (the "rows with errors" view)
    --   errors  every error: [row number, column, message], sorted by row
    --   records the normalised records the commit inserts (valid previews only)
    -- text rather than jsonb: it is written once and read whole, and PostgreSQL need not parse
    -- it on the way in. EXTERNAL storage skips pglz, which would cost more than it saves here.
    CREATE TABLE import_run_data (
      tenant_id uuid NOT NULL,
      run_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('rows', 'invalid', 'errors', 'records')),
      seq integer NOT NULL CHECK (seq >= 0),
      data text NOT NULL,
      PRIMARY KEY (tenant_id, run_id, kind, seq),
      FOREIGN KEY (tenant_id, run_id) REFERENCES import_runs (tenant_id, id) ON DELETE CASCADE
    );
    ALTER TABLE import_run_data ALTER COLUMN data SET STORAGE EXTERNAL;

    -- Undo deletes an imported customer only when nothing refers to it; without this index each
    -- deleted customer would scan the tenant's booking requests (the foreign key check).
    CREATE INDEX booking_requests_customer ON booking_requests (tenant_id, customer_id);

    -- Same guarantee as NO ACTION (a customer with jobs, quotes or invoices cannot be deleted),
    -- checked at once: PostgreSQL then skips NO ACTION's extra "is there a new row with this key"
    -- lookup for every deleted customer, which halves the cost of undoing a large import.
    ${customerForeignKeys("ON DELETE RESTRICT")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    ${customerForeignKeys("")}
    DROP INDEX booking_requests_customer;
    DROP TABLE import_run_data, import_runs;
  `);
};
