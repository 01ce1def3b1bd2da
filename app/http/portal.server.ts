import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import type { Tx } from "../../db/index";
import { withPortal, type Portal } from "~/services/portal/access.server";
import type { Confirmation, RequestMeta } from "~/services/portal/actions.server";
import { lastBookableDate, loadHub } from "~/services/portal/hub.server";
import {
  bookingRequestSchema,
  paymentSchema,
  quoteDecisionSchema,
  type BookingRequestInput,
  type PaymentInput,
  type QuoteDecisionInput,
} from "~/services/portal/schemas";
import type { PortalFormFailure, PortalFormKind } from "~/services/portal/types";
import type { FieldErrors } from "~/utils/app-error";
import { clientIp } from "~/http/auth.server";
import { assertNotSpam } from "~/utils/honeypot.server";
import { PORTAL_HEADERS } from "~/utils/route-headers";
import { assertNoNul, readForm } from "./body.server";
import { toAppError } from "./envelope.server";

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

// Each form's schema, the one its card validates with in the browser.
const SCHEMAS = {
  quote: () => quoteDecisionSchema,
  payment: () => paymentSchema,
  booking: (today: string) => bookingRequestSchema(today, lastBookableDate(today)),
};
type Inputs = { quote: QuoteDecisionInput; payment: PaymentInput; booking: BookingRequestInput };

type Perform<K extends PortalFormKind> = (
  portal: Portal,
  t: Tx,
  input: Inputs[K],
  meta: RequestMeta,
) => Promise<Confirmation>;

// Hidden fields: their errors (an unknown id, a stale form) are said on the form itself.
const HIDDEN = ["quoteId", "invoiceId", "decision", "idempotencyKey"];

/** The card's answer: errors of hidden fields moved onto the form, the token and key never echoed. */
function portalReply(submission: Submission<unknown>, conflictMessage: string | null, fields: FieldErrors) {
  const result = submission.reply({
    formErrors: [],
    fieldErrors: fields,
    hideFields: ["token", "idempotencyKey"],
  });
  const error: Record<string, string[] | null> = { ...(result.error ?? {}) };
  const formErrors = [...(conflictMessage ? [conflictMessage] : []), ...HIDDEN.flatMap((f) => error[f] ?? [])];
  for (const f of HIDDEN) delete error[f];
  return { ...result, error: { ...error, "": formErrors.length ? formErrors : null } };
}

/**
 * A portal form post: 303 back to the hub with a confirmation, or the hub again with the
 * error beside the field (422) or on the record's card (409). A bad token is the 404 / 410
 * page and changes nothing. The form is parsed inside the portal's transaction, where the
 * business's calendar day (for the booking date) is known.
 */
export async function portalFormAction<K extends PortalFormKind>(request: Request, kind: K, perform: Perform<K>) {
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    throw portalError(error, request);
  }
  // The public booking form carries the honeypot: filled, it is 400 and nothing is stored.
  if (kind === "booking") assertNotSpam(form, { timed: false });
  const token = String(form.get("token") ?? "");
  const ip = clientIp(request);
  const meta: RequestMeta = { ip, userAgent: request.headers.get("user-agent") };
  let submission: Submission<Inputs[K]> | undefined;
  let refused: ReturnType<typeof portalReply> | undefined;
  let status = 422;
  try {
    const done = await withPortal(
      token,
      ip,
      async (portal, t) => {
        submission = parseWithZod(form, { schema: SCHEMAS[kind](portal.today) }) as Submission<Inputs[K]>;
        // U+0000 is refused beside its field before anything is written.
        assertNoNul(form);
        if (submission.status !== "success") return null;
        return perform(portal, t, submission.value, meta);
      },
      { lock: true },
    );
    if (done) {
      const query = new URLSearchParams({ done: done.done, ...(done.id ? { id: done.id } : {}) });
      return redirect(`/portal/${token}?${query}`, { status: 303, headers: PORTAL_HEADERS });
    }
    refused = portalReply(submission!, null, {});
  } catch (error) {
    const e = toAppError(error, request);
    if ((e.code !== "VALIDATION_FAILED" && e.code !== "CONFLICT") || !submission) throw portalError(e, request);
    refused = portalReply(submission, e.code === "CONFLICT" ? e.message : null, e.fields);
    status = e.status;
  }
  // The page as it is now (e.g. approved by the other tab), with the error on the form.
  let hub;
  try {
    hub = await withPortal(token, ip, (portal, t) => loadHub(portal, t));
  } catch (again) {
    throw portalError(again, request);
  }
  const targetField = TARGET_FIELD[kind];
  const targetId = targetField ? String(form.get(targetField) ?? "") || null : null;
  const failure: PortalFormFailure = { ok: false, form: kind, targetId, result: refused, hub };
  return json(failure, { status, headers: PORTAL_HEADERS });
}

/**
 * The form routes answer POST. Remix renders a route after a POST with a GET copy of the
 * request (same headers), so a form body's Content-Type tells that render from a plain GET.
 * A plain GET of a form's own address (a reload of the refused form's page, a restored tab)
 * carries the portal token in its query (portalFormAction): it goes back to the portal page,
 * and the browser keeps the form's anchor. Any other GET gets the 405 page.
 */
export function portalFormLoader(request: Request) {
  if (request.headers.get("content-type")) return null;
  const token = new URL(request.url).searchParams.get("token");
  if (token && /^[A-Za-z0-9._-]{1,200}$/.test(token)) {
    return redirect(`/portal/${token}`, { status: 303, headers: PORTAL_HEADERS });
  }
  throw json(
    { message: "This address only receives the forms of your portal page. Open the link the business sent you." },
    { status: 405, headers: { ...PORTAL_HEADERS, Allow: "POST" } },
  );
}
