import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { PersonWeekView, TeamWeekView } from "~/components/timesheets/week";
import { actorOf, requireUser } from "~/http/auth.server";
import { personWeek, teamWeek } from "~/services/timesheets/timesheets.server";
import { can } from "~/utils/permissions";
import timesheetStyles from "~/styles/timesheets.css";

// GET /timesheets?week=&userId=: a person's week (the office: anyone's; a technician: their
// own, another's is 403), or without userId the team's week (the office; a technician sees
// their own week).

export const links: LinksFunction = () => [{ rel: "stylesheet", href: timesheetStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data && data.view === "person" ? `Timesheet of ${data.week.person.name} · Fieldwork` : "Timesheets · Fieldwork",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("week");
  const userId = url.searchParams.get("userId");
  const actor = actorOf(user);
  if (userId || !can(user.role, "manage_timesheets")) {
    return json({ view: "person" as const, week: await personWeek(actor, userId ?? user.id, asked) });
  }
  return json({ view: "team" as const, team: await teamWeek(actor, asked) });
}

export default function TimesheetsPage() {
  const data = useLoaderData<typeof loader>();
  if (data.view === "team") return <TeamWeekView team={data.team} />;
  const w = data.week;
  return (
    <>
      <PageHeader
        title={w.isSelf && !w.mayManage ? "My timesheet" : `Timesheet: ${w.person.name}`}
        description={`Times in ${w.timeZone.replace(/_/g, " ")}.`}
        actions={
          w.mayManage ? (
            <Link to={`/timesheets?week=${w.weekStart}`} className="btn btn-secondary">
              Team week
            </Link>
          ) : undefined
        }
      />
      <PersonWeekView week={w} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
