import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { readTimesheetForm, weekPage } from "~/http/timesheet-forms.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { weekActionSchema } from "~/services/timesheets/schemas";
import { reopenWeek } from "~/services/timesheets/timesheets.server";

// POST /timesheets/reopen (`userId`, `week`): unlocks an approved week.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_timesheets");
  return redirect("/timesheets");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_timesheets");
  const value = await readTimesheetForm(request, weekActionSchema);
  const done = await reopenWeek(actorOf(user), value);
  await setFlash(user, { message: "Week reopened: it can be corrected again.", tone: "success" });
  return redirect(weekPage(done.userId, done.week), 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
