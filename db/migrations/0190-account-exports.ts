import type { Migration } from "../migrate";
import { tenantTableSecurity } from "./0020-history-and-numbering";

/**
 * The account export (docs/decisions/360-account-export.md): one row per "Export everything",
 * its progress while it runs in the background, the ZIP's place and size when ready, and the
 * counts of its manifest (kept for the settings page's history after the file is deleted).
 * At most one export per tenant is under way: the partial unique index is the guard, so a
 * double click or two servers never start a second one.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE account_exports (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      -- Who asked (no foreign key: the history keeps the export after the member leaves, and
      -- names them by requested_by_name).
      requested_by uuid,
      requested_by_name text NOT NULL CHECK (length(requested_by_name) BETWEEN 1 AND 200),
      state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'ready', 'failed', 'expired')),
      -- What is being written now (a file of the ZIP), and how many of the steps are done.
      step text,
      steps_done integer NOT NULL DEFAULT 0 CHECK (steps_done >= 0),
      steps_total integer NOT NULL CHECK (steps_total >= 1),
      counts jsonb,
      file_name text,
      byte_size bigint CHECK (byte_size IS NULL OR byte_size >= 0),
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      expires_at timestamptz,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX account_exports_one_running ON account_exports (tenant_id) WHERE state = 'running';
    CREATE INDEX account_exports_history ON account_exports (tenant_id, created_at DESC, id);
    ${tenantTableSecurity("account_exports")}
    DO $do$ BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        PERFORM create_distributed_table('account_exports', 'tenant_id', colocate_with => 'tenants');
      END IF;
    END $do$;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE account_exports;`);
};
