import { randomUUID } from "node:crypto";
import type { TypedResponse } from "@remix-run/node";
import { ZodError } from "zod";
import { AppError, isAppError, type FieldErrors } from "~/utils/app-error";
import { log } from "~/utils/log.server";

export const REQUEST_ID_HEADER = "x-request-id";
const REQUEST_ID_RE = /^[\w.:-]{1,100}$/;

/**
 * The request's id: the client's own `X-Request-Id` when well-formed, else a new one. It is
 * written back into the request's headers, so every later reader of this request (the loader,
 * the envelope, entry.server's headers, the logs) sees the same id.
 */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get(REQUEST_ID_HEADER);
  if (sent && REQUEST_ID_RE.test(sent)) return sent;
  const id = randomUUID();
  try {
    request.headers.set(REQUEST_ID_HEADER, id);
  } catch {
    // Immutable headers (a request made by hand in a test): the id is this call's only.
  }
  return id;
}

// The session cookie's name in production (`__Host-session`) and elsewhere (`__session`).
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-session|__session)=/;

/** Whether the request carries a session cookie (signed in, or was). */
export const hasSessionCookie = (request: Request) => SESSION_COOKIE.test(request.headers.get("cookie") ?? "");

/**
 * How a signed-in answer may be cached: nowhere. A shared cache or the back button
 * must not show one person's records to the next user of the machine. Every answer to a
 * request with a session cookie whose route set no Cache-Control of its own carries it (pages
 * and data requests in withAppHeaders, the JSON envelope here).
 */
export const PRIVATE_NO_STORE = "private, no-store";

/** The success envelope of the specification. */
export function ok<T>(request: Request, data: T, init: ResponseInit & { meta?: Record<string, unknown> } = {}) {
  const { meta, ...rest } = init;
  return jsonWithLength(
    { success: true as const, data, meta: { requestId: requestIdOf(request), ...meta } },
    { ...rest, headers: withNoStore(request, rest.headers) },
  );
}

/** The error envelope; `error.fields` is always an object. */
export function fail(request: Request, error: AppError) {
  return jsonWithLength(
    {
      success: false as const,
      error: { code: error.code, message: error.message, fields: error.fields },
      meta: { requestId: requestIdOf(request) },
    },
    { status: error.status, headers: withNoStore(request, error.headers) },
  );
}

function withNoStore(request: Request, headers?: HeadersInit) {
  const h = new Headers(headers);
  if (!h.has("Cache-Control")) h.set("Cache-Control", hasSessionCookie(request) ? PRIVATE_NO_STORE : "no-store");
  return h;
}

/**
 * Remix's `json()` with the body's length said: the answer then goes out in one write
 * (no chunked encoding and its closing write), and remix-serve's compression leaves an
 * envelope under its 1 KB threshold alone instead of gzipping 200 bytes (docs/decisions/114).
 */
function jsonWithLength<T>(data: T, init: ResponseInit & { headers: Headers }): TypedResponse<T> {
  const body = JSON.stringify(data);
  if (!init.headers.has("Content-Type")) init.headers.set("Content-Type", "application/json; charset=utf-8");
  init.headers.set("Content-Length", String(Buffer.byteLength(body)));
  return new Response(body, init) as TypedResponse<T>;
}

/** Maps anything thrown to an AppError; unexpected errors are logged and hidden. */
export function toAppError(error: unknown, request?: Request): AppError {
  if (isAppError(error)) return error;
  if (error instanceof ZodError)
    return new AppError("VALIDATION_FAILED", "Some fields are not valid.", { fields: zodFields(error) });
  if (isDbUnavailable(error)) {
    log.error("database unavailable", { requestId: request && requestIdOf(request), error: String(error) });
    // A database failure answers 503 with the code INTERNAL_ERROR.
    return new AppError("INTERNAL_ERROR", "The service is briefly unavailable. Please retry.", {
      status: 503,
      headers: { "Retry-After": "2" },
    });
  }
  if (isStatementTimeout(error)) {
    log.info("statement timeout", { requestId: request && requestIdOf(request), error: String(error) });
    // A query past its request class's statement timeout (docs/decisions/193).
    return new AppError(
      "INTERNAL_ERROR",
      "This took too long and was stopped. Try again, or narrow it down (a longer search, a shorter period).",
      {
        status: 503,
        headers: { "Retry-After": "5" },
      },
    );
  }
  log.error("unexpected error", { requestId: request && requestIdOf(request), error });
  return new AppError(
    "INTERNAL_ERROR",
    "Something went wrong on our side. Please retry; if it persists, contact support.",
  );
}

// What node-postgres says, with no SQLSTATE, when the connection under a query went away
// (the server was stopped or restarted, the network dropped it) or timed out while connecting.
const PG_CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|Connection ended)/;

/**
 * Connection-level database failures answer 503 rather than 500 (the client may retry): the
 * database cannot be reached, is shutting down or starting up (57P0x), dropped the connection
 * (08xxx, or node-postgres's "Connection terminated" without a code), or the pool had no free
 * connection within DB_POOL_ACQUIRE_MS (docs/decisions/081).
 */
export function isDbUnavailable(error: unknown): boolean {
  type PgLike = { code?: string; message?: string };
  const e = error as { name?: string; original?: PgLike; parent?: PgLike } & PgLike;
  const name = e?.name ?? "";
  if (
    /Sequelize(Connection\w*|HostNotReachable|HostNotFound|AccessDenied)Error|ConnectionAcquireTimeoutError/.test(name)
  )
    return true;
  const code = e?.original?.code ?? e?.parent?.code ?? e?.code;
  if (typeof code === "string")
    return /^(57P0[1-3]|08\w{3})$/.test(code) || ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code);
  const message = e?.original?.message ?? e?.parent?.message ?? e?.message;
  return typeof message === "string" && PG_CONNECTION_LOST.test(message);
}

/** PostgreSQL cancelled the statement (57014): its statement timeout passed. */
export function isStatementTimeout(error: unknown): boolean {
  const e = error as { original?: { code?: string }; parent?: { code?: string }; code?: string };
  return (e?.original?.code ?? e?.parent?.code ?? e?.code) === "57014";
}

export function zodFields(error: ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_form";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}
