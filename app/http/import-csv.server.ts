// A preview's CSV download (GET /import-data/errors and /import-data/left-out, ?preview=<id>):
// the import permission (403 page otherwise), the CSV as an attachment with a BOM for
// spreadsheets, or the 404 page for an unknown preview or one with nothing to download.
import { messagePage } from "~/http/message-page.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import type { Actor } from "~/services/accounts/actor";
import type { ImportRun } from "~/services/import/runs.server";
import { isAppError } from "~/utils/app-error";

export async function importCsvDownload(
  request: Request,
  read: (actor: Actor, previewId: string) => Promise<{ run: ImportRun; csv: string }>,
  opts: { file: (run: ImportRun) => string; missing: [title: string, text: string] },
): Promise<Response> {
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
    const { run, csv } = await read(actorOf(user), id);
    return new Response(`\uFEFF${csv}`, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${opts.file(run)}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (isAppError(error) && error.status === 404) {
      return messagePage(404, opts.missing[0], opts.missing[1], { href: "/import-data", label: "Back to Import data" });
    }
    throw error;
  }
}
