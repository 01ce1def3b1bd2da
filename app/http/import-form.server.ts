import { redirect } from "@remix-run/node";
import type { ImportRun } from "~/services/import/run-types";
import { actorOf, requireUserWithPermission, type Actor } from "~/utils/auth.server";
import { staffFormAction } from "./form.server";

// The two import form routes (commit a preview, undo a run) differ only in the id field and
// the operation: both 303 to the run's result page, or render the refusal with the message.

/** Their pages are only rendered after a refused post; a plain visit needs the permission. */
export async function importFormLoader({ request }: { request: Request }) {
  await requireUserWithPermission(request, "import_csv");
  return null;
}

export async function importRunAction(
  request: Request,
  field: "previewId" | "runId",
  perform: (actor: Actor, id: string) => Promise<Pick<ImportRun, "id" | "type">>,
) {
  const user = await requireUserWithPermission(request, "import_csv");
  return staffFormAction(request, async (form) => {
    const run = await perform(actorOf(user), String(form.get(field) ?? ""));
    return redirect(`/import-data?type=${run.type}&run=${run.id}`, 303);
  });
}
