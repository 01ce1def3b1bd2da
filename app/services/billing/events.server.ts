// Turns a verified Stripe or Paddle Billing event into the few facts the intake acts on
//: which tenant, which price, what subscription status, until when.
// Pure: no database. The caller verifies the signature first and passes the parsed JSON.
//
// Only the envelope (id, type, time, data object) and the status of subscription events
// are required; every other field is optional and degrades to null when absent or of an
// unexpected shape, because providers add and move fields between API versions (Stripe's
// 2025-03-31 version moved current_period_end onto items and invoice prices into pricing).

import { z } from "zod";
import type { BillingProvider } from "../../utils/billing-config";

export type NormalisedEventKind = "subscription" | "invoice_paid" | "payment_failed" | "other";

export type NormalisedEvent = {
  eventId: string;
  type: string;
  occurredAt: Date;
  kind: NormalisedEventKind;
  tenantId: string | null;
  priceId: string | null;
  subscriptionStatus: string | null;
  currentPeriodEnd: Date | null;
};

/** Identity of an event whose envelope was read even though its facts were not. */
export type EventEnvelope = Pick<NormalisedEvent, "eventId" | "type" | "occurredAt">;

// `envelope` is set when the event is identifiable (id, type, time) but its object is of an
// unexpected shape: the intake stores such an event as "ignored" rather than refusing it.
export type NormaliseResult =
  { ok: true; event: NormalisedEvent } | { ok: false; reason: string; envelope?: EventEnvelope };

// ---------------------------------------------------------------------------------------
// Shared shapes

// Tenants are identified by UUID; anything else in the metadata is someone else's id
// (or a typo) and must not be looked up. Any version nibble: tenants may be v4 or v7.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function asTenantId(value: string | undefined | null): string | null {
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}

// First candidate that is a UUID wins, in the documented order of precedence.
function firstTenantId(...candidates: Array<string | undefined | null>): string | null {
  for (const candidate of candidates) {
    const tenantId = asTenantId(candidate);
    if (tenantId) return tenantId;
  }
  return null;
}

// Optional field that turns into undefined when missing, null or of the wrong shape.
function loose<T extends z.ZodTypeAny>(schema: T) {
  return schema.optional().catch(undefined);
}

const Id = z.string().min(1).max(255);

// Unix seconds up to year 9999, so new Date() can never be Invalid Date.
const UnixSeconds = z.number().int().nonnegative().max(253402300799);
const unixToDate = (seconds: number | undefined): Date | null =>
  seconds === undefined ? null : new Date(seconds * 1000);

// RFC 3339 as Paddle sends it ("2024-04-12T10:18:49.621022Z"); zod accepts any precision.
const IsoDateTime = z
  .string()
  .datetime({ offset: true })
  .transform((s) => new Date(s))
  .refine((d) => !Number.isNaN(d.getTime()), "invalid date");

const TenantMetadata = z.object({ tenant_id: loose(z.string()) });

// ---------------------------------------------------------------------------------------
// Stripe (https://docs.stripe.com/api/events/object)

const StripeEnvelope = z.object({
  id: Id,
  type: z.string().min(1).max(255),
  created: UnixSeconds,
  data: z.object({ object: z.record(z.unknown()) }),
});

// price is an object on subscription items and old invoice lines, a string id inside
// pricing.price_details, and either when expanded.
const StripePriceRef = z
  .union([Id, z.object({ id: Id })])
  .transform((price) => (typeof price === "string" ? price : price.id));

const StripeSubscription = z.object({
  status: z.string().min(1).max(64),
  metadata: loose(TenantMetadata),
  current_period_end: loose(UnixSeconds), // before API 2025-03-31
  items: loose(
    z.object({
      data: z.array(
        z.object({
          price: loose(StripePriceRef),
          current_period_end: loose(UnixSeconds), // from API 2025-03-31
        }),
      ),
    }),
  ),
});

const StripeSubscriptionDetails = z.object({ metadata: loose(TenantMetadata) });

