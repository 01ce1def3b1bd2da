// What a verified billing event does to its tenant. Pure: the intake
// calls it before it stores the event; the tenant's clock is checked by the database.

import type { NormalisedEvent } from "./events.server";

/** The tenant as the intake found it: null when the event names no tenant we know. */
export type TenantBillingClock = { billingEventAt: Date | null } | null;

/** New values for the tenant's billing columns; null keeps the current value. */
export type BillingChanges = { plan: string | null; subscriptionStatus: string | null; currentPeriodEnd: Date | null };

export type Outcome = { status: "processed"; changes: BillingChanges } | { status: "ignored"; reason: string };

export const REASONS = {
  noEffect: (type: string) => `${type} does not change billing`,
  noTenant: "the event names no tenant (metadata.tenant_id / client_reference_id / custom_data.tenant_id)",
  unknownTenant: (tenantId: string) => `unknown tenant ${tenantId}`,
  unknownPrice: (priceId: string) => `unknown price ${priceId} (not in the price plans)`,
  older: "older than the last applied event",
  unreadable: (why: string) => `unreadable event: ${why}`,
} as const;

export function decideEffect(
  event: NormalisedEvent,
  pricePlans: Record<string, string>,
  tenant: TenantBillingClock,
): Outcome {
  if (event.kind === "other") return { status: "ignored", reason: REASONS.noEffect(event.type) };
  if (!event.tenantId) return { status: "ignored", reason: REASONS.noTenant };
  if (!tenant) return { status: "ignored", reason: REASONS.unknownTenant(event.tenantId) };
  // The price map has a null prototype (config.server.ts), so `in` sees only configured prices.
  if (event.priceId !== null && !(event.priceId in pricePlans)) {
    return { status: "ignored", reason: REASONS.unknownPrice(event.priceId) };
  }
  // Providers do not promise delivery order. Strictly older only: events of the same second
  // (Stripe's `created` has one-second resolution) apply in arrival order.
  if (tenant.billingEventAt && event.occurredAt.getTime() < tenant.billingEventAt.getTime()) {
    return { status: "ignored", reason: REASONS.older };
  }
  return {
    status: "processed",
    changes: {
      plan: event.priceId === null ? null : pricePlans[event.priceId],
      subscriptionStatus: event.subscriptionStatus,
      currentPeriodEnd: event.currentPeriodEnd,
    },
  };
}
