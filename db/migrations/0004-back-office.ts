import type { Migration } from "../migrate";

// Back office: invites for members without a password, and the indexes the lists page by
// (keyset pagination: each list's sort key followed by id, after the tenant).
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    -- One-time invite links. Only sha256 of the token's secret is stored, so reading this
    -- table does not let anyone set a password.
    CREATE TABLE invites (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL,
      token_hash text NOT NULL,
      created_by uuid,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      -- Set when a newer invite for the same member replaces this one.
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, token_hash),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (created_by)
    );
    CREATE INDEX invites_user ON invites (tenant_id, user_id, created_at);

    -- Jobs list: by schedule, unscheduled last; the technician's list within their own jobs.
    CREATE INDEX jobs_schedule_order ON jobs (tenant_id, (coalesce(scheduled_start, 'infinity'::timestamptz)), id);
    CREATE INDEX jobs_assignee_order ON jobs (tenant_id, assignee_id, (coalesce(scheduled_start, 'infinity'::timestamptz)), id);
    -- Quotes, invoices, booking requests: newest first.
    CREATE INDEX quotes_created_order ON quotes (tenant_id, created_at, id);
    CREATE INDEX invoices_created_order ON invoices (tenant_id, created_at, id);
    CREATE INDEX booking_requests_created_order ON booking_requests (tenant_id, created_at, id);
    -- Search by number or title.
    CREATE INDEX quotes_search ON quotes USING gin ((lower(number || ' ' || coalesce(title, ''))) gin_trgm_ops);
    CREATE INDEX invoices_search ON invoices USING gin (lower(number) gin_trgm_ops);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX invoices_search, quotes_search, booking_requests_created_order, invoices_created_order,
      quotes_created_order, jobs_assignee_order, jobs_schedule_order;
    DROP TABLE invites;
  `);
};
