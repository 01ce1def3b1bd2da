import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { createInvoiceFromVisit } from "~/services/invoices/invoices.server";
import { assertManagesVisit } from "~/services/visits/access.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /visits/<id>/invoice: a draft invoice for a completed visit of a job billed per visit
// (the job's per-visit items and the visit's time as labour), once; a second call lands on the
// same invoice. 409 for a visit not completed or a job billed on completion.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  await assertManagesVisit(actorOf(user), params.id!);
  return redirect("/");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_records");
  await readStaffForm(request);
  const invoice = await createInvoiceFromVisit(actorOf(user), params.id!);
  if (invoice.created)
    await setFlash(user, {
      message: `Invoice ${invoice.number} created as a draft for the visit: check it, then send it.`,
      tone: "success",
    });
  return redirect(`/invoices/${invoice.id}`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
