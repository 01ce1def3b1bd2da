import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagePage } from "~/http/message-page.server";
import { IMPORT_TYPES, isImportType, mayImportType } from "~/services/import/columns";
import { sampleCsv, sampleFilename } from "~/services/import/samples";
import { requireUserWithPermission } from "~/http/auth.server";

const back = { href: "/import-data", label: "Back to Import data" };

// GET /import-data/sample?type=T: the type's sample CSV as a download.
export async function loader({ request }: LoaderFunctionArgs) {
  let user: Awaited<ReturnType<typeof requireUserWithPermission>>;
  try {
    user = await requireUserWithPermission(request, "import_csv");
  } catch (error) {
    if (error instanceof Response && error.status === 403) {
      return messagePage(403, "You don't have access to imports", "Your role does not include importing data.", back);
    }
    throw error;
  }
  const type = new URL(request.url).searchParams.get("type");
  if (!type) return messagePage(400, "Which sample?", `Add ?type= with one of: ${IMPORT_TYPES.join(", ")}.`, back);
  if (!isImportType(type))
    return messagePage(
      404,
      "No such import type",
      `There is no sample for "${type}". Choose one of: ${IMPORT_TYPES.join(", ")}.`,
      back,
    );
  if (!mayImportType(user.role, type))
    return messagePage(
      403,
      "You don't have access to team imports",
      "Importing team members needs the manage_team permission (owner or admin).",
      back,
    );
  // A byte order mark, so that Excel opens the accented names as UTF-8 (the import accepts it).
  return new Response(`\uFEFF${sampleCsv(type)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${sampleFilename(type)}"`,
      "Cache-Control": "private, max-age=300",
    },
  });
}
