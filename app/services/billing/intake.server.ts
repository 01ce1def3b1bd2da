// The billing webhook intake: verify, read, store once, apply once.
// The route reads the body under its limit and checks the provider is configured; this
// takes the raw bytes and the signature header, never the Request.

import { rows } from "../../../db/index";
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
 * Store the event once, then fold the tenant's state (docs/decisions/450). The claim is one
 * statement (db/functions/billing_events_claim.sql): the row with the unique key (a repeat, even
 * one racing the first delivery, finds the key taken and changes nothing) and the facts the
 * event brings; it only reads the tenant row (is the tenant known, is the event strictly older
 * than the state). After its commit, db/functions/billing_tenant_fold.sql folds the tenant's
 * processed events onto its row: newest provider time wins, a fold that finds the state current
 * neither locks nor writes, and racing folds re-check their condition against the newest row,
 * so events of one tenant do not queue on its row and an older one never overwrites a newer.
 * A repeat folds too, forward only: a delivery whose fold failed (answered 500) is retried.
 *
 * Everything about the effect but the tenant's clock is decided before the database is touched.
 */
async function store(
  provider: BillingProvider,
  event: EventEnvelope,
  tenantId: string | null,
  payloadText: string,
  decide: (tenant: TenantBillingClock) => Outcome,
): Promise<IntakeResult> {
  // As if the tenant existed and had applied nothing yet: what remains is the clock.
  const tentative = decide(tenantId ? { billingEventAt: null } : null);
  const changes = tentative.status === "processed" ? tentative.changes : null;
  // Each a single statement (its own transaction): the functions read the tenant by the
  // verified event's own id, so an id that names no tenant simply finds no row.
  const [claimed] = await rows<{ status: IntakeStatus }>(
    `SELECT billing_events_claim($1, $2, $3, $4, $5, $6::uuid, $7, $8, $9, $10, $11, $12, $13) AS status`,
    [
      // The raw body as text (any valid JSON, `\u0000` included); the ids cannot hold NUL in text.
      provider,
      noNul(event.eventId),
      noNul(event.type),
      tentative.status,
      tentative.status === "ignored" ? tentative.reason : null,
      tenantId,
      event.occurredAt,
      payloadText,
      changes?.plan ?? null,
      changes?.subscriptionStatus ?? null,
      changes?.currentPeriodEnd ?? null,
      tenantId ? REASONS.unknownTenant(tenantId) : null,
      REASONS.older,
    ],
  );
  const status = claimed!.status;
  if (tenantId && (status === "processed" || status === "duplicate")) {
    await rows(`SELECT billing_tenant_fold($1::uuid, $2)`, [tenantId, status === "duplicate"]);
  }
  log.info("billing event", { provider, eventId: event.eventId, type: event.type, status });
  return { eventId: event.eventId, type: event.type, status };
}
