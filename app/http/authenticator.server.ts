import { createCookie, type Cookie } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { login, type LoginChoice } from "~/services/accounts/accounts.server";
import { loginSchema } from "~/services/accounts/schemas";
import { validationFailed } from "~/utils/app-error";
import { clientIp } from "~/http/auth.server";
import { randomToken } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";

// Sign-in through one remix-auth Authenticator with the form strategy. The strategy
// checks the password (the generic failure, the decoy verify and the lockout stay in
// `login`); the route starts the server-side session for the user row it answers, or asks
// which business when the password opened several.

export type SignIn = { email: string; choices: LoginChoice[] };

const isProd = () => env().NODE_ENV === "production";
let device: Cookie | undefined;
let choice: Cookie | undefined;

/**
 * OWASP's device cookie: after a successful sign-in the browser keeps "<e-mail>|<nonce>",
 * signed. While the account is attacked from elsewhere, this browser is counted on its own
 * (docs/decisions/101). A year; one e-mail per browser (the last one signed in).
 */
export function deviceCookie(): Cookie {
  device ??= createCookie(isProd() ? "__Host-device" : "__device", {
    httpOnly: true,
    sameSite: "lax",
    secure: isProd(),
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
    secrets: env().SESSION_SECRET,
  });
  return device;
}

/** The businesses a password opened, for the next five minutes, signed (nothing is stored). */
export function choiceCookie(): Cookie {
  choice ??= createCookie(isProd() ? "__Host-signin" : "__signin", {
    httpOnly: true,
    sameSite: "lax",
    secure: isProd(),
    path: "/",
    maxAge: 5 * 60,
    secrets: env().SESSION_SECRET,
  });
  return choice;
}

export type PendingChoice = { email: string; choices: LoginChoice[]; redirectTo: string; until: number };

export async function readChoice(request: Request): Promise<PendingChoice | null> {
  const value = (await choiceCookie().parse(request.headers.get("Cookie"))) as PendingChoice | null;
  return value && typeof value === "object" && Array.isArray(value.choices) && value.until > Date.now() ? value : null;
}

/** The nonce of this browser's device cookie when it was set for this e-mail, else null. */
export async function trustedDeviceFor(request: Request, email: string): Promise<string | null> {
  const value = await deviceCookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "string") return null;
  const cut = value.lastIndexOf("|");
  return cut > 0 && value.slice(0, cut) === email ? value.slice(cut + 1) || null : null;
}

export const newDeviceCookie = (email: string) => deviceCookie().serialize(`${email}|${randomToken(18)}`);

let authenticator: Authenticator<SignIn> | undefined;

export function auth(): Authenticator<SignIn> {
  if (!authenticator) {
    authenticator = new Authenticator<SignIn>();
    authenticator.use(
      new FormStrategy<SignIn>(async ({ form, request }) => {
        const parsed = loginSchema.safeParse(Object.fromEntries([...form].filter(([, v]) => typeof v === "string")));
        if (!parsed.success) throw validationFailed({ email: ["Enter your email and password."] });
        const { email, password } = parsed.data;
        const choices = await login(email, password, clientIp(request), await trustedDeviceFor(request, email));
        return { email, choices };
      }),
      "form",
    );
  }
  return authenticator;
}

/**
 * The form strategy reads the request's body; our actions read it first (under the body limit,
 * with the CSRF check), so the strategy is handed a copy carrying the form already read.
 */
export function signInRequest(request: Request, form: FormData): Request {
  const body = new URLSearchParams();
  for (const [k, v] of form) if (typeof v === "string") body.append(k, v);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(request.url, { method: "POST", headers, body });
}
