import { AppError } from "~/utils/app-error";
import { preLoginCookie, readCookie } from "~/utils/cookies.server";
import { hmac, randomToken, safeEqual, sha256 } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { sessionTokenOf } from "~/http/auth.server";

export const CSRF_FIELD = "_csrf";

/**
 * Signed double-submit tokens (OWASP): the token is an HMAC, under SESSION_SECRET, of what
 * the browser's cookie binds it to: the session, or before sign-in the `__csrf` cookie.
 * Nothing is stored; a token of another session or another secret never verifies.
 */
async function bindings(request: Request): Promise<string[]> {
  const out: string[] = [];
  const session = await sessionTokenOf(request);
  if (session) out.push(`s:${sha256(session)}`);
  const pre = await readCookie(preLoginCookie(), request);
  if (pre) out.push(`p:${pre}`);
  return out;
}

const tokenFor = (secret: string, binding: string) => hmac(secret, `csrf|${binding}`);

/** The token to render in forms, and a Set-Cookie when a pre-login id had to be made. */
export async function csrfToken(request: Request): Promise<{ token: string; setCookie?: string }> {
  const [binding] = await bindings(request);
  const signer = env().SESSION_SECRET[0];
  if (binding) return { token: tokenFor(signer, binding) };
  const pre = randomToken(18);
  return { token: tokenFor(signer, `p:${pre}`), setCookie: await preLoginCookie().serialize(pre) };
}

/** Refuses a cross-site request by its Origin or Sec-Fetch-Site headers. */
export function assertSameOrigin(request: Request) {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("CSRF_INVALID", "Cross-site requests are not accepted.");
  }
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") {
    const allowed = new Set([new URL(request.url).origin, new URL(env().APP_URL).origin]);
    if (!allowed.has(origin)) throw new AppError("CSRF_INVALID", "Cross-site requests are not accepted.");
  } else if (origin === "null") {
    throw new AppError("CSRF_INVALID", "Cross-site requests are not accepted.");
  }
}

/** Every state-changing staff form: same origin and a `_csrf` token bound to this browser. */
export async function assertCsrf(request: Request, form: FormData) {
  assertSameOrigin(request);
  const sent = form.get(CSRF_FIELD);
  if (typeof sent !== "string" || !sent) {
    throw new AppError("CSRF_INVALID", "The form is missing its security token. Reload the page and try again.");
  }
  for (const binding of await bindings(request)) {
    for (const secret of env().SESSION_SECRET) {
      if (safeEqual(sent, tokenFor(secret, binding))) return;
    }
  }
  throw new AppError("CSRF_INVALID", "The form's security token is not valid. Reload the page and try again.");
}
