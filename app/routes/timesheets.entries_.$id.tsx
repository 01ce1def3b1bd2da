import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { readTimesheetForm, weekPage } from "~/http/timesheet-forms.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { changeEntrySchema } from "~/services/timesheets/schemas";
import { changeEntry } from "~/services/timesheets/timesheets.server";

// POST /timesheets/entries/<id> (`intent` = update, delete, accept or discard; a reason for all
// but accept): the office corrects an entry, kept in the week's history. An approved week
// answers 409 until reopened; accepting a late entry reopens it.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_timesheets");
  return redirect("/timesheets");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_timesheets");
  const value = await readTimesheetForm(request, changeEntrySchema);
  const changed = await changeEntry(actorOf(user), params.id!, value);
  await setFlash(user, { message: changed.message, tone: "success" });
  return redirect(weekPage(changed.userId, changed.week), 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
