import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FormError } from "~/components/forms";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { revokeFeed } from "~/services/schedule/calendar-feeds.server";
import { calendarFeedRevokeSchema } from "~/services/schedule/schemas";
import { actorOf, requireUser } from "~/http/auth.server";

// POST /settings/calendar/feeds/<id>/revoke (`_csrf`): the feed answers 404 from now on.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "Turn a calendar link off with the button on the Calendar settings page." }, { status: 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return formAction(request, calendarFeedRevokeSchema, async () => {
    const revoked = await revokeFeed(actorOf(user), params.id!);
    const whose = revoked.userId === user.id ? "Your" : `${revoked.name}'s`;
    await setFlash(user, {
      message: `${whose} calendar link is turned off. Calendars subscribed to it stop updating.`,
      tone: "success",
    });
    return redirect("/settings/calendar#calendar-feed", 303);
  });
}

/** Shown only when the post is refused without an error page (a body over the limit): why, and the way back. */
export default function RevokeCalendarFeed() {
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
