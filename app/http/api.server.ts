import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/utils/app-error";
import { injectFault } from "~/utils/faults.server";
import { fail, toAppError } from "./envelope.server";

export type ApiArgs = LoaderFunctionArgs | ActionFunctionArgs;
type Handler = (args: ApiArgs) => Promise<Response> | Response;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ApiMethods = Partial<Record<Method, Handler>>;

/**
 * A JSON route's `loader` and `action` exports: `(args) => serveApi(METHODS, args)`, one handler
 * per method, so a wrong method answers 405 with `Allow`, and anything thrown becomes the
 * envelope. The route module is also loaded in the browser (for its `handle`), where this module
 * is empty, so a route calls it only inside its exports, never at its top level.
 */
export async function serveApi(handlers: ApiMethods, args: ApiArgs): Promise<Response> {
  const method = args.request.method.toUpperCase();
  const handler = handlers[method as Method] ?? (method === "HEAD" ? handlers.GET : undefined);
  try {
    if (!handler) {
      const methods = Object.keys(handlers) as Method[];
      const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", ");
      throw new AppError("METHOD_NOT_ALLOWED", `${method} is not allowed here. Allowed: ${allow}.`, {
        headers: { Allow: allow },
      });
    }
    injectFault(`api:${new URL(args.request.url).pathname}`);
    return await handler(args);
  } catch (error) {
    if (error instanceof Response) return error;
    return fail(args.request, toAppError(error, args.request));
  }
}
