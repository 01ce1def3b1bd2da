import { serveApi, type ApiArgs, type ApiMethods } from "~/http/api.server";
import { ok } from "~/http/envelope.server";
import type { RouteRules } from "~/http/route-rules";
import { assertDatabaseAnswers } from "~/services/maintenance/health.server";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// Ready once the database answers; 503 otherwise.
const METHODS: ApiMethods = {
  GET: async ({ request }) => {
    await assertDatabaseAnswers();
    return ok(request, { status: "ok" });
  },
};

export const loader = (args: ApiArgs) => serveApi(METHODS, args);
export const action = loader;
