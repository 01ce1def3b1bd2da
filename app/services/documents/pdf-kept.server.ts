// Drawn PDFs kept per process by what they show
// (docs/decisions/491-invoice-pdf-drawn-once-per-content.md). A document's PDF is a function of
// the data handed to the drawing (the business, the customer, the lines, the totals, the
// payments, the logo and signature bytes) and of the tenant: the key is a hash of exactly
// that, so any change to what the page would show (a payment, an edited line, a new logo, a
// status that became overdue overnight) is a new key, and nothing is ever served that the
// drawing would not draw now. The same invoice downloaded again by the office, the customer's
// portal or a calendar of reminders is drawn once.
import { createHash } from "node:crypto";
import { KeptBySize } from "~/utils/kept-by-size";
import type { PdfDocument } from "./pdf-layout.server";

/** The bytes kept at most per process (least recently used out first). */
export const PDF_BYTES_KEPT = 32 * 1024 * 1024;

declare global {
  var __keptPdfs: KeptBySize<Buffer> | undefined;
}
const kept = () => (globalThis.__keptPdfs ??= new KeptBySize<Buffer>(PDF_BYTES_KEPT, (pdf) => pdf.length));

/** The hash of everything the drawing reads: the tenant, the document's data, its image bytes. */
export function pdfKey(tenantId: string, doc: PdfDocument): string {
  const { logo, signature, ...rest } = doc;
  const h = createHash("sha256");
  h.update(`${tenantId}\u0000${JSON.stringify(rest)}\u0000`);
  h.update(logo ? `logo ${logo.length}\u0000` : "no logo\u0000");
  if (logo) h.update(logo);
  h.update(`${JSON.stringify(signature ? { ...signature, image: signature.image?.length ?? null } : null)}\u0000`);
  if (signature?.image) h.update(signature.image);
  return h.digest("base64url");
}

/** The kept PDF for this content, or `draw()`'s, kept for the next request. */
export async function keptPdf(tenantId: string, doc: PdfDocument, draw: () => Promise<Buffer>): Promise<Buffer> {
  const key = pdfKey(tenantId, doc);
  return kept().get(key) ?? kept().keep(key, await draw());
}

/** How many PDFs this process drew and how many it served again (the health check's figures). */
export const keptPdfFigures = () => {
  const k = kept();
  return { kept: k.count, bytes: k.size, drawn: k.made, reused: k.reused };
};
