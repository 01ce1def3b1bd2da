// The shares of expensive work, taken by the serving process before Remix runs
// (scripts/serve-hooks.mjs calls `admitWork` for a request whose route declares `work`):
// a request over its tenant's or user's share is answered 429 here, at the cost of a session
// lookup and one statement, without the router, the loaders or a page render. An admitted
// request carries its lease to the boundary in a header only this process sets (a client's
// own is dropped), and the lease is released when the answer ends. docs/decisions/331.
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import { findSessionUser, sessionTenantOf } from "~/services/accounts/sessions.server";
import { claimWork, releaseWork, workBusy, workFigures, workKindFor } from "~/services/limits/work.server";
import type { WorkKind } from "~/services/limits/work.server";
import { sessionCookie } from "~/utils/cookies.server";
import { env } from "~/utils/env.server";
import { HeavyGate, type GateFigures } from "./heavy-gate";
import type { RouteRules } from "./route-rules";

export const LEASE_HEADER = "x-fieldwork-work-lease";
/** Proves a lease header was set by this process. */
const NONCE = randomBytes(16).toString("hex");

/**
 * This server's bound on heavy pages (a search, a report, an import preview) in flight at once,
 * beside the tenant's share counted in the database across servers. The database share lets a
 * tenant run several of each kind on one server; every one of them is rendered, parsed and
 * written on this server's one request thread, where another tenant's page waits its turn
 * behind them. So each server also bounds them itself, in memory: a tenant holds at most half
 * of the server's heavy pages, and beyond its first one only while the server is under its
 * bound. A tenant's first heavy page is always let through (to the database share), so a quiet
 * tenant never waits for a busy one's refusal. The refusal needs no database: the signed
 * session cookie names the tenant. The slot is held until the answer is written.
 * Pages (searches and reports) and import previews are bounded apart, each by the same numbers:
 * a tenant's searches never keep its import from being checked, nor the other way round.
 * A page over the tenant's share waits in the tenant's short line (first come, first served,
 * at most HEAVY_PAGES_QUEUE waiting, at most HEAVY_PAGES_WAIT_MS each) for one of its slots;
 * beyond the line or the wait it is refused as before. Waiting holds no database connection,
 * no lease and no request-thread time: a timer and the paused request. Import previews take
 * seconds each and are still refused at once.
 */
declare global {
  var __heavyGate: HeavyGate | undefined;
}

function gate() {
  if (!globalThis.__heavyGate) {
    const e = env();
    // Twice the cores for the machine, shared by the processes that serve on it (WEB_CONCURRENCY).
    const limit =
      e.HEAVY_PAGES_PER_SERVER ??
      Math.max(2, Math.round((2 * Math.max(1, os.availableParallelism())) / e.WEB_CONCURRENCY));
    const share = limit ? Math.max(1, Math.floor(limit / 2)) : 0;
    globalThis.__heavyGate = new HeavyGate({
      limit,
      share,
      queue: e.HEAVY_PAGES_QUEUE ?? 4 * share,
      waitMs: e.HEAVY_PAGES_WAIT_MS,
    });
  }
  return globalThis.__heavyGate;
}

/** The counters of this server's bound on heavy pages. */
export function heavyPageFigures(): GateFigures & { waitingNow: number; heldNow: number } {
  const g = gate();
  return { ...g.figures, waitingNow: g.waiting(), heldNow: g.inFlight() };
}

type Group = "page" | "import";
/** The group a class of work is bounded in per server (a commit waits its turn in the database share). */
const GROUP_OF: Partial<Record<WorkKind, Group>> = { search: "page", report: "page", import: "import" };

type NodeRequest = {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { once(event: "close", fn: () => void): unknown; off(event: "close", fn: () => void): unknown } | null;
};

export type Admission =
  | { kind: "refuse"; status: number; headers: Record<string, string>; body: string }
  | { kind: "admit"; release: () => Promise<void> }
  | null;

