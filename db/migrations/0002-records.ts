import type { Migration } from "../migrate";

// The business records, designed once for the whole app: import, back office, portal and
// offline sync all use them. Money is integer cents with a currency; times are timestamptz
// (UTC); `import_run_id` marks the rows an import created so undo deletes exactly those.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE customers (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      company text,
      email text CHECK (email = lower(email)),
      phone text,
      address_line1 text,
      address_line2 text,
      city text,
      region text,
      postal_code text,
      country text,
      notes text,
      external_id text,
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX customers_external_id_key ON customers (tenant_id, external_id) WHERE external_id IS NOT NULL;
    CREATE UNIQUE INDEX customers_email_key ON customers (tenant_id, email) WHERE email IS NOT NULL;
    CREATE INDEX customers_name ON customers (tenant_id, name, id);
    CREATE INDEX customers_search ON customers USING gin (
      (lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(company, ''))) gin_trgm_ops);
    CREATE INDEX customers_import_run ON customers (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;

    CREATE TABLE jobs (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      description text,
      status text NOT NULL DEFAULT 'unscheduled' CHECK (status IN
        ('unscheduled', 'scheduled', 'en_route', 'in_progress', 'on_hold', 'completed', 'cancelled')),
      scheduled_start timestamptz,
      scheduled_end timestamptz CHECK (scheduled_end IS NULL OR scheduled_start IS NULL OR scheduled_end >= scheduled_start),
      assignee_id uuid,
      address text,
      external_id text,
      completed_at timestamptz,
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id),
      FOREIGN KEY (tenant_id, assignee_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (assignee_id)
    );
    CREATE UNIQUE INDEX jobs_external_id_key ON jobs (tenant_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX jobs_customer ON jobs (tenant_id, customer_id);
    CREATE INDEX jobs_status ON jobs (tenant_id, status, scheduled_start);
    CREATE INDEX jobs_assignee ON jobs (tenant_id, assignee_id, status, scheduled_start);
    CREATE INDEX jobs_search ON jobs USING gin (lower(title) gin_trgm_ops);
    CREATE INDEX jobs_import_run ON jobs (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;

    -- What happened to a job in the field or the office: notes, time entries, status changes.
    CREATE TABLE job_notes (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      author_id uuid,
      body text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
      occurred_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, author_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (author_id)
    );
    CREATE INDEX job_notes_job ON job_notes (tenant_id, job_id, occurred_at);

    CREATE TABLE time_entries (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      user_id uuid,
      started_at timestamptz NOT NULL,
      ended_at timestamptz NOT NULL CHECK (ended_at >= started_at),
      note text CHECK (note IS NULL OR length(note) <= 5000),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (user_id)
    );
    CREATE INDEX time_entries_job ON time_entries (tenant_id, job_id, started_at);

    CREATE TABLE job_events (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      job_id uuid NOT NULL,
      user_id uuid,
      from_status text,
      to_status text NOT NULL,
      occurred_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (user_id)
    );
    CREATE INDEX job_events_job ON job_events (tenant_id, job_id, occurred_at);

    -- 'expired' is derived on read (a sent quote whose valid_until has passed), never stored by a job.
    CREATE TABLE quotes (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      number text NOT NULL CHECK (length(number) BETWEEN 1 AND 50),
      title text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'approved', 'declined', 'expired')),
      issue_date date,
      valid_until date,
      currency char(3) NOT NULL DEFAULT 'USD',
      notes text,
      subtotal_cents bigint NOT NULL DEFAULT 0,
      tax_cents bigint NOT NULL DEFAULT 0,
      total_cents bigint NOT NULL DEFAULT 0,
      sent_at timestamptz,
      approved_at timestamptz,
      approved_name text,
      approved_ip text,
      approved_user_agent text,
      declined_at timestamptz,
      decline_reason text,
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, number),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id)
    );
    CREATE INDEX quotes_customer ON quotes (tenant_id, customer_id);
    CREATE INDEX quotes_status ON quotes (tenant_id, status, created_at);
    CREATE INDEX quotes_import_run ON quotes (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;

    CREATE TABLE quote_items (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL,
      position integer NOT NULL,
      description text NOT NULL,
      quantity numeric(12, 3) NOT NULL DEFAULT 1 CHECK (quantity > 0),
      unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
      tax_rate numeric(6, 3) NOT NULL DEFAULT 0 CHECK (tax_rate BETWEEN 0 AND 100),
      line_total_cents bigint NOT NULL,
      tax_cents bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, quote_id, position),
      FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id) ON DELETE CASCADE
    );

    CREATE TABLE invoices (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      quote_id uuid,
      number text NOT NULL CHECK (length(number) BETWEEN 1 AND 50),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'partial', 'paid', 'void')),
      issue_date date,
      due_date date,
      currency char(3) NOT NULL DEFAULT 'USD',
      notes text,
      subtotal_cents bigint NOT NULL DEFAULT 0,
      tax_cents bigint NOT NULL DEFAULT 0,
      total_cents bigint NOT NULL DEFAULT 0,
      amount_paid_cents bigint NOT NULL DEFAULT 0,
      sent_at timestamptz,
      paid_at timestamptz,
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, number),
      CHECK (amount_paid_cents >= 0 AND amount_paid_cents <= total_cents),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id),
      FOREIGN KEY (tenant_id, quote_id) REFERENCES quotes (tenant_id, id) ON DELETE SET NULL (quote_id)
    );
    CREATE INDEX invoices_customer ON invoices (tenant_id, customer_id);
    CREATE INDEX invoices_status ON invoices (tenant_id, status, due_date);
    CREATE INDEX invoices_import_run ON invoices (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;

    CREATE TABLE invoice_items (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL,
      position integer NOT NULL,
      description text NOT NULL,
      quantity numeric(12, 3) NOT NULL DEFAULT 1 CHECK (quantity > 0),
      unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
      tax_rate numeric(6, 3) NOT NULL DEFAULT 0 CHECK (tax_rate BETWEEN 0 AND 100),
      line_total_cents bigint NOT NULL,
      tax_cents bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant_id, id),
      UNIQUE (tenant_id, invoice_id, position),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id) ON DELETE CASCADE
    );

    CREATE TABLE payments (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      invoice_id uuid NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      currency char(3) NOT NULL,
      method text NOT NULL CHECK (method IN ('sandbox', 'cash', 'check', 'card', 'bank_transfer', 'import', 'other')),
      reference text NOT NULL,
      -- The portal's form carries a key made when the page renders: one payment per key.
      idempotency_key text,
      payer_ip text,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id)
    );
    CREATE UNIQUE INDEX payments_idempotency_key ON payments (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
    CREATE INDEX payments_invoice ON payments (tenant_id, invoice_id, recorded_at);

    CREATE TABLE portal_links (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      created_by uuid,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, created_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (created_by),
      FOREIGN KEY (tenant_id, revoked_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (revoked_by)
    );
    CREATE INDEX portal_links_customer ON portal_links (tenant_id, customer_id, created_at);

    CREATE TABLE booking_requests (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      customer_id uuid NOT NULL,
      portal_link_id uuid,
      service text NOT NULL CHECK (length(service) BETWEEN 1 AND 200),
      description text CHECK (description IS NULL OR length(description) <= 2000),
      preferred_date date,
      time_window text NOT NULL DEFAULT 'any' CHECK (time_window IN ('any', 'morning', 'afternoon', 'evening')),
      address text,
      phone text,
      status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'scheduled', 'declined', 'archived')),
      triaged_by uuid,
      triaged_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, portal_link_id) REFERENCES portal_links (tenant_id, id) ON DELETE SET NULL (portal_link_id),
      FOREIGN KEY (tenant_id, triaged_by) REFERENCES users (tenant_id, id) ON DELETE SET NULL (triaged_by)
    );
    CREATE INDEX booking_requests_status ON booking_requests (tenant_id, status, created_at);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP TABLE booking_requests, portal_links, payments, invoice_items, invoices, quote_items, quotes,
      job_events, time_entries, job_notes, jobs, customers;
  `);
};
