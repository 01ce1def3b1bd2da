import { setTimeout as sleep } from "node:timers/promises";
import { one, withStatementTimeout } from "../../../db/index";
import { AppError } from "~/utils/app-error";
import { log } from "~/utils/log.server";

/**
 * Fair sharing (docs/decisions/193). Expensive work, one class per kind: how many may
 * run at once per tenant and per user, how long a lease lives if its server dies, the statement
 * timeout of its queries, the Retry-After of a refusal, and how long a request may wait for a
 * lease before it is refused (0: refused at once).
 *
 * The counts live in PostgreSQL (`work_leases`, migration 0013), so they hold across every app
 * server: a tenant that fills its share gets 429 with Retry-After (or waits, for commits), and
 * every other tenant is served as before.
 */
export const WORK_CLASSES = {
  /** A list searched by `q` (customers, jobs, quotes, invoices, booking requests). */
  search: { tenant: 4, user: 2, leaseSeconds: 60, statementTimeoutMs: 5_000, retryAfter: 1, waitMs: 0 },
  /** The reports page and its CSV files. */
  report: { tenant: 3, user: 2, leaseSeconds: 120, statementTimeoutMs: 15_000, retryAfter: 2, waitMs: 0 },
  /** An import's preview or mapping: a file of up to 50,000 rows parsed and checked. */
  import: { tenant: 2, user: 2, leaseSeconds: 900, statementTimeoutMs: 60_000, retryAfter: 5, waitMs: 0 },
  /**
   * An import's commit or undo. They wait their turn rather than being refused: a double submit
   * must land on the result page, and the tenant's commits run one at a
   * time anyway (they lock the tenant's previews).
   */
  commit: { tenant: 2, user: 2, leaseSeconds: 900, statementTimeoutMs: 60_000, retryAfter: 5, waitMs: 30_000 },
} as const;

export type WorkKind = keyof typeof WORK_CLASSES;

const MESSAGES: Record<WorkKind, string> = {
  search: "Too many searches are running for your business right now. Try again in a moment.",
  report: "Too many reports are being prepared for your business right now. Try again in a moment.",
  import: "Another import is being checked for your business right now. Try again in a few seconds.",
  commit: "Other imports are still being saved for your business. Try again in a few seconds.",
};

export const workBusy = (kind: WorkKind) =>
  new AppError("RATE_LIMITED", MESSAGES[kind], { headers: { "Retry-After": String(WORK_CLASSES[kind].retryAfter) } });

/** Takes a lease for one piece of `kind` work, or null when the tenant or user is at its limit. */
export async function claimWork(tenantId: string, userId: string | null, kind: WorkKind): Promise<string | null> {
  const c = WORK_CLASSES[kind];
  const deadline = Date.now() + c.waitMs;
  let delay = 50;
  for (;;) {
    const r = await one<{ id: string | null }>(`SELECT app_claim_work($1, $2, $3, $4, $5, $6) AS id`, [
      tenantId,
      userId,
      kind,
      c.tenant,
      c.user,
      c.leaseSeconds,
    ]);
    if (r?.id) return r.id;
    if (Date.now() + delay > deadline) return null;
    await sleep(delay);
    delay = Math.min(delay * 2, 400);
  }
}

export async function releaseWork(tenantId: string, id: string) {
  try {
    await one(`SELECT app_release_work($1, $2)`, [tenantId, id]);
  } catch (error) {
    // The lease ends at its expiry anyway.
    log.error("work lease not released", { error: String(error) });
  }
}

/**
 * Runs `fn` holding a lease of `kind` for the tenant and user, with the class's statement
 * timeout on the tenant transactions it begins. Throws 429 (Retry-After) when the tenant or the
 * user already runs its share of that kind.
 */
export async function withWork<T>(
  who: { tenantId: string; userId: string | null },
  kind: WorkKind,
  fn: () => Promise<T>,
): Promise<T> {
  const lease = await claimWork(who.tenantId, who.userId, kind);
  if (!lease) {
    // Refused in the page machinery: the serving process refuses before it (earlyWork), so
    // this stays at 0 there (the fairness test reads it).
    workFigures().lateRefusals++;
    throw workBusy(kind);
  }
  try {
    return await withStatementTimeout(WORK_CLASSES[kind].statementTimeoutMs, fn);
  } finally {
    await releaseWork(who.tenantId, lease);
  }
}

/** Runs `fn` under a lease the serving process already took for this request, and releases it. */
export async function withHeldWork<T>(
  held: { kind: WorkKind; tenantId: string; lease: string },
  fn: () => Promise<T>,
): Promise<T> {
  workFigures().admittedEarly++;
  try {
    return await withStatementTimeout(WORK_CLASSES[held.kind].statementTimeoutMs, fn);
  } finally {
    await releaseWork(held.tenantId, held.lease);
  }
}

type WorkFigures = { refusedEarly: number; admittedEarly: number; lateRefusals: number };
declare global {
  var __workFigures: WorkFigures | undefined;
}
/** Counters of the shares: refused before the page machinery, admitted there, refused in it. */
export function workFigures(): WorkFigures {
  return (globalThis.__workFigures ??= { refusedEarly: 0, admittedEarly: 0, lateRefusals: 0 });
}

/**
 * The class of work one request of a route does, given the class the route declares (its
 * `handle.work`): a search or a report is the page's GET, and a search only when it has `q`
 * (a plain list page is cheap); an import or a commit is the route's POST.
 */
export function workKindOf(declared: WorkKind | undefined, request: Request, isAction: boolean): WorkKind | null {
  return workKindFor(declared, new URL(request.url).searchParams, isAction);
}

/** workKindOf from a request's query and whether it is an action (a method other than GET and HEAD). */
export function workKindFor(
  declared: WorkKind | undefined,
  query: URLSearchParams,
  isAction: boolean,
): WorkKind | null {
  if (!declared) return null;
  if (declared === "search" || declared === "report") {
    if (isAction) return null;
    return declared === "report" || (query.get("q") ?? "").trim() ? declared : null;
  }
  return isAction ? declared : null;
}
