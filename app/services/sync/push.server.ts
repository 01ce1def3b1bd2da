import { inTenant, one, rows, type Tx } from "../../../db/index";
import { AppError, forbidden, isAppError } from "~/utils/app-error";
import type { Actor } from "~/utils/auth.server";
import { injectFault } from "~/utils/faults.server";
import { log } from "~/utils/log.server";
import { openAssignedJobs } from "./jobs.server";
import { tryMutation } from "./mutations.server";
import type { MutationResult, PushRequest, PushResponse } from "./protocol";

/**
 * A push (Replicache style, CONTRACT section 7). Mutations are processed in the order sent,
 * each in its own transaction that locks the client row (serialising concurrent pushes of
 * one client), re-reads lastMutationId, applies the effect and stores the new id: an effect
 * and its id commit together or not at all. Committing one by one means a failure half way
 * keeps what was done, and the client's retry sees those as duplicates (docs/decisions/030).
 */
export async function pushMutations(actor: Actor, push: PushRequest): Promise<PushResponse> {
  let last = await claimClient(actor, push.clientId);
  const results: MutationResult[] = [];
  try {
    for (const m of push.mutations) {
      // lastMutationId only grows, so an id at or below one already seen needs no transaction.
      if (m.id <= last) {
        results.push({ id: m.id, status: "duplicate" });
        continue;
      }
      const outcome = await inTenant(actor.tenantId, async (t): Promise<{ last: number; result: MutationResult }> => {
        const current = await lockClient(actor, push.clientId, t);
        if (m.id <= current) return { last: current, result: { id: m.id, status: "duplicate" } };
        if (m.id > current + 1) return { last: current, result: { id: m.id, status: "skipped" } };
        const error = await tryMutation(actor, m, t);
        injectFault(`sync:mutation-${m.id}`);
        await rows(`UPDATE sync_clients SET last_mutation_id = $3, updated_at = now() WHERE tenant_id = $1 AND client_id = $2`, [actor.tenantId, push.clientId, m.id], t);
        return { last: m.id, result: error ? { id: m.id, status: "rejected", error } : { id: m.id, status: "applied" } };
      });
      last = outcome.last;
      results.push(outcome.result);
    }
  } catch (error) {
    if (isAppError(error) && error.status < 500) throw error;
    // What committed stays committed; the client resends the batch and gets those as duplicates.
    log.error("offline sync interrupted", { tenantId: actor.tenantId, clientId: push.clientId, processedThrough: last, error });
    throw new AppError("INTERNAL_ERROR", "The sync was interrupted. Send the same mutations again; those already applied will not apply twice.", {
      status: 503,
      headers: { "Retry-After": "2" },
    });
  }
  return { clientId: push.clientId, lastMutationId: last, results, jobs: await openAssignedJobs(actor) };
}

/**
 * Registers the client id to the caller on first use and returns its lastMutationId.
 * Two statements: the SELECT must see a row a concurrent first push just committed.
 */
async function claimClient(actor: Actor, clientId: string): Promise<number> {
  return inTenant(actor.tenantId, async (t) => {
    await rows(
      `INSERT INTO sync_clients (tenant_id, client_id, user_id) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, client_id) DO NOTHING`,
      [actor.tenantId, clientId, actor.userId],
      t,
    );
    const row = await one<{ user_id: string; last_mutation_id: number }>(
      `SELECT user_id, last_mutation_id FROM sync_clients WHERE tenant_id = $1 AND client_id = $2`,
      [actor.tenantId, clientId],
      t,
    );
    if (!row || row.user_id !== actor.userId) throw forbidden("This client id belongs to another user. Make a new client id for this user.");
    return Number(row.last_mutation_id);
  });
}

async function lockClient(actor: Actor, clientId: string, t: Tx): Promise<number> {
  const row = await one<{ last_mutation_id: number }>(
    `SELECT last_mutation_id FROM sync_clients WHERE tenant_id = $1 AND client_id = $2 AND user_id = $3 FOR UPDATE`,
    [actor.tenantId, clientId, actor.userId],
    t,
  );
  if (!row) throw forbidden("This client id belongs to another user.");
  return Number(row.last_mutation_id);
}
