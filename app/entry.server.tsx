import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";
import { requestIdOf } from "~/http/envelope.server";
import { newNonce, withAppHeaders } from "~/http/security-headers.server";
import { log } from "~/utils/log.server";

/**
 * Every page gets a fresh CSP nonce (its scripts carry it), the security headers and the
 * request id (the client's own `X-Request-Id` when well-formed).
 *
 * Renders the whole page to a string and answers it in one piece with its length: no route
 * defers data, so there is nothing to stream (docs/decisions/267).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = newNonce();
  const body = Buffer.from(
    "<!DOCTYPE html>" +
      renderToString(
        <NonceProvider value={nonce}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </NonceProvider>,
      ),
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // With its length the page goes out in one write (no chunked encoding): decision 114.
  responseHeaders.set("Content-Length", String(body.byteLength));
  return withAppHeaders(request, new Response(body, { headers: responseHeaders, status: responseStatusCode }), nonce);
}

/** A page's data request (client-side navigation, `?_data=`): the same headers as the page. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) =>
  withAppHeaders(request, response);

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log.error("route error", { requestId: requestIdOf(request), error });
}
