import { json, type ServerBuild } from "@remix-run/node";
import { AppError, isAppError } from "~/utils/app-error";
import { getCurrentUser } from "~/http/auth.server";
import { passThroughHeaders } from "~/utils/route-headers";
import { withHeldWork, withWork, workKindOf } from "~/services/limits/work.server";
import { heldWork } from "./early-work.server";
import { assertSameOrigin } from "./csrf.server";
import { fail, isDbUnavailable, isStatementTimeout, toAppError } from "./envelope.server";
import { withAppHeaders } from "./security-headers.server";
import { rulesOf } from "./route-rules";

type Route = ServerBuild["routes"][string];
type Fn = NonNullable<Route["module"]["loader"]>;
type Args = Parameters<Fn>[0];

/**
 * Runs an HTML page's loader or action: an AppError a service throws (404 for another
 * tenant's id, 403, 409) becomes that status's error page in the layout, instead of a 500;
 * so does a database that cannot be reached or a pool with no free connection (503,
 * docs/decisions/081).
 */
async function asPage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const e = isAppError(error)
      ? error
      : isDbUnavailable(error) || isStatementTimeout(error)
        ? toAppError(error)
        : undefined;
    if (e) throw json({ message: e.message }, { status: e.status, headers: e.headers });
    throw error;
  }
}

const MESSAGES: Record<number, [AppError["code"], string]> = {
  400: ["BAD_REQUEST", "The request could not be read."],
  404: ["NOT_FOUND", "There is no such API route."],
  405: ["METHOD_NOT_ALLOWED", "This method is not allowed here."],
  413: ["PAYLOAD_TOO_LARGE", "The request body is too large."],
};

/**
 * The last guard of a JSON route: whatever it throws, and any answer of 400 or more that is
 * not JSON, becomes the envelope.
 */
async function asEnvelope(request: Request, fn: () => Promise<unknown>): Promise<unknown> {
  let response: unknown;
  try {
    response = await fn();
  } catch (error) {
    if (!(error instanceof Response)) return fail(request, toAppError(error, request));
    response = error;
  }
  if (
    !(response instanceof Response) ||
    response.status < 400 ||
    (response.headers.get("content-type") ?? "").includes("application/json")
  ) {
    return response;
  }
  const [code, message] = MESSAGES[response.status] ?? ["INTERNAL_ERROR", "Something went wrong on our side."];
  await response.body?.cancel().catch(() => {});
  return fail(request, new AppError(code, message, { status: response.status >= 500 ? 500 : response.status }));
}

/** Adds the request id and security headers to a Response a loader or action returns or throws. */
async function withHeaders(request: Request, fn: () => Promise<unknown>): Promise<unknown> {
  try {
    const result = await fn();
    return result instanceof Response ? withAppHeaders(request, result) : result;
  } catch (error) {
    throw error instanceof Response ? withAppHeaders(request, error) : error;
  }
}

/**
 * Every route's loader and action run through the app's boundary, applied once to the build
 * (app/server.ts) so no route can forget it: a state-changing request from another site is
 * refused (403), an outage or an AppError on a page is its error page, a JSON route always
 * answers the envelope, and every answer carries the request id and security headers.
 * docs/decisions/111.
 */
export function withBoundary(routes: ServerBuild["routes"]): ServerBuild["routes"] {
  const out: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(routes)) {
    // The route's own rules (its `handle`): docs/decisions/265.
    const rules = rulesOf(route.module.handle);
    const json = rules.reply === "json";
    const wrap = (fn: Fn | undefined, isAction: boolean): Fn | undefined => {
      if (!fn) return fn;
      return ((args: Args) =>
        withHeaders(args.request, () => {
          const run = async () => {
            if (isAction && !rules.csrf) assertSameOrigin(args.request);
            // Expensive work (a search, a report, an import) runs within the tenant's and the
            // user's share (docs/decisions/193); signed out, the route sends to sign-in itself.
            const kind = workKindOf(rules.work, args.request, isAction);
            // Usually the serving process took the share already, before Remix ran (decision 331).
            const held = kind ? heldWork(args.request) : null;
            if (held && held.kind === kind) return withHeldWork(held, async () => fn(args));
            const user = kind ? await getCurrentUser(args.request) : null;
            if (kind && user) return withWork({ tenantId: user.tenantId, userId: user.id }, kind, async () => fn(args));
            return fn(args);
          };
          return json ? asEnvelope(args.request, run) : asPage(run);
        })) as Fn;
    };
    const { loader, action } = route.module;
    // A page's own Retry-After, Cache-Control and the like reach its document (a 429 page's
    // Retry-After above all); Remix passes only Set-Cookie from a route without `headers`.
    const headers = route.module.headers ?? (json ? undefined : passThroughHeaders);
    out[id] = {
      ...route,
      module: { ...route.module, headers, loader: wrap(loader, false), action: wrap(action, true) },
    };
  }
  return out;
}

/** The page part of the boundary alone (unit tests). */
export function withOutagePages(build: ServerBuild): ServerBuild {
  return { ...build, routes: withBoundary(build.routes) };
}
