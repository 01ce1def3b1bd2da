import { serveApi, type ApiArgs, type ApiMethods } from "~/http/api.server";
import { LIMITS, readJson } from "~/http/body.server";
import { assertSameOrigin } from "~/http/csrf.server";
import { ok, zodFields } from "~/http/envelope.server";
import { MAX_MUTATIONS } from "~/services/field/protocol";
import { pushSchema } from "~/services/field/mutation-schemas";
import { pushMutations } from "~/services/field/push.server";
import { AppError, validationFailed } from "~/utils/app-error";
import { actorOf, requireApiUser } from "~/http/auth.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// POST /api/offline-sync: the push of queued field actions (docs/offline-sync.md).
const METHODS: ApiMethods = {
  async POST({ request }) {
    const user = await requireApiUser(request, "use_offline_workflow");
    // JSON only: a cross-site form cannot send it, and the body is never read otherwise.
    const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json") {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the mutations as JSON with Content-Type: application/json.");
    }
    assertSameOrigin(request);
    const body = await readJson(request, LIMITS.offlineSync);
    const mutations = (body as { mutations?: unknown } | null)?.mutations;
    if (Array.isArray(mutations) && mutations.length > MAX_MUTATIONS) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `At most ${MAX_MUTATIONS} mutations per request; send the rest in the next one.`,
      );
    }
    const push = pushSchema.safeParse(body);
    if (!push.success) throw validationFailed(zodFields(push.error));
    return ok(request, await pushMutations(actorOf(user), push.data));
  },
};

export const loader = (args: ApiArgs) => serveApi(METHODS, args);
export const action = loader;
