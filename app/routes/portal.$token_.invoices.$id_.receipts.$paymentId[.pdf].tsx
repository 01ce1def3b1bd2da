import type { LoaderFunctionArgs } from "@remix-run/node";
import { portalPdf } from "~/http/portal-pdf.server";
import { receiptPdfIn } from "~/services/documents/documents-pdf.server";

// GET /portal/<token>/invoices/<id>/receipts/<paymentId>.pdf: the receipt of one payment.
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  portalPdf(
    request,
    params.token ?? "",
    (scope, t) => receiptPdfIn(t, scope, params.id ?? "", params.paymentId ?? ""),
    "Receipt",
  );
