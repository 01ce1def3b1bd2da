import type { LoaderFunctionArgs } from "@remix-run/node";
import { feedCalendar } from "~/services/schedule/calendar-feeds.server";

// GET /calendar/<token>.ics: a member's jobs as an iCalendar feed for
// Google Calendar, Outlook or Apple Calendar. No session: the signed token is the credential,
// so the answer is never cached, never sent on as a referrer and never indexed. A forged,
// revoked or unknown token (or a path without `.ics`) is 404, all alike.

const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" };

const notFound = () =>
  new Response("This calendar link is not valid. Ask for a new one on the Calendar settings page.\n", {
    status: 404,
    headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" },
  });

export async function loader({ params }: LoaderFunctionArgs) {
  const name = params.token ?? "";
  if (!name.endsWith(".ics")) return notFound();
  const body = await feedCalendar(name.slice(0, -4));
  if (body === null) return notFound();
  return new Response(body, {
    headers: {
      ...PRIVATE,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="jobs.ics"',
    },
  });
}

export async function action() {
  return new Response("Method not allowed\n", {
    status: 405,
    headers: { ...PRIVATE, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" },
  });
}
