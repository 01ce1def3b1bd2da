import type { HeadersFunction } from "@remix-run/node";

const PASSED = ["Retry-After", "Cache-Control", "Referrer-Policy", "X-Robots-Tag", "Allow"];

/**
 * Remix puts only Set-Cookie from loaders and actions on a document response; routes that
 * answer Retry-After, Cache-Control and the like export this as `headers`.
 */
export const passThroughHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders, errorHeaders }) => {
  const out = new Headers();
  for (const source of [loaderHeaders, actionHeaders, errorHeaders]) {
    for (const name of PASSED) {
      const v = source?.get(name);
      if (v) out.set(name, v);
    }
  }
  return out;
};

/** Every customer-portal response: the token in the URL must not leak, be cached or be indexed. */
export const PORTAL_HEADERS = {
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
} as const;

/** `headers` of the portal routes: PORTAL_HEADERS on every page, error pages included. */
export const portalHeaders: HeadersFunction = (args) => {
  const out = new Headers(passThroughHeaders(args) as Headers);
  for (const [name, value] of Object.entries(PORTAL_HEADERS)) out.set(name, value);
  return out;
};
