import { serveApi, type ApiArgs, type ApiMethods } from "~/http/api.server";
import { heavyPageFigures } from "~/http/early-work.server";
import { ok } from "~/http/envelope.server";
import type { RouteRules } from "~/http/route-rules";
import { assertDatabaseAnswers } from "~/services/maintenance/health.server";
import { workFigures } from "~/services/limits/work.server";
import { poolFigures } from "~/services/work/pool.server";
import { keptPdfFigures } from "~/services/documents/pdf-kept.server";
import { keptMarkupFigures } from "~/services/schedule/kept-markup.server";
import { env } from "~/utils/env.server";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// Ready once the database answers; 503 otherwise. Outside production, `?figures=1` adds this
// server's counters of the CPU pool, the work shares, the kept PDFs and kept markup (what the fairness test checks).
const METHODS: ApiMethods = {
  GET: async ({ request }) => {
    await assertDatabaseAnswers();
    if (env().NODE_ENV !== "production" && new URL(request.url).searchParams.has("figures"))
      return ok(request, {
        status: "ok",
        pool: poolFigures(),
        shares: workFigures(),
        heavyPages: heavyPageFigures(),
        pdfs: keptPdfFigures(),
        markup: keptMarkupFigures(),
      });
    return ok(request, { status: "ok" });
  },
};

export const loader = (args: ApiArgs) => serveApi(METHODS, args);
export const action = loader;
