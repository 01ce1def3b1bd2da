import type { LoaderFunctionArgs } from "@remix-run/node";
import { portalPdf } from "~/http/portal-pdf.server";
import { quotePdfIn } from "~/services/documents/documents-pdf.server";

// GET /portal/<token>/quotes/<id>.pdf: a quote of the token's customer.
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  portalPdf(request, params.token ?? "", (scope, t) => quotePdfIn(t, scope, params.id ?? ""), "Quote");
