import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { backToTimesheets, changeWeek } from "~/http/timesheet-forms.server";
import { approveWeek } from "~/services/timesheets/timesheets.server";

// POST /timesheets/approve (`userId`, `week`): locks a person's week (their pending entries settled first).

export const loader = ({ request }: LoaderFunctionArgs) => backToTimesheets(request);

export const action = ({ request }: ActionFunctionArgs) =>
  changeWeek(request, approveWeek, "Week approved. It is locked until reopened.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
