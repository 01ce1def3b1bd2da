/**
 * build/index.js, the module `remix-serve build/index.js` loads: Remix's own server build,
 * with every route's loader and action run through the app's boundary (page errors, the JSON
 * envelope, the Origin check, request id and security headers: app/http/page.server.ts).
 * Remix has no hook for a resource route's answer or for a typed error on a page, so the
 * boundary is applied here, once, to the routes (docs/decisions/111). Nothing else differs
 * from the standard build. The configuration is checked as the build loads, so a bad variable
 * stops remix-serve at start with its name.
 */
import * as build from "@remix-run/dev/server-build";
import { withBoundary } from "~/http/page.server";
import { configureDb } from "../db/index";
import { ConfigError, databaseOptions, env } from "~/utils/env.server";

try {
  // The database as this server's configuration says (the app role under `npm start`).
  const database = databaseOptions(env());
  if (database) configureDb(database);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

export * from "@remix-run/dev/server-build";
export const routes = withBoundary(build.routes);
