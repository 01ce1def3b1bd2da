// Which live events a member may receive: exactly those whose record they could open as a
// page, judged when the event arrives (a job reassigned a moment ago is no longer a
// technician's). The payload names only a kind and an id; this keeps even that from a member
// who may not see the record (docs/decisions/330).
import { inTenant, one } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { can, recordScope } from "~/utils/permissions";
import type { LiveEvent, LiveEventType } from "./events.server";

/** The page each kind of event is about. */
const PAGE: Record<LiveEventType, "request" | "quote" | "invoice" | "job" | "import"> = {
  "booking_request.received": "request",
  "quote.approved": "quote",
  "quote.declined": "quote",
  "quote.change_requested": "quote",
  "payment.recorded": "invoice",
  "job.status_changed": "job",
  "job.scheduled": "job",
  "job.photo_added": "job",
  "import.committed": "import",
};

/** True when `actor` could open the page of the event's record (requests, quotes and invoices: the whole tenant's records; a job: theirs, for a technician; an import run: the importers). */
export async function mayReceive(actor: Actor, event: LiveEvent): Promise<boolean> {
  const page = PAGE[event.type];
  if (!page) return false;
  if (page === "import") return can(actor.role, "import_csv");
  const scope = recordScope(actor.role);
  if (scope === "all") return true;
  if (scope === "none" || page !== "job" || !isUuid(event.id)) return false;
  // A technician: the job must be assigned to them now (the job page's own rule).
  const assigned = await inTenant(actor.tenantId, (t) =>
    one<{ ok: boolean }>(
      `SELECT true AS ok FROM jobs WHERE tenant_id = $1 AND id = $2 AND assignee_id = $3`,
      [actor.tenantId, event.id, actor.userId],
      t,
    ),
  );
  return !!assigned;
}
