import { apiRoute } from "~/http/api.server";
import { ok } from "~/http/envelope.server";
import { AppError } from "~/utils/app-error";
import { one } from "../../db/index";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// Ready once the database answers; 503 otherwise.
export const { loader, action } = apiRoute({
  GET: async ({ request }) => {
    try {
      await one("SELECT 1");
    } catch {
      throw new AppError("INTERNAL_ERROR", "The database is not answering.", { status: 503 });
    }
    return ok(request, { status: "ok" });
  },
});