const StripeInvoice = z.object({
  metadata: loose(TenantMetadata),
  subscription_details: loose(StripeSubscriptionDetails), // before API 2025-03-31
  parent: loose(z.object({ subscription_details: loose(StripeSubscriptionDetails) })), // after
  lines: loose(
    z.object({
      data: z.array(
        z.object({
          price: loose(StripePriceRef), // before API 2025-03-31
          pricing: loose(z.object({ price_details: loose(z.object({ price: loose(StripePriceRef) })) })),
          period: loose(z.object({ end: loose(UnixSeconds) })),
        }),
      ),
    }),
  ),
});

const StripeCheckoutSession = z.object({
  mode: loose(z.string()),
  client_reference_id: loose(z.string()),
  metadata: loose(TenantMetadata),
});

const STRIPE_SUBSCRIPTION_TYPES = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);
const STRIPE_INVOICE_PAID_TYPES = new Set(["invoice.paid", "invoice.payment_succeeded"]);
const STRIPE_PAYMENT_FAILED_TYPES = new Set(["invoice.payment_failed"]);

type Facts = Pick<NormalisedEvent, "kind" | "tenantId" | "priceId" | "subscriptionStatus" | "currentPeriodEnd">;
const OTHER: Facts = { kind: "other", tenantId: null, priceId: null, subscriptionStatus: null, currentPeriodEnd: null };

function stripeFacts(type: string, object: Record<string, unknown>): Facts | string {
  if (STRIPE_SUBSCRIPTION_TYPES.has(type)) {
    const parsed = StripeSubscription.safeParse(object);
    if (!parsed.success) return "subscription event without a status";
    const sub = parsed.data;
    const item = sub.items?.data[0];
    return {
      kind: "subscription",
      tenantId: firstTenantId(sub.metadata?.tenant_id),
      priceId: item?.price ?? null,
      // Deleted means ended, whatever status the final object shows.
      subscriptionStatus: type === "customer.subscription.deleted" ? "canceled" : sub.status,
      currentPeriodEnd: unixToDate(sub.current_period_end ?? item?.current_period_end),
    };
  }

  const invoiceKind = STRIPE_INVOICE_PAID_TYPES.has(type)
    ? "invoice_paid"
    : STRIPE_PAYMENT_FAILED_TYPES.has(type)
      ? "payment_failed"
      : null;
  if (invoiceKind) {
    const parsed = StripeInvoice.safeParse(object);
    if (!parsed.success) return "invoice event of an unexpected shape";
    const invoice = parsed.data;
    const line = invoice.lines?.data[0];
    return {
      kind: invoiceKind,
      tenantId: firstTenantId(
        invoice.metadata?.tenant_id,
        invoice.subscription_details?.metadata?.tenant_id,
        invoice.parent?.subscription_details?.metadata?.tenant_id,
      ),
      priceId: line?.price ?? line?.pricing?.price_details?.price ?? null,
      subscriptionStatus: invoiceKind === "invoice_paid" ? "active" : "past_due",
      currentPeriodEnd: unixToDate(line?.period?.end),
    };
  }

  if (type === "checkout.session.completed") {
    const parsed = StripeCheckoutSession.safeParse(object);
    if (!parsed.success) return "checkout session of an unexpected shape";
    const session = parsed.data;
    const tenantId = firstTenantId(session.client_reference_id, session.metadata?.tenant_id);
    // A session does not carry its line items unless expanded, so no price or period here;
    // the customer.subscription.created event that follows brings them.
    if (session.mode === "subscription") {
      return { ...OTHER, kind: "subscription", tenantId, subscriptionStatus: "active" };
    }
    return { ...OTHER, tenantId };
  }

  return OTHER;
}

function normaliseStripe(payload: unknown): NormaliseResult {
  const envelope = StripeEnvelope.safeParse(payload);
  if (!envelope.success) return { ok: false, reason: "not a Stripe event (id, type, created, data.object)" };
  const { id, type, created, data } = envelope.data;
  const identity = { eventId: id, type, occurredAt: new Date(created * 1000) };
  const facts = stripeFacts(type, data.object);
  if (typeof facts === "string") return { ok: false, reason: facts, envelope: identity };
  return { ok: true, event: { ...identity, ...facts } };
}

