import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/http/envelope.server";
import { AppError } from "~/utils/app-error";
import type { RouteRules } from "~/http/route-rules";

// This route's rules for the boundary and the early checks (docs/decisions/265).
export const handle: RouteRules = { reply: "json" };

// Every unknown /api path, the bare /api included, with any method: the 404 envelope
//. Remix ranks this splat below every registered /api route.
// One error for every answer: it is only read (an Error made per request costs its stack trace).
const NO_SUCH_ROUTE = new AppError("NOT_FOUND", "There is no such API route.");
const notFound = ({ request }: LoaderFunctionArgs) => fail(request, NO_SUCH_ROUTE);

export const loader = notFound;
export const action = notFound;
