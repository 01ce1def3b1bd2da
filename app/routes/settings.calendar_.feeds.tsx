import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormError } from "~/components/forms";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { createFeed } from "~/services/schedule/calendar-feeds.server";
import { calendarFeedFormSchema } from "~/services/schedule/schemas";
import { actorOf, requireUser } from "~/http/auth.server";

// POST /settings/calendar/feeds (`_csrf`, `userId`): a new calendar feed link for a member
// (their own, or for an owner or admin that of a member at or below their role), replacing the one they had.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "Make a calendar link with the button on the Calendar settings page." }, { status: 404 });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return formAction(request, calendarFeedFormSchema, async ({ userId }) => {
    const made = await createFeed(actorOf(user), userId);
    const whose = made.userId === user.id ? "Your" : `${made.name}'s`;
    await setFlash(user, {
      message: `${whose} calendar link is ready${made.replaced ? "; the old link no longer works" : ""}. Add it to a calendar as a subscription.`,
      tone: "success",
    });
    return redirect("/settings/calendar#calendar-feed", 303);
  });
}

/** Shown only when the post is refused without an error page (a body over the limit): why, and the way back. */
export default function CreateCalendarFeed() {
  const reply = useActionData<FormReply>();
  return (
    <section className="card narrow">
      <FormError errors={Object.values(reply?.result.error ?? {}).flatMap((e) => e ?? [])} />
      <p>
        <Link to="/settings/calendar#calendar-feed">Back to Calendar settings</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
