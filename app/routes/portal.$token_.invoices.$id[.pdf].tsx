import type { LoaderFunctionArgs } from "@remix-run/node";
import { portalPdf } from "~/http/portal-pdf.server";
import { invoicePdfIn } from "~/services/documents/documents-pdf.server";

// GET /portal/<token>/invoices/<id>.pdf: an invoice of the token's customer.
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  portalPdf(request, params.token ?? "", (scope, t) => invoicePdfIn(t, scope, params.id ?? ""), "Invoice");
