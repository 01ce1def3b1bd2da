import type { IncomingMessage } from "node:http";

export type OriginVerdict = "same" | "cross";

/**
 * Checks a state-changing request's Origin before Remix sees it. Remix aborts any document
 * POST whose Origin differs from Host with a 500 (its own CSRF guard); we answer a real
 * cross-site request with 403 instead, and when the Origin is our public APP_URL behind a
 * proxy that rewrote Host, we tell Remix the public host. A client's own X-Forwarded-Host
 * is never trusted.
 */
export function checkOrigin(req: IncomingMessage, appOrigin: string): OriginVerdict {
  delete req.headers["x-forwarded-host"];
  // Portal forms and billing webhooks authenticate by token or signature, not by origin; a
  // portal page sends Referrer-Policy: no-referrer, which makes browsers post `Origin: null`.
  if (/^\/api\/(portal|billing)\//.test(req.url ?? "")) {
    delete req.headers.origin;
    return "same";
  }
  const method = req.method ?? "GET";
  const origin = req.headers.origin;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || origin === undefined || origin === "") return "same";
  if (origin === "null") return "cross";
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "cross";
  }
  if (originHost === req.headers.host) return "same";
  if (origin === appOrigin) {
    req.headers["x-forwarded-host"] = originHost;
    return "same";
  }
  return "cross";
}

/** Routes that answer the JSON envelope (the rest answer pages). */
export const isJsonRoute = (url: string) => /^\/(api\/(?!portal\/)|ai-assistant\/generate\b)/.test(url);

export const CROSS_SITE_MESSAGE = "Cross-site requests are not accepted.";

export function crossSitePage(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Request refused</title></head>` +
    `<body><main><h1>Request refused</h1><p>${CROSS_SITE_MESSAGE} Go back to the page and try again.</p></main></body></html>`;
}
