import { randomBytes } from "node:crypto";
import { env } from "~/utils/env.server";
import { hasSessionCookie, PRIVATE_NO_STORE, requestIdOf } from "./envelope.server";

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
// The page's own stylesheets come inline on its first answer, with the same nonce.
const CSP_STYLE_NONCE = "'; style-src 'self' 'nonce-";
const CSP_AFTER_NONCE =
  "'; " +
  [
    "style-src-attr 'unsafe-inline'",
    // blob: the field page's queued photos, shown from the device before they are uploaded.
    "img-src 'self' data: blob:",
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
 * script without it); styles come from our stylesheets (inline with the nonce on a page's first
 * answer), plus style attributes for widths.
 */
export function securityHeaders(nonce: string, production: boolean, devSocket?: string): Record<string, string> {
  let csp = CSP_BEFORE_NONCE + nonce + CSP_STYLE_NONCE + nonce + CSP_AFTER_NONCE;
  // `npm run dev`: the page's live-reload script opens a WebSocket to the dev server.
  if (devSocket) csp = csp.replace("connect-src 'self'", `connect-src 'self' ${devSocket}`);
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

/**
 * The request id and the security headers on a response (entry.server for pages and data
 * requests, the route boundary for everything a loader or action answers). A page passes its
 * nonce; other answers get a fresh one (they run no inline script).
 */
export function withAppHeaders(request: Request, response: Response, nonce: string = newNonce()): Response {
  let headers = response.headers;
  const set = (h: Headers) => {
    h.set("X-Request-Id", requestIdOf(request));
    // A route's own header wins (the portal's Referrer-Policy: no-referrer).
    const config = env();
    const devSocket =
      config.NODE_ENV === "development" && config.REMIX_DEV_ORIGIN
        ? config.REMIX_DEV_ORIGIN.replace(/^http/, "ws")
        : undefined;
    for (const [name, value] of Object.entries(securityHeaders(nonce, config.NODE_ENV === "production", devSocket)))
      if (!h.has(name)) h.set(name, value);
    if (!h.has("Cache-Control") && hasSessionCookie(request)) h.set("Cache-Control", PRIVATE_NO_STORE);
  };
  try {
    set(headers);
    return response;
  } catch {
    // Immutable headers (a Response from fetch): copy.
    headers = new Headers(headers);
    set(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
