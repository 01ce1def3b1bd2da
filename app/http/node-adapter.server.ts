import type { IncomingMessage, ServerResponse } from "node:http";
import { writeReadableStreamToWritable } from "@remix-run/node";

const MANAGED = new Set(["x-request-id", "x-client-ip", "x-forwarded-host", "origin"]);

/** A Fetch API Request from a node request; the body stays a stream (read under limits by routes). */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    // Headers the server sets or checks itself come from req.headers, never raw from the client.
    if (MANAGED.has(name.toLowerCase())) continue;
    headers.append(name, req.rawHeaders[i + 1]);
  }
  for (const name of MANAGED) {
    const v = req.headers[name];
    if (typeof v === "string" && v !== "") headers.set(name, v);
  }
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req);
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", origin), init);
}

// After a route stops reading (a body over its limit), at most this much more is read and
// discarded before the connection is cut.
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * The request body as a web stream, paused while the route is not reading. A route that
 * refuses a body part-way cancels it (readBodyLimited, streamBodyLimited): the rest is then
 * read and thrown away instead of the socket being destroyed, as Remix's own adapter does,
 * so a client sending a chunked body still receives the 413 rather than a connection reset.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  const settle = (fn: () => void) => {
    if (settled) return;
    settled = true;
    fn();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => settle(() => controller.close()));
        req.once("error", (error) => settle(() => controller.error(error)));
        req.once("close", () => settle(() => controller.error(new Error("the request was aborted"))));
      },
      pull() {
        req.resume();
      },
      cancel() {
        settled = true;
        let discarded = 0;
        req.on("data", (chunk: Buffer) => {
          discarded += chunk.byteLength;
          if (discarded > DRAIN_LIMIT) req.destroy();
        });
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Reads and throws away the rest of a request answered before its body was read. */
export function drainRequest(req: IncomingMessage) {
  req.removeAllListeners("data");
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}

/** Writes a Fetch API Response to a node response (Set-Cookie kept as separate headers). */
export async function sendFetchResponse(res: ServerResponse, response: Response, extra: Record<string, string>) {
  const out: Record<string, string | string[]> = { ...extra };
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    out[name] = value;
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  // Answered before the request body was read (a 413, 401 or 403 refuses it unread): read
  // and discard the rest, so the client can finish sending and read this answer, and the
  // connection is not left with unread bytes that would stall its next request. Past the
  // drain limit the connection is cut.
  if (!res.req.complete) drainRequest(res.req);
  res.writeHead(response.status, response.statusText || undefined, out);
  if (response.body && res.req.method !== "HEAD") {
    await writeReadableStreamToWritable(response.body, res);
  } else {
    res.end();
  }
}
