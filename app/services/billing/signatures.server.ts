// Billing webhook signature checks. Pure functions: the caller passes
// the raw body bytes, the header value, the secrets and the clock, so tests need no server.
//
// Both providers sign "<timestamp><sep><raw body>" with HMAC-SHA256 and send hex digests:
//   Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>...]     signed "<t>.<body>"
//   Paddle-Signature: ts=<unix>;h1=<hex>[;h1=<hex>...]    signed "<ts>:<body>"
// Several digests appear while the provider rotates its secret; any one may match.
// We also hold a list of secrets (our side of a rotation); any one may match.

import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureResult = { ok: true; timestamp: number } | { ok: false; reason: string };

export const DEFAULT_TOLERANCE_SECONDS = 300;

// Real headers are about 100 characters (a few hundred during a rotation). The cap bounds
// the work an unauthenticated caller can make us do.
const MAX_HEADER_LENGTH = 4096;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const DIGITS = /^[0-9]{1,15}$/;

type Scheme = {
  name: string;
  separator: string; // between header entries
  timestampKey: string;
  signatureKey: string; // other schemes (Stripe's v0 test digest, future h2...) are ignored
  joiner: string; // between timestamp and body in the signed message
};

const STRIPE: Scheme = { name: "Stripe", separator: ",", timestampKey: "t", signatureKey: "v1", joiner: "." };
const PADDLE: Scheme = { name: "Paddle", separator: ";", timestampKey: "ts", signatureKey: "h1", joiner: ":" };

type ParsedHeader = { timestampText: string; timestamp: number; digests: Buffer[] };

function parseHeader(header: string, scheme: Scheme): ParsedHeader | string {
  let timestampText: string | null = null;
  let sawSignatureKey = false;
  const digests: Buffer[] = [];
  for (const rawPart of header.split(scheme.separator)) {
    const part = rawPart.trim();
    if (part === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0) return "malformed signature header";
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === scheme.timestampKey) {
      // Two timestamps would make the signed message ambiguous.
      if (timestampText !== null) return "malformed signature header: repeated timestamp";
      timestampText = value;
    } else if (key === scheme.signatureKey) {
      sawSignatureKey = true;
      // A digest of the wrong shape cannot match; skip it so a later good one still can.
      if (HEX_SHA256.test(value)) digests.push(Buffer.from(value, "hex"));
    }
  }
  if (timestampText === null) return "malformed signature header: no timestamp";
  if (!DIGITS.test(timestampText)) return "malformed signature header: timestamp is not a number";
  const timestamp = Number(timestampText);
  if (!Number.isSafeInteger(timestamp)) return "malformed signature header: timestamp is not a number";
  if (!sawSignatureKey) return `no ${scheme.signatureKey} signature in header`;
  if (digests.length === 0) return `no well-formed ${scheme.signatureKey} signature in header`;
  return { timestampText, timestamp, digests };
}

function verify(
  scheme: Scheme,
  rawBody: Buffer | Uint8Array,
  header: string | null,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureResult {
  if (header === null || header === undefined || header === "") {
    return { ok: false, reason: `missing ${scheme.name}-Signature header` };
  }
  if (typeof header !== "string") return { ok: false, reason: "malformed signature header" };
  if (header.length > MAX_HEADER_LENGTH) return { ok: false, reason: "signature header too long" };
  if (!(rawBody instanceof Uint8Array)) return { ok: false, reason: "body is not raw bytes" };
  const usableSecrets = Array.isArray(secrets)
    ? secrets.filter((s): s is string => typeof s === "string" && s.length > 0)
    : [];
  if (usableSecrets.length === 0) return { ok: false, reason: "no webhook secret configured" };
  if (!Number.isFinite(nowSeconds) || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    return { ok: false, reason: "invalid clock or tolerance" };
  }

  const parsed = parseHeader(header, scheme);
  if (typeof parsed === "string") return { ok: false, reason: parsed };

  // Sign the timestamp exactly as it appears in the header, then the body bytes untouched:
  // any re-encoding of the body (JSON.parse + stringify, charset conversion) breaks it.
  let matched = false;
  for (const secret of usableSecrets) {
    const expected = createHmac("sha256", secret)
      .update(parsed.timestampText + scheme.joiner, "utf8")
      .update(rawBody)
      .digest();
    for (const digest of parsed.digests) {
      // Lengths are equal (both 32 bytes) by construction; checked again because
      // timingSafeEqual throws on a mismatch. No early exit: every pair is compared.
      if (digest.length === expected.length && timingSafeEqual(digest, expected)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: "no signature matches" };

  // Both directions: a timestamp from the future is as suspect as a stale one
  // (stripe-node only rejects old ones; Paddle's SDK allows 5 s; we follow the contract).
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: "timestamp outside tolerance" };
  }
  return { ok: true, timestamp: parsed.timestamp };
}

function safely(run: () => SignatureResult): SignatureResult {
  try {
    return run();
  } catch {
    // Never let a hostile header turn into a 500: the contract wants 400 SIGNATURE_INVALID.
    return { ok: false, reason: "signature could not be checked" };
  }
}

export function verifyStripeSignature(
  rawBody: Buffer | Uint8Array,
  header: string | null,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): SignatureResult {
  return safely(() => verify(STRIPE, rawBody, header, secrets, nowSeconds, toleranceSeconds));
}

export function verifyPaddleSignature(
  rawBody: Buffer | Uint8Array,
  header: string | null,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): SignatureResult {
  return safely(() => verify(PADDLE, rawBody, header, secrets, nowSeconds, toleranceSeconds));
}

// Header builders, for tests and local tooling that need to sign a payload the way the
// providers do (Paddle's SDK has no signer; Stripe's is generateTestHeaderString).
function sign(scheme: Scheme, rawBody: string | Uint8Array, secret: string, timestamp: number): string {
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  const ts = String(Math.floor(timestamp));
  const digest = createHmac("sha256", secret)
    .update(ts + scheme.joiner, "utf8")
    .update(body)
    .digest("hex");
  return `${scheme.timestampKey}=${ts}${scheme.separator}${scheme.signatureKey}=${digest}`;
}

export function stripeSignatureHeader(rawBody: string | Uint8Array, secret: string, timestamp: number): string {
  return sign(STRIPE, rawBody, secret, timestamp);
}

export function paddleSignatureHeader(rawBody: string | Uint8Array, secret: string, timestamp: number): string {
  return sign(PADDLE, rawBody, secret, timestamp);
}
