import type { ServerBuild } from "@remix-run/node";

/**
 * The registered /api routes, read once from the build's route manifest. An /api path none of
 * them matches is answered by the server itself with the 404 envelope, before Remix: the
 * envelope boundary costs no route matching, loader call or Fetch API Response (Remix
 * flattens and ranks every route on each request, most of the cost of an unknown path).
 * (Should an /api request still reach Remix unmatched, apiFallback turns its 404 into the
 * same envelope.)
 */
export function knownApiPath(routes: ServerBuild["routes"]): (pathname: string) => boolean {
  const fullPath = (id: string): string => {
    const route = routes[id];
    if (!route) return "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  const patterns: RegExp[] = [];
  for (const id of Object.keys(routes)) {
    const path = fullPath(id);
    if (!path.startsWith("api/")) continue;
    const source = path
      .split("/")
      .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
      .join("/");
    // Remix matches case-insensitively and ignores a trailing slash.
    patterns.push(new RegExp(`^/${source}/?$`, "i"));
  }
  return (pathname) => patterns.some((p) => p.test(pathname));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const UNKNOWN_API_MESSAGE = "There is no such API route.";

/** The bytes of the 404 envelope for an unknown /api path. */
export function unknownApiBody(requestId: string): string {
  return JSON.stringify({
    success: false,
    error: { code: "NOT_FOUND", message: UNKNOWN_API_MESSAGE, fields: {} },
    meta: { requestId },
  });
}
