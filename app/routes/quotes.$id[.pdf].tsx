import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfDownload } from "~/http/pdf.server";
import { quotePdf } from "~/services/documents/documents-pdf.server";
import { actorOf } from "~/http/auth.server";
import { requireAllRecords } from "~/http/records-access.server";

// GET /quotes/<id>.pdf: the quote as the customer receives it.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  return pdfDownload(
    request,
    async () => {
      const { number, pdf } = await quotePdf(actorOf(user), params.id ?? "");
      return { filename: `Quote ${number}.pdf`, pdf };
    },
    { back: { href: "/quotes", label: "Back to Quotes" } },
  );
}
