import { randomBytes } from "node:crypto";

// Nonces are cut from a pooled block of random bytes (as crypto.randomUUID does): one
// system call per 256 requests rather than one each.
const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** 128 random bits, base64: a fresh CSP nonce for each response. */
export function newNonce(): string {
  if (offset >= pool.length) {
    pool = randomBytes(16 * POOL_NONCES);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + 16);
  offset += 16;
  return nonce;
}

// The policy but its nonce is the same for every response: joined once.
const CSP_BEFORE_NONCE = "default-src 'self'; script-src 'self' 'nonce-";
const CSP_AFTER_NONCE = "'; " + [
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Headers on every response. Scripts run only with this request's nonce (no inline
 * script without it); styles come from our stylesheet, plus style attributes for widths.
 */
export function securityHeaders(nonce: string, production: boolean): Record<string, string> {
  const csp = CSP_BEFORE_NONCE + nonce + CSP_AFTER_NONCE;
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (production) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
