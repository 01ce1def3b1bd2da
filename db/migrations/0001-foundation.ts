import type { Migration } from "../migrate";

// Tenants, users, sessions and the rate-limit counters. Every tenant-owned table has
// tenant_id NOT NULL in its primary key and foreign keys (Citus-ready).
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE tenants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      time_zone text NOT NULL DEFAULT 'UTC',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE users (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'office', 'technician')),
      -- NULL for members imported or added without a password: they sign in through an invite.
      password_hash text,
      phone text,
      hourly_rate_cents bigint CHECK (hourly_rate_cents >= 0),
      import_run_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    );
    -- Sign-in is by email alone, so an email names one user across all tenants (docs/decisions/003).
    CREATE UNIQUE INDEX users_email_key ON users (email);
    CREATE INDEX users_tenant_role ON users (tenant_id, role);
    CREATE INDEX users_import_run ON users (tenant_id, import_run_id) WHERE import_run_id IS NOT NULL;

    -- The cookie holds "<tenant id>.<secret>"; only sha256(secret) is stored, so reading
    -- this table does not let anyone sign in.
    CREATE TABLE sessions (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      id text NOT NULL,
      user_id uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      flash jsonb,
      user_agent text,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id),
      FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
    );
    CREATE INDEX sessions_expires_at ON sessions (expires_at);
    CREATE INDEX sessions_user ON sessions (tenant_id, user_id);

    -- rate-limiter-flexible's table (RateLimiterPostgres), created here so the app role needs no DDL.
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`DROP TABLE rate_limits, sessions, users, tenants;`);
};
