import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagePage } from "~/http/message-page.server";
import { isReportName, REPORT_NAMES } from "~/services/reports/csv";
import { runCpu } from "~/services/work/pool.server";
import { isReportPeriod } from "~/services/reports/periods";
import { loadReports } from "~/services/reports/reports.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { work: "report" };

const back = { href: "/reports", label: "Back to Reports" };

// GET /reports/<name>.csv?period=P: one report's figures as a download.
export async function loader({ request, params }: LoaderFunctionArgs) {
  let user;
  try {
    user = await requireUserWithPermission(request, "view_reports");
  } catch (error) {
    if (error instanceof Response && error.status === 403) {
      return messagePage(403, "You don't have access to reports", "Your role does not include the reports.", back);
    }
    throw error;
  }
  const file = params.file ?? "";
  const name = file.endsWith(".csv") ? file.slice(0, -4) : "";
  if (!isReportName(name)) {
    return messagePage(
      404,
      "No such report",
      `There is no report "${file}". Choose one of: ${REPORT_NAMES.map((n) => `${n}.csv`).join(", ")}.`,
      back,
    );
  }
  const asked = new URL(request.url).searchParams.get("period");
  const actor = actorOf(user);
  const reports = await loadReports(actor, isReportPeriod(asked) ? asked : "last-12-months");
  // The CSV is written in the CPU pool, within the tenant's share of its threads.
  const csv = await runCpu<string>(actor.tenantId, { kind: "report-csv", name, reports });
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${reports.range.start.slice(0, 7)}-to-${reports.range.months.at(-1)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
