import { matchRoutes } from "@remix-run/react";
import type { WorkKind } from "~/services/limits/work.server";

/**
 * A route's rules, declared in its own `handle` export (docs/decisions/265) and read from
 * there by the boundary (app/http/page.server.ts) and by the serving process's early checks
 * (scripts/serve-hooks.mjs, through the build's registration in app/server.ts):
 *
 * - `csrf`: how a state-changing request proves it comes from the app's own pages. Unset, it
 *   carries the CSRF token and a same-site Origin; `"portal-token"` (the customer portal's
 *   signed token) and `"signature"` (a signed webhook, or a signed URL such as the reminders'
 *   one-click unsubscribe) authenticate without either.
 * - `reply: "json"`: every answer is the JSON envelope, errors and refusals included; unset,
 *   the route answers pages (errors become the layout's error page).
 * - `work`: the class of expensive work the route does (services/limits/work.server.ts says
 *   which requests of a class take a share: a search only with `q`, an import on its POST).
 */
export type RouteRules = {
  csrf?: "portal-token" | "signature";
  reply?: "json";
  work?: WorkKind;
};

/** What a route module exports as `handle`, for the rules' sake. */
export const rulesOf = (handle: unknown): RouteRules =>
  handle && typeof handle === "object" ? (handle as RouteRules) : {};

/** A route of the server build, as much of it as matching a URL needs. */
type BuildRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: { handle?: unknown };
};

type Tree = NonNullable<Parameters<typeof matchRoutes>[0]>[number];

/**
 * The rules of the route a URL path reaches, found by the router's own matching over the
 * build's routes (the deepest match decides, as for the request itself). Used by the serving
 * process before Remix runs. Most paths reach a route without rules: they are told apart by a
 * match over only the routes that declare some (and their parents), which is small; a hit there
 * is confirmed over the whole tree, as a route without rules may outrank it.
 */
export function routeRulesFinder(routes: Record<string, BuildRoute>): (pathname: string) => RouteRules {
  const byParent = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(routes)) {
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const declares = (r: BuildRoute) => Object.keys(rulesOf(r.module.handle)).length > 0;
  const keep = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!declares(route)) continue;
    for (let r: BuildRoute | undefined = route; r && !keep.has(r.id); r = r.parentId ? routes[r.parentId] : undefined)
      keep.add(r.id);
  }
  const tree = (parentId: string | undefined, only?: Set<string>): Tree[] =>
    (byParent.get(parentId) ?? [])
      .filter((r) => !only || only.has(r.id))
      .map((r): Tree =>
        r.index
          ? { id: r.id, path: r.path, index: true, caseSensitive: r.caseSensitive }
          : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: tree(r.id, only) },
      );
  const all = tree(undefined);
  const declaring = tree(undefined, keep);
  const leafOf = (roots: Tree[], pathname: string) => {
    const matches = matchRoutes(roots, pathname);
    return matches?.[matches.length - 1]?.route.id;
  };
  const find = (pathname: string): RouteRules => {
    const candidate = leafOf(declaring, pathname);
    if (!candidate) return {};
    const id = leafOf(all, pathname);
    return id ? rulesOf(routes[id]?.module.handle) : {};
  };
  // The router's matching compiles a pattern per route it tries and ranks the whole tree on each
  // call: on a busy server that was a sixth of the request thread's work, for every request. The
  // answer depends only on the path, and ids (UUIDs) never decide which route a path reaches
  // (no route has one as a literal segment), so answers are kept per path with its ids replaced
  // by one, up to a bound (the oldest go first).
  const known = new Map<string, RouteRules>();
  return (pathname) => {
    const key = pathname.replace(UUID_SEGMENT, "/0");
    let rules = known.get(key);
    if (!rules) {
      rules = find(pathname);
      if (known.size >= KNOWN_PATHS) known.delete(known.keys().next().value as string);
      known.set(key, rules);
    }
    return rules;
  };
}

/** How many paths' rules the finder keeps. */
const KNOWN_PATHS = 2_000;
const UUID_SEGMENT = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;
