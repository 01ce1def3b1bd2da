import { json } from "@remix-run/node";
import { ZodError } from "zod";
import { AppError, isAppError, type FieldErrors } from "~/utils/app-error";
import { log } from "~/utils/log.server";

export const REQUEST_ID_HEADER = "x-request-id";

export function requestIdOf(request: Request): string {
  return request.headers.get(REQUEST_ID_HEADER) ?? "";
}

/** The success envelope of the specification. */
export function ok<T>(request: Request, data: T, init: ResponseInit & { meta?: Record<string, unknown> } = {}) {
  const { meta, ...rest } = init;
  return json(
    { success: true as const, data, meta: { requestId: requestIdOf(request), ...meta } },
    { ...rest, headers: withNoStore(rest.headers) },
  );
}

/** The error envelope; `error.fields` is always an object. */
export function fail(request: Request, error: AppError) {
  return json(
    {
      success: false as const,
      error: { code: error.code, message: error.message, fields: error.fields },
      meta: { requestId: requestIdOf(request) },
    },
    { status: error.status, headers: withNoStore(error.headers) },
  );
}

function withNoStore(headers?: HeadersInit) {
  const h = new Headers(headers);
  if (!h.has("Cache-Control")) h.set("Cache-Control", "no-store");
  return h;
}

/** Maps anything thrown to an AppError; unexpected errors are logged and hidden. */
export function toAppError(error: unknown, request?: Request): AppError {
  if (isAppError(error)) return error;
  if (error instanceof ZodError) return new AppError("VALIDATION_FAILED", "Some fields are not valid.", { fields: zodFields(error) });
  if (isDbUnavailable(error)) {
    log.error("database unavailable", { requestId: request && requestIdOf(request), error: String(error) });
    // CONTRACT section 7: a database failure answers 503 with the code INTERNAL_ERROR.
    return new AppError("INTERNAL_ERROR", "The service is briefly unavailable. Please retry.", {
      status: 503,
      headers: { "Retry-After": "2" },
    });
  }
  log.error("unexpected error", { requestId: request && requestIdOf(request), error });
  return new AppError("INTERNAL_ERROR", "Something went wrong on our side. Please retry; if it persists, contact support.");
}

/** Connection-level database failures answer 503 rather than 500 (the client may retry). */
export function isDbUnavailable(error: unknown): boolean {
  const e = error as { name?: string; original?: { code?: string }; parent?: { code?: string }; code?: string };
  const name = e?.name ?? "";
  if (/Sequelize(Connection\w*|HostNotReachable|HostNotFound|AccessDenied)Error|ConnectionAcquireTimeoutError/.test(name)) return true;
  const code = e?.original?.code ?? e?.parent?.code ?? e?.code;
  return typeof code === "string" && (/^(57P0[1-3]|08\w{3})$/.test(code) || ["ECONNREFUSED", "ECONNRESET", "EPIPE"].includes(code));
}

export function zodFields(error: ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_form";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}
