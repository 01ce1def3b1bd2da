import { jsonbLiteral, one } from "../../../db/index";
import { isUuid } from "~/utils/crypto.server";
import { AppError, forbidden, isAppError } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { log } from "~/utils/log.server";
import { notify } from "~/services/events/events.server";
import { openAssignedJobs, syncVisits } from "./jobs.server";
import { actsOnAnyJob, announces, errorOf, prepare, type DbOutcome } from "./mutations.server";
import type { MutationResult, PushResponse } from "./protocol";
import type { PushRequest } from "./mutation-schemas";

/**
 * A push (Replicache style). The arguments are checked here; then one
 * call of the database procedure `field_push` processes the mutations in the order sent,
 * each in its own transaction that locks the client row (serialising concurrent pushes of
 * one client), re-reads lastMutationId, applies the effect and stores the new id, and
 * commits. An effect and its id commit together or not at all; a failure half way keeps
 * what was done, and the client's retry sees those as duplicates (docs/decisions/030, 031).
 */
export async function pushMutations(actor: Actor, push: PushRequest): Promise<PushResponse> {
  const { clientId } = push;
  const prepared = push.mutations.map((m) => ({ id: m.id, ...prepare(m) }));
  let answer: { forbidden?: boolean; lastMutationId: number; results: DbOutcome[] };
  try {
    // Every argument written into the call as a literal: Citus runs a distributed procedure on
    // the tenant's worker only when its arguments are constants (with parameters it ran on the
    // coordinator, where the procedure's set_config() does not reach the workers' row-level
    // security), and the delegated call carries no parameters (docs/decisions/228-citus-run.md).
    if (!isUuid(actor.tenantId) || !isUuid(actor.userId) || !isUuid(clientId))
      throw new AppError("INTERNAL_ERROR", "An id of the sync is not a uuid.");
    const mutations = jsonbLiteral(prepared.map(({ error: _refusal, ...args }) => args));
    const row = await one<{ p_results: typeof answer }>(
      `CALL field_push('${actor.tenantId}'::uuid, '${actor.userId}'::uuid, '${clientId}'::uuid, ${actsOnAnyJob(actor) ? "true" : "false"}, ${mutations}, NULL)`,
    );
    answer = row!.p_results;
  } catch (error) {
    if (isAppError(error) && error.status < 500) throw error;
    // What committed stays committed; the client resends the batch and gets those as duplicates.
    log.error("offline sync interrupted", { tenantId: actor.tenantId, clientId, error });
    throw new AppError(
      "INTERNAL_ERROR",
      "The sync was interrupted. Send the same mutations again; those already applied will not apply twice.",
      {
        status: 503,
        headers: { "Retry-After": "2" },
      },
    );
  }
  if (answer.forbidden) throw forbidden("This client id belongs to another user. Make a new client id for this user.");

  // field_push commits each mutation itself: the changes the office sees are announced after it.
  const changed = new Set(
    prepared.filter((p, i) => announces(p.type) && answer.results[i]?.outcome === "applied").map((p) => p.jobId!),
  );
  // A lost announcement must not turn a committed batch into an error.
  for (const jobId of changed) {
    await notify(undefined, actor.tenantId, { type: "job.status_changed", id: jobId }).catch((error) =>
      log.error("live event not sent", { error: String(error) }),
    );
  }

  const results: MutationResult[] = answer.results.map((r, i) => {
    const { id } = prepared[i];
    if (r.outcome === "applied" || r.outcome === "duplicate" || r.outcome === "skipped")
      return { id, status: r.outcome };
    return { id, status: "rejected", error: errorOf(prepared[i], r) };
  });
  const [jobs, visits] = await Promise.all([openAssignedJobs(actor), syncVisits(actor)]);
  return { clientId, lastMutationId: Number(answer.lastMutationId), results, jobs, visits };
}
