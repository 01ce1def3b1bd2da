import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";

/** A Fetch API Request from a node request; the body stays a stream (read under limits by routes). */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    // Headers the server sets itself are never taken from the client.
    if (/^x-(request-id|client-ip)$/i.test(name)) continue;
    headers.append(name, req.rawHeaders[i + 1]);
  }
  for (const name of ["x-request-id", "x-client-ip"]) {
    const v = req.headers[name];
    if (typeof v === "string") headers.set(name, v);
  }
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", origin), init);
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
  // Answered before the request body was read (a 413, 415 or 403 refuses it unread): close the
  // connection, or the unread bytes would be taken as the client's next request on it.
  if (!res.req.complete) out["connection"] = "close";
  res.writeHead(response.status, response.statusText || undefined, out);
  if (response.body && res.req.method !== "HEAD") {
    await writeReadableStreamToWritable(response.body, res);
  } else {
    res.end();
  }
}