// ---------------------------------------------------------------------------------------
// Paddle Billing (https://developer.paddle.com/webhooks/overview)

const PaddleEnvelope = z.object({
  event_id: Id,
  event_type: z.string().min(1).max(255),
  occurred_at: IsoDateTime,
  data: z.record(z.unknown()),
});

const PaddleItems = z.array(
  z.object({
    price: loose(z.object({ id: loose(Id) })),
    price_id: loose(Id), // older transaction payloads
  }),
);

const PaddleSubscription = z.object({
  status: z.string().min(1).max(64),
  custom_data: loose(TenantMetadata),
  items: loose(PaddleItems),
  current_billing_period: loose(z.object({ ends_at: loose(IsoDateTime) })),
});

const PaddleTransaction = z.object({
  custom_data: loose(TenantMetadata),
  items: loose(PaddleItems),
  billing_period: loose(z.object({ ends_at: loose(IsoDateTime) })),
});

const PADDLE_SUBSCRIPTION_TYPES = new Set([
  "subscription.created",
  "subscription.updated",
  "subscription.activated",
  "subscription.canceled",
  "subscription.past_due",
  "subscription.paused",
  "subscription.resumed",
]);
const PADDLE_PAID_TYPES = new Set(["transaction.completed", "transaction.paid"]);
const PADDLE_FAILED_TYPES = new Set(["transaction.payment_failed"]);

function paddleFacts(type: string, data: Record<string, unknown>): Facts | string {
  if (PADDLE_SUBSCRIPTION_TYPES.has(type)) {
    const parsed = PaddleSubscription.safeParse(data);
    if (!parsed.success) return "subscription event without a status";
    const sub = parsed.data;
    const item = sub.items?.[0];
    return {
      kind: "subscription",
      tenantId: firstTenantId(sub.custom_data?.tenant_id),
      priceId: item?.price?.id ?? item?.price_id ?? null,
      subscriptionStatus: sub.status,
      currentPeriodEnd: sub.current_billing_period?.ends_at ?? null,
    };
  }

  const kind = PADDLE_PAID_TYPES.has(type) ? "invoice_paid" : PADDLE_FAILED_TYPES.has(type) ? "payment_failed" : null;
  if (kind) {
    const parsed = PaddleTransaction.safeParse(data);
    if (!parsed.success) return "transaction event of an unexpected shape";
    const txn = parsed.data;
    const item = txn.items?.[0];
    return {
      kind,
      tenantId: firstTenantId(txn.custom_data?.tenant_id),
      priceId: item?.price?.id ?? item?.price_id ?? null,
      subscriptionStatus: kind === "invoice_paid" ? "active" : "past_due",
      currentPeriodEnd: txn.billing_period?.ends_at ?? null,
    };
  }

  return OTHER;
}

function normalisePaddle(payload: unknown): NormaliseResult {
  const envelope = PaddleEnvelope.safeParse(payload);
  if (!envelope.success) {
    return { ok: false, reason: "not a Paddle Billing event (event_id, event_type, occurred_at, data)" };
  }
  const { event_id, event_type, occurred_at, data } = envelope.data;
  const identity = { eventId: event_id, type: event_type, occurredAt: occurred_at };
  const facts = paddleFacts(event_type, data);
  if (typeof facts === "string") return { ok: false, reason: facts, envelope: identity };
  return { ok: true, event: { ...identity, ...facts } };
}

// ---------------------------------------------------------------------------------------

export function normaliseEvent(provider: BillingProvider, payload: unknown): NormaliseResult {
  try {
    if (provider === "stripe") return normaliseStripe(payload);
    if (provider === "paddle") return normalisePaddle(payload);
    return { ok: false, reason: "unknown billing provider" };
  } catch {
    // zod does not throw on safeParse, but a hostile payload (getters, proxies) must
    // still end as a refusal, not a 500.
    return { ok: false, reason: "event could not be read" };
  }
}
