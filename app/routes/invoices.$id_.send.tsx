import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { sendInvoice } from "~/services/invoices/invoices.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /invoices/<id>/send: draft -> sent, with a live portal link; back
// to the invoice, which shows the link and a ready message. 409 for a paid or void invoice.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return redirect(`/invoices/${params.id}`);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  await readStaffForm(request);
  await sendInvoice(actorOf(user), params.id!);
  return redirect(`/invoices/${params.id}?sent=1#share`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
