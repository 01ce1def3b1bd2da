import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { actorOf, requireUser } from "~/http/auth.server";
import { readTimesheetForm, weekPage } from "~/http/timesheet-forms.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { addEntrySchema } from "~/services/timesheets/schemas";
import { addEntry } from "~/services/timesheets/timesheets.server";
import { can } from "~/utils/permissions";

// POST /timesheets/entries: a new time entry. The office's counts at once; a technician's (their
// own week only) waits as pending until the office accepts it. An approved week answers 409.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/timesheets");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const value = await readTimesheetForm(request, addEntrySchema);
  const added = await addEntry(actorOf(user), value);
  await setFlash(user, {
    message: can(user.role, "manage_timesheets")
      ? "Entry added."
      : "Entry added. It shows as pending until the office accepts it.",
    tone: "success",
  });
  return redirect(weekPage(added.userId, added.week), 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
