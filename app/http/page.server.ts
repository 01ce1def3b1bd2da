import { json } from "@remix-run/node";
import { isAppError } from "~/utils/app-error";

/**
 * Runs an HTML page's loader body: an AppError a service throws (404 for another tenant's
 * id, 403, 409) becomes that status's error page in the layout, instead of a 500.
 * (Called inside `export async function loader`, never at module level: the browser build
 * drops the loader, but not a module-level call to this server-only helper.)
 */
export async function asPage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error)) throw json({ message: error.message }, { status: error.status, headers: error.headers });
    throw error;
  }
}
