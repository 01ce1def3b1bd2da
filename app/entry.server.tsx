import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { KeptMarkupProvider } from "~/components/kept-markup";
import { NonceProvider } from "~/components/nonce";
import { StylesheetTextProvider } from "~/components/page-links";
import { acceptsGzip } from "~/http/accepts-gzip";
import { requestIdOf } from "~/http/envelope.server";
import { lowPriorityScripts } from "~/http/low-priority-scripts";
import { newNonce, withAppHeaders } from "~/http/security-headers.server";
import { stylesheetText } from "~/http/stylesheets.server";
import { keptPage } from "~/services/schedule/kept-markup.server";
import { log } from "~/utils/log.server";

/**
 * Every page gets a fresh CSP nonce (its scripts and inline stylesheets carry it), the
 * security headers and the request id (the client's own `X-Request-Id` when well-formed).
 *
 * Renders the whole page to a string and answers it in one piece with its length: no route
 * defers data, so there is nothing to stream (docs/decisions/267). A page may keep a piece of
 * its markup per content (docs/decisions/465-week-grid-rendered-once-per-content.md): its kept
 * bytes are written into the page's in place of a marker
 * (docs/decisions/476-the-week-board-sends-its-data-short.md); such a page goes out gzipped
 * here, its kept pieces from blocks deflated once
 * (docs/decisions/498-the-week-board-goes-out-gzipped-from-kept-blocks.md). Any other page is
 * left to remix-serve's compression.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = newNonce();
  const page = keptPage(nonce);
  // The preload links are rewritten in the page's own text, not in the kept pieces (whose
  // bytes go out as they are).
  const html =
    "<!DOCTYPE html>" +
    renderToString(
      <NonceProvider value={nonce}>
        <StylesheetTextProvider value={stylesheetText}>
          <KeptMarkupProvider value={page.keep}>
            <RemixServer context={remixContext} url={request.url} nonce={nonce} />
          </KeptMarkupProvider>
        </StylesheetTextProvider>
      </NonceProvider>,
    );
  // compression leaves an answer with a Content-Encoding as it is.
  const gzip = page.kept && acceptsGzip(request.headers.get("Accept-Encoding"));
  const body = gzip ? await page.gzip(html, lowPriorityScripts) : page.bytes(html, lowPriorityScripts);
  if (gzip) {
    responseHeaders.set("Content-Encoding", "gzip");
    responseHeaders.append("Vary", "Accept-Encoding");
  }
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
