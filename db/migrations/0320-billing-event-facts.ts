import type { Migration } from "../migrate";

/**
 * A billing event's row keeps the facts it brings (plan, subscription status, period end), so
 * the tenant's billing state is folded from the insert-only event rows after their commit
 * instead of being written inside each event's transaction: events of one tenant no longer
 * wait on its row (docs/decisions/450-fast-writes.md). The index finds a tenant's newest
 * processed events; rows stored before this migration carry no facts (NULL keeps a value).
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE billing_events
      ADD COLUMN plan text,
      ADD COLUMN subscription_status text,
      ADD COLUMN current_period_end timestamptz;
    CREATE INDEX billing_events_tenant_newest ON billing_events (tenant_id, occurred_at DESC, received_at DESC)
      WHERE status = 'processed';
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DROP INDEX billing_events_tenant_newest;
    ALTER TABLE billing_events DROP COLUMN plan, DROP COLUMN subscription_status, DROP COLUMN current_period_end;
  `);
};
