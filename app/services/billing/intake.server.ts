// The billing webhook intake (CONTRACT section 8): verify, read, store once, apply once.
// The route reads the body under its limit and checks the provider is configured; this
// takes the raw bytes and the signature header, never the Request.

import { inSystem, inTenant, one, rows, type Tx } from "../../../db/index";
import { AppError } from "~/utils/app-error";
import { log } from "~/utils/log.server";
import type { BillingProvider } from "./config.server";
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
  if (!normalised.envelope) throw new AppError("BAD_REQUEST", `The body is not a ${provider} event: ${normalised.reason}.`);
  // An identifiable event whose object we cannot read: kept, with the reason, rather than
  // refused, which would only make the provider retry it for days.
  const reason = REASONS.unreadable(normalised.reason);
  return store(provider, normalised.envelope, null, text, () => ({ status: "ignored", reason }));
}

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
 * One transaction: claim (provider, event id) with the unique key, then apply the effect.
 * A repeat, even one racing the first delivery, finds the key taken (it waits for the first
 * transaction to commit) and changes nothing.
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
  const status = await scoped(async (t): Promise<IntakeStatus> => {
    const claimed = await rows(
      `INSERT INTO billing_events (provider, event_id, type, status, tenant_id, occurred_at, payload)
       VALUES ($1, $2, $3, 'processed', (SELECT id FROM tenants WHERE id = $4::uuid), $5, $6::jsonb)
       ON CONFLICT (provider, event_id) DO NOTHING
       RETURNING event_id`,
      [provider, event.eventId, event.type, tenantId, event.occurredAt, payloadText],
      t,
    );
    if (claimed.length === 0) return "duplicate";

    const outcome = decide(tenantId ? await lockTenant(tenantId, t) : null);
    if (outcome.status === "processed") {
      await rows(
        `UPDATE tenants SET plan = coalesce($2, plan), subscription_status = coalesce($3, subscription_status),
                current_period_end = coalesce($4, current_period_end), billing_provider = $5,
                billing_event_at = $6, updated_at = now()
          WHERE id = $1`,
        [tenantId, outcome.changes.plan, outcome.changes.subscriptionStatus, outcome.changes.currentPeriodEnd, provider, event.occurredAt],
        t,
      );
    } else {
      await rows(
        `UPDATE billing_events SET status = 'ignored', reason = $3 WHERE provider = $1 AND event_id = $2`,
        [provider, event.eventId, outcome.reason],
        t,
      );
    }
    return outcome.status;
  });
  log.info("billing event", { provider, eventId: event.eventId, type: event.type, status });
  return { eventId: event.eventId, type: event.type, status };
}

/**
 * Serialises the events of one tenant. FOR NO KEY UPDATE, not FOR UPDATE: the insert above
 * already holds a KEY SHARE lock on this row through the tenant_id foreign key, and two
 * intakes each holding KEY SHARE and waiting for FOR UPDATE would deadlock. It also leaves
 * the tenant's other inserts (customers, jobs...), which take KEY SHARE too, unblocked.
 */
async function lockTenant(tenantId: string, t: Tx): Promise<TenantBillingClock> {
  const row = await one<{ billing_event_at: Date | null }>(
    `SELECT billing_event_at FROM tenants WHERE id = $1::uuid FOR NO KEY UPDATE`,
    [tenantId],
    t,
  );
  return row ? { billingEventAt: row.billing_event_at } : null;
}
