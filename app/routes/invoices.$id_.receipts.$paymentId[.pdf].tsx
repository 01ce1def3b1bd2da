import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfDownload } from "~/http/pdf.server";
import { receiptPdf } from "~/services/documents/documents-pdf.server";
import { actorOf } from "~/http/auth.server";
import { requireAllRecords } from "~/http/records-access.server";

// GET /invoices/<id>/receipts/<paymentId>.pdf: the receipt of one payment.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return pdfDownload(
    request,
    async () => {
      const { number, pdf } = await receiptPdf(actorOf(user), params.id ?? "", params.paymentId ?? "");
      return { filename: `Receipt ${number}.pdf`, pdf };
    },
    { back: { href: `/invoices/${params.id}`, label: "Back to the invoice" } },
  );
}
