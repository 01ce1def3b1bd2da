import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/utils/app-error";
import { injectFault } from "~/utils/faults.server";
import { fail, toAppError } from "./envelope.server";

export type ApiArgs = LoaderFunctionArgs | ActionFunctionArgs;
type Args = ApiArgs;
type Handler = (args: Args) => Promise<Response> | Response;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ApiMethods = Partial<Record<Method, Handler>>;

/**
 * A JSON resource route: one handler per method; both `loader` and `action` dispatch here,
 * so a wrong method answers 405 with `Allow`, and anything thrown becomes the envelope.
 */
export function apiRoute(handlers: Partial<Record<Method, Handler>>) {
  const methods = Object.keys(handlers) as Method[];
  const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", ");
  const dispatch = async (args: Args): Promise<Response> => {
    const method = args.request.method.toUpperCase();
    const handler = handlers[method as Method] ?? (method === "HEAD" ? handlers.GET : undefined);
    try {
      if (!handler) {
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
  };
  return { loader: dispatch, action: dispatch };
}

const built = new WeakMap<ApiMethods, ReturnType<typeof apiRoute>>();

/**
 * A JSON route's `loader` and `action` exports: `(args) => serveApi(METHODS, args)`. The route
 * module is also loaded in the browser (for its `handle`), where this module is empty, so a
 * route builds nothing of it at import: the dispatcher is made at the first request.
 */
export function serveApi(methods: ApiMethods, args: ApiArgs): Promise<Response> {
  let route = built.get(methods);
  if (!route) built.set(methods, (route = apiRoute(methods)));
  return route.action(args);
}
