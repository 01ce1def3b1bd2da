import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { reminderState, stopReminders } from "~/services/messages/reminders.server";
import { notFound } from "~/utils/app-error";
import { verifyIdToken } from "~/utils/signed-ids.server";
import type { RouteRules } from "~/http/route-rules";

// GET /unsubscribe/<token> (the link at the foot of every reminder, docs/decisions/143): which
// business, and one button; POST turns the customer's automatic reminders off. A button, not
// the GET: mail scanners open links, and must not unsubscribe anyone. The token is signed over
// (tenant, customer) for this purpose only; a forged one, or another tenant's, is 404.
//
// The same URL is the reminders' one-click unsubscribe (RFC 8058): a mailbox provider POSTs
// `List-Unsubscribe=One-Click` to it with no cookie, no session and no CSRF token. So the POST
// is authenticated by the signed token alone, like the portal's forms (docs/decisions/341):
// the worst a forged cross-site POST could do is what the link's holder can do anyway.
export const handle: RouteRules = { csrf: "signature" };

export const meta: MetaFunction = () => [
  { title: "Automatic reminders · Fieldwork" },
  { name: "robots", content: "noindex" },
];
const HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };

function customerOf(token: string | undefined) {
  const ids = verifyIdToken("unsubscribe", token ?? "");
  if (!ids) throw notFound("This link is not valid.");
  return ids;
}

export async function loader({ params }: LoaderFunctionArgs) {
  const { tenantId, rowId } = customerOf(params.token);
  const state = await reminderState(tenantId, rowId);
  if (!state) throw notFound("This link is not valid.");
  return json(state, { headers: HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { tenantId, rowId } = customerOf(params.token);
  await readStaffForm(request, { csrf: false });
  const done = await stopReminders(tenantId, rowId);
  if (!done) throw notFound("This link is not valid.");
  return json({ stopped: true, business: done.business }, { headers: HEADERS });
}

export default function Unsubscribe() {
  const state = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  if (done?.stopped || !state.on) {
    return (
      <AuthCard title="Reminders are off">
        <p>
          You will get no more automatic reminders from {state.business}. Quotes, invoices and receipts they send you
          still arrive.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Stop automatic reminders?">
      <p>{state.business} sends you reminders about quotes, invoices and visits. You can turn them off here.</p>
      <Form method="post">
        <button type="submit" className="btn btn-primary">
          Stop reminders from {state.business}
        </button>
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
