// What a verified billing event does to its tenant: the rules the intake applies inside its
// transaction (app/services/billing/effects.server.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideEffect } from "../../app/services/billing/effects.server";
import type { NormalisedEvent } from "../../app/services/billing/events.server";
import { billingConfig } from "../../app/utils/billing-config";

const TENANT = "3f0c8f5e-8d7a-4c51-9a47-6f1b2f3c9d10";
const config = billingConfig("stripe", {
  BILLING_STRIPE_WEBHOOK_SECRET: "whsec_x",
  BILLING_STRIPE_PRICE_PLANS: "price_123:starter,price_456:pro",
});
if (!config.enabled) throw new Error("test configuration");
const plans = config.pricePlans;

const event = (o: Partial<NormalisedEvent> = {}): NormalisedEvent => ({
  eventId: "evt_1",
  type: "customer.subscription.updated",
  occurredAt: new Date("2026-06-01T12:00:00Z"),
  kind: "subscription",
  tenantId: TENANT,
  priceId: "price_456",
  subscriptionStatus: "active",
  currentPeriodEnd: new Date("2026-07-01T12:00:00Z"),
  ...o,
});
const fresh = { billingEventAt: null };

describe("decideEffect", () => {
  it("a subscription event for a known tenant and price sets plan, status and period end", () => {
    assert.deepEqual(decideEffect(event(), plans, fresh), {
      status: "processed",
      changes: { plan: "pro", subscriptionStatus: "active", currentPeriodEnd: new Date("2026-07-01T12:00:00Z") },
    });
  });

  it("no price (checkout session): status only, the plan is kept", () => {
    const outcome = decideEffect(event({ priceId: null, currentPeriodEnd: null }), plans, fresh);
    assert.deepEqual(outcome, {
      status: "processed",
      changes: { plan: null, subscriptionStatus: "active", currentPeriodEnd: null },
    });
  });

  it("an older event than the last applied one is ignored; the same second is applied", () => {
    const last = { billingEventAt: new Date("2026-06-01T12:00:00Z") };
    assert.deepEqual(decideEffect(event({ occurredAt: new Date("2026-06-01T11:59:59Z") }), plans, last), {
      status: "ignored",
      reason: "older than the last applied event",
    });
    assert.equal(
      decideEffect(event({ occurredAt: new Date("2026-06-01T12:00:00Z") }), plans, last).status,
      "processed",
    );
    assert.equal(
      decideEffect(event({ occurredAt: new Date("2026-06-01T12:00:01Z") }), plans, last).status,
      "processed",
    );
  });

  it("unknown tenant, no tenant, unknown price, no-effect types: ignored with the reason", () => {
    assert.deepEqual(decideEffect(event(), plans, null), { status: "ignored", reason: `unknown tenant ${TENANT}` });
    assert.match(
      (decideEffect(event({ tenantId: null }), plans, null) as { reason: string }).reason,
      /names no tenant/,
    );
    assert.deepEqual(decideEffect(event({ priceId: "price_999" }), plans, fresh), {
      status: "ignored",
      reason: "unknown price price_999 (not in the price plans)",
    });
    assert.deepEqual(decideEffect(event({ kind: "other", type: "customer.created" }), plans, fresh), {
      status: "ignored",
      reason: "customer.created does not change billing",
    });
  });

  it("a price id naming an inherited property is not a configured price", () => {
    for (const priceId of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      assert.equal(decideEffect(event({ priceId }), plans, fresh).status, "ignored", priceId);
    }
  });
});
