import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { serveApi, type ApiMethods } from "~/http/api.server";
import { LIMITS, readBodyLimited } from "~/http/body.server";
import { fail, ok } from "~/http/envelope.server";
import { billingConfig, isBillingProvider, pricePlansVariable, secretVariable } from "~/utils/billing-config";
import { receiveBillingEvent, SIGNATURE_HEADER } from "~/services/billing/intake.server";
import { AppError } from "~/utils/app-error";
import { log } from "~/utils/log.server";
import { billingVariables, env } from "~/utils/env.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { csrf: "signature", reply: "json" };

// POST /api/billing/<provider>/webhook (operator notes in docs/billing.md).
// No login: the provider's signature is the only authentication.
const METHODS: ApiMethods = {
  POST: async ({ request, params }) => {
    const provider = params.provider;
    if (!isBillingProvider(provider)) throw unknownProvider();
    // The configuration the server runs with (checked at start).
    const config = billingConfig(provider, billingVariables(env()));
    if (!config.enabled) {
      if (config.problem) log.error("billing provider misconfigured", { provider, problem: config.problem });
      throw new AppError(
        "BILLING_DISABLED",
        `Billing with ${provider} is not configured on this server (${secretVariable(provider)} and ${pricePlansVariable(provider)}).`,
      );
    }
    const rawBody = await readBodyLimited(request, LIMITS.billingWebhook);
    const result = await receiveBillingEvent({
      provider,
      secrets: config.secrets,
      pricePlans: config.pricePlans,
      rawBody,
      signature: request.headers.get(SIGNATURE_HEADER[provider]),
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    return ok(request, result);
  },
};

const unknownProvider = () => new AppError("NOT_FOUND", "There is no such billing provider.");

// An unknown provider is an unknown /api path: 404 for every method, not 405.
function dispatch(args: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!isBillingProvider(args.params.provider)) return fail(args.request, unknownProvider());
  return serveApi(METHODS, args);
}

export const loader = dispatch;
export const action = dispatch;
