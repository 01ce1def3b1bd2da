import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { convertQuote } from "~/services/quotes/quotes.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /quotes/<id>/convert: an approved quote -> one job; a second
// convert lands on the same job. 409 for a quote that is not approved.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return redirect(`/quotes/${params.id}`);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  await readStaffForm(request);
  const { jobId } = await convertQuote(actorOf(user), params.id!);
  return redirect(`/jobs/${jobId}`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
