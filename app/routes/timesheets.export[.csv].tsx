import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagePage } from "~/http/message-page.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { payrollCsv } from "~/services/timesheets/payroll";
import { payrollWeek } from "~/services/timesheets/timesheets.server";

// GET /timesheets/export.csv?week=: the week's hours for a payroll product's import, one row
// per person and day (owner, admin).

export async function loader({ request }: LoaderFunctionArgs) {
  let user;
  try {
    user = await requireUserWithPermission(request, "export_payroll");
  } catch (error) {
    if (error instanceof Response && error.status === 403) {
      return messagePage(403, "You don't have access to payroll hours", "Only an owner or admin exports them.", {
        href: "/timesheets",
        label: "Back to Timesheets",
      });
    }
    throw error;
  }
  const week = await payrollWeek(actorOf(user), new URL(request.url).searchParams.get("week"));
  return new Response(`\uFEFF${payrollCsv(week.team)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="payroll-hours-${week.weekStart}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
