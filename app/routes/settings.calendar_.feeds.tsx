import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { staffFormAction } from "~/http/form.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { createFeed } from "~/services/schedule/calendar-feeds.server";
import { actorOf, requireUser } from "~/utils/auth.server";

// POST /settings/calendar/feeds (`_csrf`, `userId`): a new calendar feed link for a member
// (their own, or anyone's for an owner or admin), replacing the one they had.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "Make a calendar link with the button on the Calendar settings page." }, { status: 404 });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return staffFormAction(request, async (form) => {
    const made = await createFeed(actorOf(user), String(form.get("userId") ?? ""));
    const whose = made.userId === user.id ? "Your" : `${made.name}'s`;
    await setFlash(user, {
      message: `${whose} calendar link is ready${made.replaced ? "; the old link no longer works" : ""}. Add it to a calendar as a subscription.`,
      tone: "success",
    });
    return redirect("/settings/calendar#calendar-feed", 303);
  });
}

export default function CreateCalendarFeed() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
