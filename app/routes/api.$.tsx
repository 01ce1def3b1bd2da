import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail } from "~/http/envelope.server";
import { AppError } from "~/utils/app-error";
import { UNKNOWN_API_MESSAGE } from "~/http/api-routes.server";

// Every unknown /api/* path, for every method, signed in or not. The planned REST routes of
// the specification (section 4.4: /api/clients, /api/jobs, /api/auth/token ...) are not
// registered, so they land here too.
export async function loader({ request }: LoaderFunctionArgs) {
  return fail(request, new AppError("NOT_FOUND", UNKNOWN_API_MESSAGE));
}

export const action = loader;
