import { json, redirect } from "@remix-run/node";
import type { Tx } from "../../db/index";
import { withPortal, type Portal } from "~/services/portal/access.server";
import type { Confirmation, FormValues, RequestMeta } from "~/services/portal/actions.server";
import { loadHub } from "~/services/portal/hub.server";
import type { PortalFormFailure, PortalFormKind } from "~/services/portal/types";
import { clientIp } from "~/utils/auth.server";
import { PORTAL_HEADERS } from "~/utils/route-headers";
import { assertNoNul, readForm } from "./body.server";
import { toAppError } from "./envelope.server";
import { echoValues, formObject } from "./form.server";

// The boundary of the customer portal: the hub page and the three form routes. No session,
// no CSRF (the signed token is the credential); every answer carries PORTAL_HEADERS.

/** A thrown page (404 / 410 / 429 / 413 / 500) the portal's error boundary shows. */
function portalError(error: unknown, request: Request): Response {
  const e = toAppError(error, request);
  return json({ message: e.message }, { status: e.status, headers: { ...PORTAL_HEADERS, ...e.headers } });
}

/** The hub's loader. */
export async function portalHub(request: Request, token: string) {
  try {
    const hub = await withPortal(token, clientIp(request), (portal, t) => loadHub(portal, t));
    return json(hub, { headers: PORTAL_HEADERS });
  } catch (error) {
    throw portalError(error, request);
  }
}

const TARGET_FIELD: Record<PortalFormKind, string | null> = { quote: "quoteId", payment: "invoiceId", booking: null };

type Perform = (portal: Portal, t: Tx, form: FormValues, meta: RequestMeta) => Promise<Confirmation>;

/**
 * A portal form post: 303 back to the hub with a confirmation, or the hub again with the
 * error beside the field (422) or on the record's card (409). A bad token is the 404 / 410
 * page and changes nothing.
 */
export async function portalFormAction(request: Request, kind: PortalFormKind, perform: Perform) {
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    throw portalError(error, request);
  }
  const token = String(form.get("token") ?? "");
  const ip = clientIp(request);
  const meta: RequestMeta = { ip, userAgent: request.headers.get("user-agent") };
  const values = formObject(form);
  try {
    assertNoNul(form);
    const done = await withPortal(token, ip, (portal, t) => perform(portal, t, values, meta), { lock: true });
    const query = new URLSearchParams({ done: done.done, ...(done.id ? { id: done.id } : {}) });
    return redirect(`/portal/${token}?${query}`, { status: 303, headers: PORTAL_HEADERS });
  } catch (error) {
    const e = toAppError(error, request);
    if (e.code !== "VALIDATION_FAILED" && e.code !== "CONFLICT") throw portalError(e, request);
    // The page as it is now (e.g. approved by the other tab), with the error on the form.
    let hub;
    try {
      hub = await withPortal(token, ip, (portal, t) => loadHub(portal, t));
    } catch (again) {
      throw portalError(again, request);
    }
    const targetField = TARGET_FIELD[kind];
    const targetId = targetField ? String(form.get(targetField) ?? "") || null : null;
    const hidden = ["quoteId", "invoiceId", "decision", "idempotencyKey"];
    const failure: PortalFormFailure = {
      ok: false,
      form: kind,
      targetId,
      // Errors of hidden fields (an unknown id, a stale form) are said on the form itself.
      formErrors: [...(e.code === "CONFLICT" ? [e.message] : []), ...hidden.flatMap((f) => e.fields[f] ?? [])],
      fields: e.fields,
      values: echoValues(form, ["token", "idempotencyKey"]),
      hub,
    };
    return json(failure, { status: e.status, headers: PORTAL_HEADERS });
  }
}

/**
 * The form routes answer POST only. Remix renders a route after a POST with a GET copy of
 * the request (same headers), so a form body's Content-Type tells that render from a plain
 * GET, which gets the 405 page.
 */
export function portalFormLoader(request: Request) {
  if (request.headers.get("content-type")) return null;
  throw json(
    { message: "This address only receives the forms of your portal page. Open the link the business sent you." },
    { status: 405, headers: { ...PORTAL_HEADERS, Allow: "POST" } },
  );
}
