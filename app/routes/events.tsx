import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import { liveEvents } from "~/services/events/events.server";
import { requireUser } from "~/http/auth.server";

// GET /events: the signed-in staff member's tenant's changes as
// server-sent events. Each event is checked against the member's tenant before anything is
// written to the stream. `ready` says the server is listening; `change` carries
// {type, id, n} (n counts this stream's events, so two alike events still differ).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const events = liveEvents();
  await events.ready();
  return eventStream(request.signal, (send) => {
    let n = 0;
    const unsubscribe = events.subscribe(user.tenantId, (event) => {
      if (event.tenantId !== user.tenantId) return;
      send({ event: "change", data: JSON.stringify({ type: event.type, id: event.id, n: ++n }) });
    });
    send({ event: "ready", data: "" });
    // A comment-like ping keeps proxies from closing an idle stream.
    const ping = setInterval(() => send({ event: "ping", data: "" }), 25_000);
    return () => {
      clearInterval(ping);
      unsubscribe();
    };
  });
}
