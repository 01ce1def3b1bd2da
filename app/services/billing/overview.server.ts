// The tenant's billing state as its owner sees it on /settings/billing.

import { inTenant, one, rows } from "../../../db/index";
import { BILLING_PROVIDERS, billingConfig, type BillingProvider } from "./config.server";

export const RECENT_EVENTS = 20;

export type BillingEventView = {
  provider: BillingProvider;
  eventId: string;
  type: string;
  status: "processed" | "ignored";
  reason: string | null;
  occurredAt: string;
  receivedAt: string;
};

export type BillingOverview = {
  tenantId: string;
  plan: string | null;
  subscriptionStatus: string | null;
  currentPeriodEnd: string | null;
  provider: BillingProvider | null;
  lastEventAt: string | null;
  events: BillingEventView[];
};

export async function billingOverview(tenantId: string): Promise<BillingOverview> {
  return inTenant(tenantId, async (t) => {
    const tenant = await one<{
      plan: string | null;
      subscription_status: string | null;
      current_period_end: Date | null;
      billing_provider: BillingProvider | null;
      billing_event_at: Date | null;
    }>(
      `SELECT plan, subscription_status, current_period_end, billing_provider, billing_event_at FROM tenants WHERE id = $1`,
      [tenantId],
      t,
    );
    const events = await rows<{
      provider: BillingProvider;
      event_id: string;
      type: string;
      status: "processed" | "ignored";
      reason: string | null;
      occurred_at: Date;
      received_at: Date;
    }>(
      `SELECT provider, event_id, type, status, reason, occurred_at, received_at
         FROM billing_events WHERE tenant_id = $1
        ORDER BY received_at DESC, occurred_at DESC LIMIT ${RECENT_EVENTS}`,
      [tenantId],
      t,
    );
    return {
      tenantId,
      plan: tenant?.plan ?? null,
      subscriptionStatus: tenant?.subscription_status ?? null,
      currentPeriodEnd: tenant?.current_period_end?.toISOString() ?? null,
      provider: tenant?.billing_provider ?? null,
      lastEventAt: tenant?.billing_event_at?.toISOString() ?? null,
      events: events.map((e) => ({
        provider: e.provider,
        eventId: e.event_id,
        type: e.type,
        status: e.status,
        reason: e.reason,
        occurredAt: e.occurred_at.toISOString(),
        receivedAt: e.received_at.toISOString(),
      })),
    };
  });
}

/** Which providers this server takes events from (read per request, like the intake). */
export function providerStatus(env: Record<string, string | undefined>) {
  return BILLING_PROVIDERS.map((provider) => ({ provider, configured: billingConfig(provider, env).enabled }));
}
