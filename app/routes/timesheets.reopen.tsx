import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { backToTimesheets, changeWeek } from "~/http/timesheet-forms.server";
import { reopenWeek } from "~/services/timesheets/timesheets.server";

// POST /timesheets/reopen (`userId`, `week`): unlocks an approved week.

export const loader = ({ request }: LoaderFunctionArgs) => backToTimesheets(request);

export const action = ({ request }: ActionFunctionArgs) =>
  changeWeek(request, reopenWeek, "Week reopened: it can be corrected again.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
