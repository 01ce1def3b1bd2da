import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { portalFormAction, portalFormLoader } from "~/http/portal.server";
import { recordSandboxPayment } from "~/services/portal/actions.server";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { csrf: "portal-token" };

// POST /api/portal/invoice-payment: a portal form. Answers a 303 back to the hub
// or the hub with the error; the page parts are shared by the three form routes.
export { links, headers, meta, shouldRevalidate, ErrorBoundary, default } from "~/components/portal/form-route";

export const loader = ({ request }: LoaderFunctionArgs) => portalFormLoader(request);

export const action = ({ request }: ActionFunctionArgs) => portalFormAction(request, "payment", recordSandboxPayment);
