import { inTenant, one } from "../../../db/index";
import { forbidden, notFound } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import { can } from "~/utils/permissions";
import type { Actor } from "~/services/accounts/actor";
import { isJobAssigned } from "~/services/jobs/assigned.server";

// The office's visit routes (a visit's schedule form, its invoice, a job's "Add a visit") for a
// member who may not change records: a visit or job that is not theirs is unknown to them,
// answered exactly as an id that exists nowhere (404); one they work on is theirs to see but not
// to change (403). Members who manage records pass on to the route's own checks.

const REFUSED = "Your role cannot create or change records.";

/** Refuses a visit route to a member who may not change visits: 404 off its crew, 403 on it. */
export async function assertManagesVisit(actor: Actor, visitId: string): Promise<void> {
  if (can(actor.role, "manage_records")) return;
  const onCrew =
    isUuid(visitId) &&
    (await inTenant(actor.tenantId, (t) =>
      one(
        `SELECT 1 FROM visit_assignees a WHERE a.tenant_id = $1 AND a.visit_id = $2 AND a.user_id = $3`,
        [actor.tenantId, visitId, actor.userId],
        t,
      ),
    ));
  if (!onCrew) throw notFound("Visit not found.");
  throw forbidden(REFUSED);
}

/** Refuses a job's visit route to a member who may not change visits: 404 unless the job is theirs, else 403. */
export async function assertManagesJobVisits(actor: Actor, jobId: string): Promise<void> {
  if (can(actor.role, "manage_records")) return;
  const theirs =
    isUuid(jobId) && (await inTenant(actor.tenantId, (t) => isJobAssigned(actor.tenantId, jobId, actor.userId, t)));
  if (!theirs) throw notFound("Job not found.");
  throw forbidden(REFUSED);
}
