/**
 * build/index.js, the module `remix-serve build/index.js` loads: Remix's own server build,
 * with every route's loader and action run through the app's boundary (page errors, the JSON
 * envelope, the Origin check, request id and security headers: app/http/page.server.ts).
 * Remix has no hook for a resource route's answer or for a typed error on a page, so the
 * boundary is applied here, once, to the routes (docs/decisions/111). Nothing else differs
 * from the standard build. The configuration is checked as the build loads, so a bad variable
 * stops remix-serve at start with its name.
 *
 * The build runs only inside the serving process that scripts/serve-hooks.mjs prepared (the
 * peer address, the early cross-site refusal): without it the server stops at once with a
 * message, so a client's header can never stand in for the peer address (docs/decisions/266).
 * It registers with that process what the early checks need (each URL's route rules) and the
 * background work the process starts once it listens (startBackground): importing the build
 * starts nothing by itself.
 */
import * as build from "@remix-run/dev/server-build";
import { withBoundary } from "~/http/page.server";
import { routeRulesFinder } from "~/http/route-rules";
import { admitWork } from "~/http/early-work.server";
import { configureDb } from "../db/index";
import { ConfigError, databaseOptions, env } from "~/utils/env.server";
import { startCleanupSchedule } from "~/services/maintenance/cleanup.server";
import { startMessageWorker } from "~/services/messages/worker.server";
import { startReminderSchedule } from "~/services/messages/reminders.server";
import { startVisitHorizon } from "~/services/visits/series.server";

type ServeHooks = {
  register(app: {
    rulesFor: ReturnType<typeof routeRulesFinder>;
    startBackground: () => void;
    admitWork: typeof admitWork;
  }): void;
};
const hooks = (globalThis as { [key: symbol]: ServeHooks | undefined })[Symbol.for("fieldwork.serve-hooks")];
if (!hooks) {
  console.error(
    "The server must start with its preload: NODE_OPTIONS=--import=./scripts/serve-hooks.mjs remix-serve build/index.js " +
      "(`npm start` and `npm run dev` set it). Without it the peer address and the cross-site checks are missing; not starting.",
  );
  process.exit(1);
}

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
/** The background work of each app server, after the database is configured (above). */
function startBackground() {
  // Each app server ticks the cleanup; the database makes it run once per interval (decision 102).
  startCleanupSchedule();
  // Each app server delivers the e-mail outbox when SMTP_URL is set (decision 141).
  startMessageWorker();
  startReminderSchedule();
  // Each app server ticks; the database makes the visit horizon run once a day
  // (docs/decisions/315-recurring-visits.md).
  startVisitHorizon();
}

hooks.register({ rulesFor: routeRulesFinder(build.routes), startBackground, admitWork });
