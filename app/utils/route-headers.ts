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
