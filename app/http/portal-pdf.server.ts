import { withPortal } from "~/services/portal/access.server";
import type { Tx } from "../../db/index";
import { clientIp } from "~/http/auth.server";
import { PORTAL_HEADERS } from "~/utils/route-headers";
import { pdfDownload } from "./pdf.server";

/**
 * A PDF from the customer portal: only documents of the token's customer (never drafts), with
 * the portal's headers; forged, expired and revoked tokens answer as the hub does (404 / 410,
 * counted against the IP).
 */
export function portalPdf(
  request: Request,
  token: string,
  make: (scope: { tenantId: string; customerId: string }, t: Tx) => Promise<{ number: string; pdf: Buffer }>,
  kind: string,
) {
  return pdfDownload(
    request,
    () =>
      withPortal(token, clientIp(request), async (portal, t) => {
        const { number, pdf } = await make({ tenantId: portal.tenantId, customerId: portal.customerId }, t);
        return { filename: `${kind} ${number}.pdf`, pdf };
      }),
    { headers: { ...PORTAL_HEADERS }, back: { href: `/portal/${token}`, label: "Back to your documents" } },
  );
}