/** The lease a request holds (its class, tenant and id), when this process set the header. */
export function heldWork(request: Request): { kind: WorkKind; tenantId: string; lease: string } | null {
  const value = request.headers.get(LEASE_HEADER);
  if (!value) return null;
  const [nonce, kind, tenantId, lease] = value.split(":");
  return nonce === NONCE && tenantId && lease ? { kind: kind as WorkKind, tenantId, lease } : null;
}

function refusal(rules: RouteRules, kind: WorkKind, query: URLSearchParams): Admission {
  const error = workBusy(kind);
  const requestId = randomUUID();
  const headers: Record<string, string> = {
    ...error.headers,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": requestId,
  };
  if (rules.reply === "json") {
    const body = JSON.stringify({
      success: false,
      error: { code: error.code, message: error.message, fields: {} },
      meta: { requestId },
    });
    return {
      kind: "refuse",
      status: 429,
      headers: { ...headers, "content-type": "application/json; charset=utf-8" },
      body,
    };
  }
  if (query.has("_data")) {
    // A page's data request (client-side navigation): a thrown Response for Remix's client.
    return {
      kind: "refuse",
      status: 429,
      headers: { ...headers, "content-type": "application/json; charset=utf-8", "x-remix-catch": "yes" },
      body: JSON.stringify({ message: error.message }),
    };
  }
  const text = error.message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const body =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Too many requests · Fieldwork</title></head><body><main><h1>Too many requests</h1><p>${text}</p>` +
    `<p>Wait a moment, then try again.</p></main></body></html>`;
  return {
    kind: "refuse",
    status: 429,
    headers: {
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    },
    body,
  };
}

/**
 * Takes the request's share when its route declares expensive work: null when there is none to
 * take (not that kind of request, or signed out: the route sends to sign-in), the refusal to
 * send, or the admission (the lease header is set on `req`; call `release` when it ends).
 */
export async function admitWork(req: NodeRequest, rules: RouteRules): Promise<Admission> {
  delete req.headers[LEASE_HEADER];
  if (!rules.work) return null;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const query = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
  const method = req.method ?? "GET";
  const kind = workKindFor(rules.work, query, method !== "GET" && method !== "HEAD");
  if (!kind) return null;
  const cookie = req.headers.cookie;
  const token = await sessionCookie().parse(typeof cookie === "string" ? cookie : null);
  const tenantId = typeof token === "string" ? sessionTenantOf(token) : null;
  if (!tenantId) return null;
  const group = GROUP_OF[kind];
  let freeSlot = group ? gate().tryTake(group, tenantId) : () => {};
  if (!freeSlot && group) {
    // Over the tenant's share: a page waits in its tenant's line (an import preview does not).
    const gone = new AbortController();
    const onClose = () => gone.abort();
    req.socket?.once("close", onClose);
    try {
      freeSlot = await gate().take(group, tenantId, { wait: group === "page", signal: gone.signal });
    } finally {
      req.socket?.off("close", onClose);
    }
    if (freeSlot && gone.signal.aborted) {
      // The client left while it waited: nobody is there to answer.
      freeSlot();
      freeSlot = null;
    }
  }
  if (!freeSlot) {
    workFigures().refusedEarly++;
    return refusal(rules, kind, query);
  }
  try {
    const user = await findSessionUser(token as string);
    if (!user || user.tenantId !== tenantId) {
      freeSlot();
      return null;
    }
    const lease = await claimWork(user.tenantId, user.id, kind);
    if (!lease) {
      freeSlot();
      workFigures().refusedEarly++;
      return refusal(rules, kind, query);
    }
    req.headers[LEASE_HEADER] = `${NONCE}:${kind}:${user.tenantId}:${lease}`;
    return {
      kind: "admit",
      release: () => {
        freeSlot();
        return releaseWork(user.tenantId, lease);
      },
    };
  } catch (error) {
    freeSlot();
    throw error;
  }
}
