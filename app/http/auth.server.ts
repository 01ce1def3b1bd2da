import { json, redirect } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { AppError } from "../utils/app-error";
import { readCookie, sessionCookie } from "../utils/cookies.server";
import { can, ROLE_PERMISSIONS, type Permission } from "../utils/permissions";
import type { CurrentUser } from "~/services/accounts/actor";
import { createSession, deleteSession, findSessionUser } from "~/services/accounts/sessions.server";

export { actorOf, type Actor, type CurrentUser } from "~/services/accounts/actor";

// One lookup per request, however many loaders ask.
const cache = new WeakMap<object, Promise<CurrentUser | null>>();
// The cookie's signature is checked once per request too (the user lookup and CSRF both need it).
const tokens = new WeakMap<object, Promise<string | null>>();

/**
 * What one HTTP request's lookups are kept under. Remix hands every loader its own copy of the
 * Request (server-runtime strips `?index` / `?_data` into a new Request per loader), so the
 * copies of a page's loaders are told apart from other requests by the AbortSignal they all
 * share; the root's and the page's loaders then make one session lookup instead of one each.
 * An action keeps its own Request as the key: the loaders that render after it look the
 * session up again and see what the action changed.
 */
function requestKey(request: Request): object {
  return (request.method === "GET" || request.method === "HEAD") && request.signal ? request.signal : request;
}

export function sessionTokenOf(request: Request): Promise<string | null> {
  const key = requestKey(request);
  let token = tokens.get(key);
  if (!token) {
    token = readCookie(sessionCookie(), request);
    tokens.set(key, token);
  }
  return token;
}

export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  const key = requestKey(request);
  let found = cache.get(key);
  if (!found) {
    found = sessionTokenOf(request).then(async (token) => {
      const user = await findSessionUser(token);
      return user && { ...user, permissions: [...ROLE_PERMISSIONS[user.role]] };
    });
    cache.set(key, found);
  }
  return found;
}

/**
 * Same-site paths only: anything else (another host, a scheme, `//evil`, `/\evil`) falls back.
 * remix-utils' `safeRedirect` refuses `//`, `/\` and `..`; the checks around it are on the value
 * RETURNED (the old helper checked the raw string and returned the URL parser's normalised path,
 * so `/.//evil.example` came out as `//evil.example`): no control character or backslash anywhere
 * (a browser drops tabs and CR/LF inside a URL and reads `\` as `/`), and the path a browser
 * would request for it must itself not start with `//`. The value is returned as written, except
 * that characters outside ASCII are percent-encoded (UTF-8), as a browser would send them: a
 * `Location` header carries ASCII only (Node refuses `/。x` and would send `/café` as a raw
 * byte). Encoding adds no `/`, `\` or `.`, so it cannot move the target off the site; the checks
 * run on the encoded value.
 */
export function safeRedirectTo(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (typeof to !== "string" || /[\u0000-\u0020\u007f\\]/.test(to)) return fallback;
  const out = safeRedirect(percentEncodeNonAscii(to), fallback);
  if (out === fallback) return fallback;
  try {
    const url = new URL(out, "http://x.invalid");
    if (
      url.origin !== "http://x.invalid" ||
      url.pathname.startsWith("//") ||
      !out.startsWith("/") ||
      out.startsWith("//")
    )
      return fallback;
  } catch {
    return fallback;
  }
  return out;
}

/** Every run of characters outside printable ASCII as the %XX of its UTF-8 bytes (a lone surrogate becomes U+FFFD). */
const percentEncodeNonAscii = (value: string) =>
  value.replace(/[^\u0021-\u007e]+/g, (run) =>
    [...Buffer.from(run, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  const query = back === "/" ? "" : `?${new URLSearchParams({ redirectTo: back })}`;
  return redirect(`/login${query}`);
}

/** Pages: a signed-out visitor is sent to /login?redirectTo=<path>. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw loginRedirect(request);
  return user;
}

/** Pages: redirects to login when signed out, throws the 403 page when the role lacks the permission. */
export async function requireUserWithPermission(request: Request, permission: Permission): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (!can(user.role, permission)) {
    throw json({ message: "Your role does not give access to this page.", permission }, { status: 403 });
  }
  return user;
}

/** JSON routes: 401 UNAUTHENTICATED or 403 FORBIDDEN as AppErrors, mapped to the envelope. */
export async function requireApiUser(request: Request, permission: Permission): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
  if (!can(user.role, permission)) throw new AppError("FORBIDDEN", "Your role does not give access to this action.");
  return user;
}

export function clientIp(request: Request): string {
  return request.headers.get("x-client-ip") ?? "unknown";
}

/** Signs a user in: a new session row and its cookie (a fresh id on every sign-in). */
export async function startSession(request: Request, tenantId: string, userId: string): Promise<string> {
  const token = await createSession(tenantId, userId, {
    ip: clientIp(request),
    userAgent: request.headers.get("user-agent"),
  });
  return sessionCookie().serialize(token);
}

export async function endSession(request: Request): Promise<string> {
  await deleteSession(await sessionTokenOf(request));
  return sessionCookie().serialize("", { maxAge: 0 });
}
