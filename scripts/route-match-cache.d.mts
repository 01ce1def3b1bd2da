/** The router's source with the route-matching caches, or null when it is not the expected text. */
export function patchRouterSource(source: string): string | null;
/** Patches @remix-run/router as it is compiled (CommonJS require) in this process. */
export function installRouteMatchCache(): void;
