import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfDownload } from "~/http/pdf.server";
import { invoicePdf } from "~/services/documents/documents-pdf.server";
import { actorOf } from "~/http/auth.server";
import { requireAllRecords } from "~/http/records-access.server";

// GET /invoices/<id>.pdf: lines, taxes, totals, payments and balance.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return pdfDownload(
    request,
    async () => {
      const { number, pdf } = await invoicePdf(actorOf(user), params.id ?? "");
      return { filename: `Invoice ${number}.pdf`, pdf };
    },
    { back: { href: "/invoices", label: "Back to Invoices" } },
  );
}
