import { AppError } from "~/utils/app-error";
import { fail } from "./envelope.server";
import { UNKNOWN_API_MESSAGE } from "./api-routes.server";

const MESSAGES: Record<number, [AppError["code"], string]> = {
  400: ["BAD_REQUEST", "The request could not be read."],
  404: ["NOT_FOUND", UNKNOWN_API_MESSAGE],
  405: ["METHOD_NOT_ALLOWED", "This method is not allowed here."],
  413: ["PAYLOAD_TOO_LARGE", "The request body is too large."],
};

/**
 * The boundary's last guard: an /api/* answer that is not JSON (Remix's default text for a
 * crash, a wrong method or an unmatched route) becomes the envelope. The portal form routes
 * are the specification's one exception: they answer redirects and HTML.
 */
export async function apiFallback(request: Request, response: Response): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith("/api/") || pathname.startsWith("/api/portal/")) return response;
  if (response.status < 400 || (response.headers.get("content-type") ?? "").includes("application/json")) {
    return response;
  }
  const [code, message] = MESSAGES[response.status] ?? ["INTERNAL_ERROR", "Something went wrong on our side."];
  await response.body?.cancel().catch(() => {});
  return fail(request, new AppError(code, message, { status: response.status >= 500 ? 500 : response.status }));
}
