import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { isAppError } from "~/utils/app-error";

/**
 * An HTML page's loader: an AppError a service throws (404 for another tenant's id, 403, 409)
 * becomes that status's error page in the layout, instead of a 500.
 */
export function pageLoader<T>(fn: (args: LoaderFunctionArgs) => Promise<T>) {
  return async (args: LoaderFunctionArgs): Promise<T> => {
    try {
      return await fn(args);
    } catch (error) {
      if (isAppError(error)) throw json({ message: error.message }, { status: error.status, headers: error.headers });
      throw error;
    }
  };
}
