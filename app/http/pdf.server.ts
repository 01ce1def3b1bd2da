import { toAppError } from "./envelope.server";
import { messagePage } from "./message-page.server";

// The boundary of the PDF downloads: a document as `application/pdf`, or
// a small page saying why not (404 for another tenant's or customer's id, 403, 410 for an old
// portal link), never Remix's default text.

export async function pdfDownload(
  request: Request,
  make: () => Promise<{ filename: string; pdf: Buffer }>,
  opts: { headers?: Record<string, string>; back?: { href: string; label: string } } = {},
): Promise<Response> {
  try {
    const { filename, pdf } = await make();
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(pdf.length),
        // inline: the browser shows it, and its own Save keeps the name.
        "Content-Disposition": `inline; filename="${filename.replace(/[^\w. -]/g, "_")}"`,
        "Cache-Control": "private, no-store",
        ...opts.headers,
      },
    });
  } catch (error) {
    if (error instanceof Response) throw error; // a sign-in redirect or the 403 page
    const e = toAppError(error, request);
    const title =
      e.status === 404
        ? "Document not found"
        : e.status === 410
          ? "This link no longer works"
          : "The document could not be made";
    const page = messagePage(e.status, title, e.message, opts.back);
    for (const [k, v] of Object.entries({ ...opts.headers, ...e.headers })) page.headers.set(k, v);
    return page;
  }
}
