import { createCookie, type Cookie } from "@remix-run/node";
import { env } from "./env.server";

const isProd = () => env().NODE_ENV === "production";
let session: Cookie | undefined;
let preLogin: Cookie | undefined;

/**
 * `__session` holds only "<tenant id>.<secret>", signed with SESSION_SECRET (a comma list
 * rotates: the first signs, all verify). In production the name carries the `__Host-`
 * prefix, which browsers accept only with Secure, Path=/ and no Domain.
 */
export function sessionCookie(): Cookie {
  session ??= createCookie(isProd() ? "__Host-session" : "__session", {
    httpOnly: true,
    sameSite: "lax",
    secure: isProd(),
    path: "/",
    maxAge: 60 * 60 * 24 * 30,
    secrets: env().SESSION_SECRET,
  });
  return session;
}

/** A random id set before sign-in, to bind the login and signup forms' CSRF tokens to. */
export function preLoginCookie(): Cookie {
  preLogin ??= createCookie(isProd() ? "__Host-csrf" : "__csrf", {
    httpOnly: true,
    sameSite: "lax",
    secure: isProd(),
    path: "/",
    maxAge: 60 * 60 * 24,
    secrets: env().SESSION_SECRET,
  });
  return preLogin;
}

export async function readCookie(cookie: Cookie, request: Request): Promise<string | null> {
  const value = await cookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}
