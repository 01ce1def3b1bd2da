import { toAppError } from "./envelope.server";
import { messagePage } from "./message-page.server";

/**
 * A stored job photo as an image response (GET /jobs/<id>/photos/<photoId>), or a small page
 * saying why not (404 for another tenant's or another technician's). A photo never changes
 * under its id (the upload refuses other bytes), so the browser keeps it: private (it is behind
 * the sign-in), a year, immutable, with its digest as the ETag. The company logo is served the
 * same way, public (GET /logos/<tenant>/<id>: a new logo gets a new id).
 */
export async function photoResponse(
  request: Request,
  load: () => Promise<{ contentType: string; bytes: Buffer; sha256: string }>,
  back: { href: string; label: string },
  o: { cache?: "private" | "public"; noun?: string } = {},
): Promise<Response> {
  try {
    const photo = await load();
    const etag = `"${photo.sha256}"`;
    const headers = {
      "Content-Type": photo.contentType,
      "Cache-Control": `${o.cache ?? "private"}, max-age=31536000, immutable`,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    };
    if ((request.headers.get("if-none-match") ?? "").split(/\s*,\s*/).includes(etag))
      return new Response(null, { status: 304, headers });
    return new Response(new Uint8Array(photo.bytes), {
      headers: { ...headers, "Content-Length": String(photo.bytes.length) },
    });
  } catch (error) {
    if (error instanceof Response) throw error; // a sign-in redirect or the 403 page
    const e = toAppError(error, request);
    return messagePage(
      e.status,
      e.status === 404
        ? `${o.noun ?? "Photo"} not found`
        : `The ${(o.noun ?? "photo").toLowerCase()} could not be shown`,
      e.message,
      back,
    );
  }
}
