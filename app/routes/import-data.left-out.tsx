import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagePage } from "~/http/message-page.server";
import { leftOutCsv } from "~/services/import/runs.server";
import { isAppError } from "~/utils/app-error";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET /import-data/left-out?preview=<id>: the rows a preview leaves out (those with errors, and
// quote or invoice rows that go with them), whole, with their errors, as CSV (docs/decisions/250).
export async function loader({ request }: LoaderFunctionArgs) {
  let user;
  try {
    user = await requireUserWithPermission(request, "import_csv");
  } catch (error) {
    if (error instanceof Response && error.status === 403) {
      return messagePage(403, "You don't have access to imports", "Your role does not include importing data.");
    }
    throw error;
  }
  const id = new URL(request.url).searchParams.get("preview") ?? "";
  try {
    const { run, csv } = await leftOutCsv(actorOf(user), id);
    return new Response(`\uFEFF${csv}`, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${run.type}-rows-with-errors.csv"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isAppError(error) && error.status === 404) {
      return messagePage(
        404,
        "No rows to download",
        "This preview does not exist, leaves no row out, or was replaced by a newer upload.",
        { href: "/import-data", label: "Back to Import data" },
      );
    }
    throw error;
  }
}
