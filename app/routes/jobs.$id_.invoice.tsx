import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { createInvoiceFromJob } from "~/services/invoices/invoices.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /jobs/<id>/invoice: a draft invoice from the job (its quote's
// chosen items and its time entries as labour), once; a second call lands on the same invoice.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return redirect(`/jobs/${params.id}`);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  await readStaffForm(request);
  const invoice = await createInvoiceFromJob(actorOf(user), params.id!);
  if (invoice.created)
    await setFlash(user, {
      message: `Invoice ${invoice.number} created as a draft: check it, then send it.`,
      tone: "success",
    });
  return redirect(`/invoices/${invoice.id}`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
