import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { readTimesheetForm, weekPage } from "~/http/timesheet-forms.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { weekActionSchema } from "~/services/timesheets/schemas";
import { approveWeek } from "~/services/timesheets/timesheets.server";

// POST /timesheets/approve (`userId`, `week`): locks a person's week (their pending entries settled first).

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_timesheets");
  return redirect("/timesheets");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_timesheets");
  const value = await readTimesheetForm(request, weekActionSchema);
  const done = await approveWeek(actorOf(user), value);
  await setFlash(user, { message: "Week approved. It is locked until reopened.", tone: "success" });
  return redirect(weekPage(done.userId, done.week), 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
