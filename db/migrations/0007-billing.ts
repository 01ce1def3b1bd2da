import type { Migration } from "../migrate";

// Billing webhook intake (docs/billing.md).
//
// billing_events is the provider's event log, one row per (provider, event id): the unique
// key is what makes a redelivered or concurrently delivered event count once. It is global,
// not tenant-owned: an event is stored before (and whether or not) it names a tenant we know,
// so tenant_id is NULL for events of unknown tenants (stored as "ignored").
//
// The tenant's billing state lives on tenants itself; billing_event_at is the provider time
// of the last event applied, so an older event arriving late does not overwrite a newer one.
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    CREATE TABLE billing_events (
      provider text NOT NULL CHECK (provider IN ('stripe', 'paddle')),
      event_id text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 255),
      type text NOT NULL CHECK (length(type) BETWEEN 1 AND 255),
      status text NOT NULL CHECK (status IN ('processed', 'ignored')),
      reason text,
      tenant_id uuid REFERENCES tenants (id) ON DELETE SET NULL,
      occurred_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      payload jsonb NOT NULL,
      CONSTRAINT billing_events_provider_event_id_key UNIQUE (provider, event_id),
      CHECK ((status = 'ignored') = (reason IS NOT NULL))
    );
    CREATE INDEX billing_events_tenant ON billing_events (tenant_id, received_at DESC) WHERE tenant_id IS NOT NULL;

    ALTER TABLE tenants
      ADD COLUMN plan text,
      ADD COLUMN subscription_status text,
      ADD COLUMN current_period_end timestamptz,
      ADD COLUMN billing_provider text CHECK (billing_provider IN ('stripe', 'paddle')),
      ADD COLUMN billing_event_at timestamptz;
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE tenants
      DROP COLUMN billing_event_at,
      DROP COLUMN billing_provider,
      DROP COLUMN current_period_end,
      DROP COLUMN subscription_status,
      DROP COLUMN plan;
    DROP TABLE billing_events;
  `);
};
