import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { staffFormAction } from "~/http/form.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { revokeFeed } from "~/services/schedule/calendar-feeds.server";
import { actorOf, requireUser } from "~/utils/auth.server";

// POST /settings/calendar/feeds/<id>/revoke (`_csrf`): the feed answers 404 from now on.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "Turn a calendar link off with the button on the Calendar settings page." }, { status: 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return staffFormAction(request, async () => {
    const revoked = await revokeFeed(actorOf(user), params.id!);
    const whose = revoked.userId === user.id ? "Your" : `${revoked.name}'s`;
    await setFlash(user, { message: `${whose} calendar link is turned off. Calendars subscribed to it stop updating.`, tone: "success" });
    return redirect("/settings/calendar#calendar-feed", 303);
  });
}

export default function RevokeCalendarFeed() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
