import { redirect } from "@remix-run/node";
import type { LoginChoice } from "~/services/accounts/accounts.server";
import { startSession } from "~/http/auth.server";
import { choiceCookie, newDeviceCookie } from "./authenticator.server";

/**
 * The end of every sign-in: a new server-side session for the one user row chosen, this
 * browser's device cookie renewed for the e-mail (docs/decisions/101), any pending "which
 * business?" choice cleared, and a 303 to where the person was going.
 */
export async function completeSignIn(request: Request, email: string, choice: LoginChoice, redirectTo: string) {
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(request, choice.tenantId, choice.userId));
  headers.append("Set-Cookie", await newDeviceCookie(email));
  if (request.headers.get("Cookie")?.includes(choiceCookie().name))
    headers.append("Set-Cookie", await choiceCookie().serialize("", { maxAge: 0 }));
  return redirect(redirectTo, { status: 303, headers });
}
