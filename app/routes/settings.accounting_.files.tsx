import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagePage } from "~/http/message-page.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import type { RouteRules } from "~/http/route-rules";
import { parseDownload } from "~/services/integrations/accountant-files";
import { accountantFile } from "~/services/integrations/accountant-files.server";

// This route's rules for the boundary and the early checks (docs/decisions/265): a download
// reads a year of invoices, so it takes a share of the tenant's report work.
export const handle: RouteRules = { work: "report" };

const back = { href: "/settings/accounting#accountant-files", label: "Back to Accounting integrations" };

// GET /settings/accounting/files?format=qbo|xero|iif&from=YYYY-MM-DD&to=YYYY-MM-DD: a file for
// the accountant (owner, admin). A plain GET form downloads it, with or without JavaScript.
export async function loader({ request }: LoaderFunctionArgs) {
  let user;
  try {
    user = await requireUserWithPermission(request, "view_accounting_integrations");
  } catch (error) {
    if (error instanceof Response && error.status === 403) {
      return messagePage(
        403,
        "You don't have access to the accountant's files",
        "Only an owner or an admin can download the files for the accountant.",
        { href: "/", label: "Go to the start page" },
      );
    }
    throw error;
  }
  const asked = parseDownload(new URL(request.url).searchParams);
  if (!asked.ok) {
    const messages = Object.entries(asked.fields).map(([field, m]) => `${field}: ${m.join(" ")}`);
    return messagePage(422, "Check the file and the dates", `Nothing was downloaded. ${messages.join(" ")}`, back);
  }
  const file = await accountantFile(actorOf(user), asked.format, asked.range);
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
