import type { Migration } from "../migrate";
import { APP_ROLE } from "./0009-row-level-security";

/**
 * Row-level security, forced, with the same policy as every other tenant table (0009 covers
 * only the tables that existed when it ran), and the app role's grants.
 */
export function tenantTableSecurity(table: string): string {
  const current = "NULLIF(current_setting('app.tenant_id', true), '')::uuid";
  return `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${table} USING (tenant_id = ${current}) WITH CHECK (tenant_id = ${current});
    GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${APP_ROLE};`;
}

// Record history (docs/decisions/120) and document number counters (docs/decisions/121).
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    -- Who did what to a record, and when: one table for every record type. A job's status
    -- changes stay in job_events (the offline sync procedure writes them) and are read beside it.
    CREATE TABLE record_history (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      record_type text NOT NULL CHECK (record_type IN ('customer', 'quote', 'job', 'invoice', 'booking_request')),
      record_id uuid NOT NULL,
      action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_]{0,62}$'),
      summary text NOT NULL CHECK (length(summary) BETWEEN 1 AND 500),
      -- Where it came from: a staff page, the customer portal, the field app, an import, the system.
      source text NOT NULL DEFAULT 'staff' CHECK (source IN ('staff', 'portal', 'field', 'import', 'system')),
      user_id uuid,
      -- The name at the time (a portal customer has no user; a renamed member keeps their old entries).
      actor_name text,
      details jsonb,
      -- clock_timestamp, not now(): two entries of one transaction keep their order.
      occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id)
    );
    CREATE INDEX record_history_record ON record_history (tenant_id, record_type, record_id, occurred_at DESC, id);

    -- One row per tenant and document kind: the next number to hand out. Locked by the
    -- transaction that creates the document, so concurrent creations queue and never collide.
    CREATE TABLE document_counters (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('quote', 'invoice')),
      next_value bigint NOT NULL DEFAULT 1 CHECK (next_value >= 1),
      PRIMARY KEY (tenant_id, kind)
    );
    ${tenantTableSecurity("record_history")}
    ${tenantTableSecurity("document_counters")}
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE document_counters, record_history;`);
};
