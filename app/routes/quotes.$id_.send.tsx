import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { sendQuote } from "~/services/quotes/quotes.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /quotes/<id>/send: draft -> sent, with a live portal link; back to
// the quote, which shows the link and a ready message. 409 for an answered quote.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return redirect(`/quotes/${params.id}`);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  await readStaffForm(request);
  await sendQuote(actorOf(user), params.id!);
  return redirect(`/quotes/${params.id}?sent=1#share`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
