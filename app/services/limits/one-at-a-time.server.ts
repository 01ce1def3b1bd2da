/**
 * Changes to one record, queued in this process instead of in PostgreSQL.
 *
 * Twenty office payments on one invoice (or twenty converts of one quote) at once all want the
 * same row lock. Each request waiting in PostgreSQL holds a pooled connection while it waits;
 * when the waits are long (a slow disk, a Citus cluster) the pool runs dry and every other
 * request of this server answers 503 after the pool's acquire timeout. Queued here, the
 * requests for one record wait without a connection, one at a time, and the rest of the server
 * keeps its pool. Across several app servers the row lock still orders them (each server sends
 * at most one at a time per record). docs/decisions/370-one-record-at-a-time.md.
 */
import AsyncLock from "async-lock";
import { AppError } from "~/utils/app-error";

const queue = new AsyncLock({
  // A request waits at most this long for its turn, then answers 503 with Retry-After.
  timeout: 30_000,
  // More waiters than this for one record are refused at once (a flood, not a busy office).
  maxPending: 500,
});

/** Runs `fn` when no other change of `record` (a kind and an id, within a tenant) runs in this process. */
export async function oneAtATime<T>(tenantId: string, record: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await queue.acquire(`${tenantId}:${record}`, fn);
  } catch (error) {
    if (error instanceof Error && /^(async-lock timed out|Too many pending tasks)/.test(error.message))
      throw new AppError("INTERNAL_ERROR", "Too many changes to this record at once. Try again in a moment.", {
        status: 503,
        headers: { "Retry-After": "2" },
      });
    throw error;
  }
}
