// The billing webhook intake: verify, read, store once, apply once.
// The route reads the body under its limit and checks the provider is configured; this
// takes the raw bytes and the signature header, never the Request.

import { inSystem, inTenant, rows, type Tx } from "../../../db/index";
import { AppError } from "~/utils/app-error";
import { log } from "~/utils/log.server";
import type { BillingProvider } from "../../utils/billing-config";
import { decideEffect, REASONS, type Outcome, type TenantBillingClock } from "./effects.server";
import { normaliseEvent, type EventEnvelope } from "./events.server";
import { verifyPaddleSignature, verifyStripeSignature } from "./signatures.server";

export type IntakeStatus = "processed" | "duplicate" | "ignored";
export type IntakeResult = { eventId: string; type: string; status: IntakeStatus };

export const SIGNATURE_HEADER: Record<BillingProvider, string> = {
  stripe: "Stripe-Signature",
  paddle: "Paddle-Signature",
};

const VERIFY = { stripe: verifyStripeSignature, paddle: verifyPaddleSignature } as const;

export type IntakeInput = {
  provider: BillingProvider;
  secrets: string[];
  pricePlans: Record<string, string>;
  rawBody: Buffer;
  signature: string | null;
  nowSeconds: number;
};

export async function receiveBillingEvent(input: IntakeInput): Promise<IntakeResult> {
  const { provider } = input;
  const verified = VERIFY[provider](input.rawBody, input.signature, input.secrets, input.nowSeconds);
  if (!verified.ok) {
    log.info("billing webhook refused", { provider, reason: verified.reason });
    throw new AppError(
      "SIGNATURE_INVALID",
      `The ${SIGNATURE_HEADER[provider]} header is missing, wrong or outside the 300 s tolerance (${verified.reason}).`,
    );
  }

  const text = decodeUtf8(input.rawBody);
  const payload = parseJson(text);
  const normalised = normaliseEvent(provider, payload);
  if (normalised.ok) {
    const event = normalised.event;
    return store(provider, event, event.tenantId, text, (tenant) => decideEffect(event, input.pricePlans, tenant));
  }
  // Signed but not an event at all: nothing to store it under.
  if (!normalised.envelope)
    throw new AppError("BAD_REQUEST", `The body is not a ${provider} event: ${normalised.reason}.`);
  // An identifiable event whose object we cannot read: kept, with the reason, rather than
  // refused, which would only make the provider retry it for days.
  const reason = REASONS.unreadable(normalised.reason);
  return store(provider, normalised.envelope, null, text, () => ({ status: "ignored", reason }));
}

/** PostgreSQL text holds no U+0000: a NUL inside an id or type becomes U+FFFD. */
const noNul = (s: string) => s.replaceAll("\u0000", "\uFFFD");

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8.");
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
}

/**
 * Claim (provider, event id) with the unique key and apply the effect in ONE statement of
 * one transaction. A repeat, even one racing the first delivery, finds the key taken (its
 * insert waits for the first transaction to commit) and changes nothing.
 *
 * Everything about the effect but the tenant's clock is decided before the database is
 * touched; the clock ("strictly older events are ignored") is the UPDATE's own condition,
 * which PostgreSQL re-checks against the newest row version when two events of one tenant
 * race. So the tenant row is locked for one statement and the commit, not for a
 * read-decide-write exchange: events of one tenant are serialised, and that section is
 * where their throughput is decided.
 */
async function store(
  provider: BillingProvider,
  event: EventEnvelope,
  tenantId: string | null,
  payloadText: string,
  decide: (tenant: TenantBillingClock) => Outcome,
): Promise<IntakeResult> {
  // The verified event names its tenant: work inside that tenant's scope (row-level
  // security), so an id that names no tenant simply finds no row.
  const scoped = <T>(fn: (t: Tx) => Promise<T>) => (tenantId ? inTenant(tenantId, fn) : inSystem(fn));
  // As if the tenant existed and had applied nothing yet: what remains is the clock.
  const tentative = decide(tenantId ? { billingEventAt: null } : null);
  const status = await scoped(async (t): Promise<IntakeStatus> => {
    const [row] = await rows<{ claimed: number; applied: number; tenant_known: boolean }>(
      `WITH claim AS (
         INSERT INTO billing_events (provider, event_id, type, status, reason, tenant_id, occurred_at, payload)
         VALUES ($1, $2, $3, $7, $8, $4::uuid, $5, $6)
         ON CONFLICT (provider, event_id) DO NOTHING
         RETURNING event_id
       ), applied AS (
         UPDATE tenants SET plan = coalesce($9, plan), subscription_status = coalesce($10, subscription_status),
                current_period_end = coalesce($11, current_period_end), billing_provider = $1,
                billing_event_at = $5, updated_at = now()
          WHERE $7 = 'processed' AND id = $4::uuid AND EXISTS (SELECT 1 FROM claim)
            AND (billing_event_at IS NULL OR billing_event_at <= $5)
         RETURNING id
       )
       SELECT (SELECT count(*) FROM claim)::int AS claimed, (SELECT count(*) FROM applied)::int AS applied,
              EXISTS (SELECT 1 FROM tenants WHERE id = $4::uuid) AS tenant_known`,
      [
        // The raw body as text (any valid JSON, `\u0000` included); the ids cannot hold NUL in text.
        provider,
        noNul(event.eventId),
        noNul(event.type),
        tenantId,
        event.occurredAt,
        payloadText,
        tentative.status,
        tentative.status === "ignored" ? tentative.reason : null,
        tentative.status === "processed" ? tentative.changes.plan : null,
        tentative.status === "processed" ? tentative.changes.subscriptionStatus : null,
        tentative.status === "processed" ? tentative.changes.currentPeriodEnd : null,
      ],
      t,
    );
    if (row.claimed === 0) return "duplicate";
    // The row notes its tenant only when the tenant exists. (Stored as given, then cleared on
    // the rare path: Citus refuses a subquery inside INSERT, docs/decisions/228.)
    const unknownTenant = tenantId !== null && !row.tenant_known;
    if (tentative.status === "ignored" || row.applied === 1) {
      if (unknownTenant) {
        await rows(
          `UPDATE billing_events SET tenant_id = NULL WHERE provider = $1 AND event_id = $2`,
          [provider, event.eventId],
          t,
        );
      }
      return tentative.status;
    }
    // Claimed as processed but not applied: the tenant is unknown, or the event is older
    // than the last one applied. The row says so (the rare path: one more statement).
    const reason = row.tenant_known ? REASONS.older : REASONS.unknownTenant(tenantId!);
    await rows(
      `UPDATE billing_events SET status = 'ignored', reason = $3, tenant_id = $4 WHERE provider = $1 AND event_id = $2`,
      [provider, event.eventId, reason, row.tenant_known ? tenantId : null],
      t,
    );
    return "ignored";
  });
  log.info("billing event", { provider, eventId: event.eventId, type: event.type, status });
  return { eventId: event.eventId, type: event.type, status };
}
