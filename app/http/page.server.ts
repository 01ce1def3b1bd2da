import { json, type ServerBuild } from "@remix-run/node";
import { isAppError } from "~/utils/app-error";
import { isDbUnavailable, toAppError } from "./envelope.server";

/**
 * Runs an HTML page's loader or action: an AppError a service throws (404 for another
 * tenant's id, 403, 409) becomes that status's error page in the layout, instead of a 500;
 * so does a database that cannot be reached or a pool with no free connection (503,
 * docs/decisions/081). Applied to every page route by `withOutagePages`, not by the routes.
 */
async function asPage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const e = isAppError(error) ? error : isDbUnavailable(error) ? toAppError(error) : undefined;
    if (e) throw json({ message: e.message }, { status: e.status, headers: e.headers });
    throw error;
  }
}

/**
 * Every page route's loader and action run through `asPage`, given to Remix once in
 * server.ts, so no route can forget it: a database that goes away between two loaders of one
 * page (the root's and the route's) still gives the 503 page with its message. JSON routes
 * (/api, the assistant's endpoint, /healthz) answer their own envelope and are left alone.
 */
export function withOutagePages(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const jsonRoute = id.startsWith("routes/api.") || id === "routes/ai-assistant.generate" || id === "routes/healthz";
    const { loader, action } = route.module;
    routes[id] = jsonRoute
      ? route
      : {
          ...route,
          module: {
            ...route.module,
            loader: loader && ((args) => asPage(async () => loader(args))),
            action: action && ((args) => asPage(async () => action(args))),
          },
        };
  }
  return { ...build, routes };
}
