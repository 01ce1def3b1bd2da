import { redirect } from "@remix-run/node";
import { serveApi, type ApiArgs, type ApiMethods } from "~/http/api.server";
import { LIMITS, readForm } from "~/http/body.server";
import { assertCsrf } from "~/http/csrf.server";
import { ok } from "~/http/envelope.server";
import { prefersHtml } from "~/http/negotiate.server";
import { generateFromForm, keepForNextPage } from "~/services/assistant/assistant.server";
import { validationFailed } from "~/utils/app-error";
import { requireApiUser } from "~/http/auth.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

/**
 * POST /ai-assistant/generate. A JavaScript client gets the envelope;
 * a browser form post without JavaScript (Accept prefers text/html) gets a 303 back to the
 * page, which shows the answer kept in the session flash. Session lookup is the only query
 * on the JSON path: the engine is pure and in memory.
 */
const METHODS: ApiMethods = {
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "use_ai_assistant");
    const form = await readForm(request, LIMITS.form);
    await assertCsrf(request, form);
    const result = generateFromForm(Object.fromEntries(form));
    if (prefersHtml(request)) {
      await keepForNextPage(user, result);
      return redirect("/ai-assistant", { status: 303, headers: { "Cache-Control": "no-store" } });
    }
    if (!result.ok) throw validationFailed(result.fields);
    return ok(request, result.data);
  },
};

// The browser build loads this module for its `handle` (a fetcher posts here), with the
// server-only imports empty: nothing of the server may run at the module's top level.
export const loader = (args: ApiArgs) => serveApi(METHODS, args);
export const action = loader;
