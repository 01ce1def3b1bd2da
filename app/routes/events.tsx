import type { LoaderFunctionArgs } from "@remix-run/node";
import { eventStream } from "remix-utils/sse/server";
import { liveEvents, type TenantEvent } from "~/services/events/events.server";
import { mayReceive } from "~/services/events/visibility.server";
import { findSessionUser } from "~/services/accounts/sessions.server";
import { requireUser, sessionTokenOf } from "~/http/auth.server";
import { log } from "~/utils/log.server";

// GET /events: the signed-in staff member's tenant's changes as server-sent events. Each event
// is checked before anything is written to the stream: it must be of the member's tenant, the
// session must still be signed in (signed out: the stream ends), and the member, with the role
// they hold now, must be able to open the record's page (a technician hears of their own jobs
// only: docs/decisions/330). The checks run on the app server holding the stream, whichever
// server made the change. `ready` says the server is listening; `change` carries {type, id, n}
// (n counts this stream's events, so two alike events still differ).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = await sessionTokenOf(request);
  const events = liveEvents();
  await events.ready();
  return eventStream(request.signal, (send, close) => {
    let n = 0;
    let ended = false;
    // One event at a time, in the order they came.
    let queue = Promise.resolve();
    const deliver = async (event: TenantEvent) => {
      if (ended || event.tenantId !== user.tenantId) return;
      const now = await findSessionUser(token);
      if (ended) return;
      if (!now || now.id !== user.id || now.tenantId !== user.tenantId) return close();
      if (!(await mayReceive({ tenantId: now.tenantId, userId: now.id, role: now.role }, event))) return;
      if (!ended) send({ event: "change", data: JSON.stringify({ type: event.type, id: event.id, n: ++n }) });
    };
    const unsubscribe = events.subscribe(user.tenantId, (event) => {
      queue = queue
        .then(() => deliver(event))
        .catch((error) => log.error("live event not delivered", { type: event.type, error: String(error) }));
    });
    send({ event: "ready", data: "" });
    // A comment-like ping keeps proxies from closing an idle stream.
    const ping = setInterval(() => send({ event: "ping", data: "" }), 25_000);
    return () => {
      ended = true;
      clearInterval(ping);
      unsubscribe();
    };
  });
}
