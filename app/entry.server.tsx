import { Writable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";
import { startCleanupSchedule } from "~/services/maintenance/cleanup.server";
import { startMessageWorker } from "~/services/messages/worker.server";
import { startReminderSchedule } from "~/services/messages/reminders.server";
import { requestIdOf } from "~/http/envelope.server";
import { newNonce, withAppHeaders } from "~/http/security-headers.server";
import { log } from "~/utils/log.server";
import { withoutNulBytes } from "~/http/page-bytes.server";

const ABORT_DELAY = 5_000;

// Each app server ticks the cleanup; the database makes it run once per interval (decision 102).
startCleanupSchedule();
// Each app server delivers the e-mail outbox when SMTP_URL is set (decision 141).
startMessageWorker();
startReminderSchedule();

/**
 * Every page gets a fresh CSP nonce (its scripts carry it), the security headers and the
 * request id (the client's own `X-Request-Id` when well-formed).
 *
 * Renders the whole page, then answers it in one piece with its length. No route defers
 * data, so streaming the shell first would gain nothing, and React's many small chunks
 * would each cost a socket write (a tenth of a page's CPU under load, measured).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = newNonce();
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        const body = withoutNulBytes(Buffer.concat(chunks));
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // With its length the page goes out in one write (no chunked encoding): decision 114.
        responseHeaders.set("Content-Length", String(body.byteLength));
        resolve(
          withAppHeaders(request, new Response(body, { headers: responseHeaders, status: responseStatusCode }), nonce),
        );
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          clearTimeout(timer);
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          log.error("render failed", { error });
        },
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

/** A page's data request (client-side navigation, `?_data=`): the same headers as the page. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) =>
  withAppHeaders(request, response);

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log.error("route error", { requestId: requestIdOf(request), error });
}
