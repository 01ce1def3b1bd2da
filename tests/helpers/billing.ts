// Billing webhook test helpers: a server with billing configured, realistic Stripe and
// Paddle events, and signed deliveries. Stripe headers come from the stripe package itself.
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { paddleSignatureHeader } from "../../app/services/billing/signatures.server";
import { one, rows } from "../../db/index";
import { startServer, type RunningServer } from "./server";

export const STRIPE_SECRET = "whsec_intake_test_secret_new_0123456789";
export const STRIPE_OLD_SECRET = "whsec_intake_test_secret_old_0123456789";
export const PADDLE_SECRET = "pdl_ntf_01hintaketest_Secret0123456789abcdef";

export const BILLING_ENV = {
  // Newest first: a rotation in progress, both accepted.
  BILLING_STRIPE_WEBHOOK_SECRET: `${STRIPE_SECRET},${STRIPE_OLD_SECRET}`,
  BILLING_STRIPE_PRICE_PLANS: "price_123:starter,price_456:pro",
  BILLING_PADDLE_WEBHOOK_SECRET: PADDLE_SECRET,
  BILLING_PADDLE_PRICE_PLANS: "pri_01starter:starter,pri_01pro:pro",
};

export function startBillingServer(): Promise<RunningServer> {
  return startServer(BILLING_ENV);
}

const stripe = new Stripe("sk_test_intake");
export const nowSeconds = () => Math.floor(Date.now() / 1000);
const uid = () => randomUUID().replace(/-/g, "").slice(0, 20);

/** A header exactly as stripe-node's test helper makes it (t=..., v1=...). */
export function stripeHeader(payload: string, o: { secret?: string; timestamp?: number } = {}) {
  return stripe.webhooks.generateTestHeaderString({
    payload,
    secret: o.secret ?? STRIPE_SECRET,
    timestamp: o.timestamp ?? nowSeconds(),
  });
}

type SubscriptionFacts = {
  tenantId: string | null;
  price?: string;
  status?: string;
  created?: number; // event time, unix seconds
  periodEnd?: number;
  id?: string;
};

/** A customer.subscription.* event in Stripe's 2025 shape (period end on the item). */
export function stripeSubscriptionEvent(type: string, f: SubscriptionFacts) {
  const created = f.created ?? nowSeconds();
  return {
    id: f.id ?? `evt_${uid()}`,
    object: "event",
    api_version: "2025-03-31.basil",
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: `sub_${uid()}`,
        object: "subscription",
        customer: "cus_Q1x2y3z4",
        status: f.status ?? "active",
        metadata: f.tenantId ? { tenant_id: f.tenantId } : {},
        items: {
          object: "list",
          data: [
            {
              id: `si_${uid()}`,
              object: "subscription_item",
              price: { id: f.price ?? "price_456", object: "price", currency: "usd", unit_amount: 4900 },
              quantity: 1,
              current_period_end: f.periodEnd ?? created + 30 * 86400,
            },
          ],
        },
      },
    },
  };
}

/** A Paddle Billing subscription.* notification. */
export function paddleSubscriptionEvent(type: string, f: SubscriptionFacts) {
  const occurred = new Date((f.created ?? nowSeconds()) * 1000);
  const periodEnd = new Date((f.periodEnd ?? (f.created ?? nowSeconds()) + 30 * 86400) * 1000);
  return {
    event_id: f.id ?? `evt_01${uid()}`,
    event_type: type,
    occurred_at: occurred.toISOString(),
    notification_id: `ntf_01${uid()}`,
    data: {
      id: `sub_01${uid()}`,
      status: f.status ?? "active",
      customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
      custom_data: f.tenantId ? { tenant_id: f.tenantId } : null,
      items: [{ price: { id: f.price ?? "pri_01pro", product_id: "pro_01abc" }, quantity: 1, status: "active" }],
      current_billing_period: { starts_at: occurred.toISOString(), ends_at: periodEnd.toISOString() },
    },
  };
}

export type Delivery = { body: string; header?: string | null; headers?: Record<string, string> };

/** POSTs a delivery; `header: null` sends no signature header, undefined signs it correctly. */
export async function deliver(base: string, provider: string, d: Delivery): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", ...d.headers };
  const name = provider === "paddle" ? "paddle-signature" : "stripe-signature";
  const header =
    d.header !== undefined
      ? d.header
      : provider === "paddle"
        ? paddleSignatureHeader(d.body, PADDLE_SECRET, nowSeconds())
        : stripeHeader(d.body);
  if (header !== null) headers[name] = header;
  return fetch(`${base}/api/billing/${provider}/webhook`, { method: "POST", headers, body: d.body });
}

/** The stored events of an id; `payload` parsed from the raw body kept as text, `body` as stored. */
export async function storedEvents(provider: string, eventId: string) {
  const found = await rows<{
    status: string;
    reason: string | null;
    tenant_id: string | null;
    type: string;
    body: string;
  }>(
    `SELECT status, reason, tenant_id, type, payload AS body FROM billing_events WHERE provider = $1 AND event_id = $2`,
    [provider, eventId],
  );
  return found.map((r) => ({ ...r, payload: JSON.parse(r.body) as unknown }));
}

export async function tenantBilling(tenantId: string) {
  return (await one<{
    plan: string | null;
    subscription_status: string | null;
    current_period_end: Date | null;
    billing_provider: string | null;
    billing_event_at: Date | null;
  }>(
    `SELECT plan, subscription_status, current_period_end, billing_provider, billing_event_at FROM tenants WHERE id = $1`,
    [tenantId],
  ))!;
}
