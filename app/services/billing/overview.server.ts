// The tenant's billing state as its owner sees it on /settings/billing.

import { inTenant } from "../../../db/index";
import { BillingEvent, Tenant } from "../../../db/models";
import { BILLING_PROVIDERS, billingConfig, type BillingProvider } from "../../utils/billing-config";

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
    const tenant = await Tenant.findOne({
      where: { id: tenantId },
      attributes: ["plan", "subscriptionStatus", "currentPeriodEnd", "billingProvider", "billingEventAt"],
      transaction: t,
    });
    const events = await BillingEvent.findAll({
      where: { tenantId },
      attributes: ["provider", "eventId", "type", "status", "reason", "occurredAt", "receivedAt"],
      order: [
        ["receivedAt", "DESC"],
        ["occurredAt", "DESC"],
      ],
      limit: RECENT_EVENTS,
      transaction: t,
    });
    return {
      tenantId,
      plan: tenant?.plan ?? null,
      subscriptionStatus: tenant?.subscriptionStatus ?? null,
      currentPeriodEnd: tenant?.currentPeriodEnd?.toISOString() ?? null,
      provider: tenant?.billingProvider ?? null,
      lastEventAt: tenant?.billingEventAt?.toISOString() ?? null,
      events: events.map((e) => ({
        provider: e.provider,
        eventId: e.eventId,
        type: e.type,
        status: e.status,
        reason: e.reason,
        occurredAt: e.occurredAt.toISOString(),
        receivedAt: e.receivedAt.toISOString(),
      })),
    };
  });
}

/** Which providers this server takes events from (read per request, like the intake). */
export function providerStatus(env: Record<string, string | undefined>) {
  return BILLING_PROVIDERS.map((provider) => ({ provider, configured: billingConfig(provider, env).enabled }));
}
