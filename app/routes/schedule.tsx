import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useMemo } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { useLiveUpdates } from "~/components/live-updates";
import { ScheduleBoard } from "~/components/schedule/board";
import { boardParamsSchema, scheduleBoard } from "~/services/schedule/board.server";
import { packBoard, unpackBoard } from "~/services/schedule/packed-board";
import { longDate, shortDate } from "~/services/schedule/days";
import scheduleStyles from "~/styles/schedule.css";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET /schedule?view=day|week&date=YYYY-MM-DD: the dispatch board.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: scheduleStyles }];
export const meta: MetaFunction = () => [{ title: "Schedule · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  const url = new URL(request.url);
  const params = boardParamsSchema.parse(Object.fromEntries(url.searchParams));
  // The board goes out short (a tuple a card); the page unpacks it before drawing.
  return json(packBoard(await scheduleBoard(actorOf(user), params, user.timeZone)));
}

export default function SchedulePage() {
  // A move by anyone else (or a status change from the field) redraws the board.
  useLiveUpdates();
  const packed = useLoaderData<typeof loader>();
  const board = useMemo(() => unpackBoard(packed), [packed]);
  const location = useLocation();
  const href = (view: string, date: string) => `/schedule?view=${view}&date=${date}`;
  const first = board.days[0];
  const last = board.days[board.days.length - 1];
  const title =
    board.view === "day" ? longDate(first) : `${shortDate(first)} – ${shortDate(last)}, ${last.slice(0, 4)}`;
  const isCurrent = board.days.includes(board.today);
  return (
    <div className="schedule-page">
      <PageHeader
        title={board.ownOnly ? "My schedule" : "Schedule"}
        description={
          <>
            {board.view === "day" ? "Day" : "Week"} of <strong>{title}</strong> · times in {board.timeZone}
          </>
        }
        actions={
          <nav className="board-nav" aria-label="Schedule dates">
            <div className="segmented" role="group" aria-label="View">
              <Link
                to={href("day", board.view === "day" ? board.date : isCurrent ? board.today : first)}
                aria-current={board.view === "day" ? "page" : undefined}
                className={board.view === "day" ? "active" : undefined}
              >
                Day
              </Link>
              <Link
                to={href("week", board.date)}
                aria-current={board.view === "week" ? "page" : undefined}
                className={board.view === "week" ? "active" : undefined}
              >
                Week
              </Link>
            </div>
            <div className="segmented">
              <Link to={href(board.view, board.prev)} rel="prev">
                <span aria-hidden="true">‹</span> <span className="visually-hidden">Previous {board.view}</span>
              </Link>
              <Link to={href(board.view, board.today)} className={isCurrent ? "active" : undefined}>
                Today
              </Link>
              <Link to={href(board.view, board.next)} rel="next">
                <span className="visually-hidden">Next {board.view}</span> <span aria-hidden="true">›</span>
              </Link>
            </div>
          </nav>
        }
      />
      <ScheduleBoard board={board} packed={packed} returnTo={location.pathname + location.search} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
