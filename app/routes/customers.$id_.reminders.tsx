import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { setAutoReminders } from "~/services/messages/reminders.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// POST /customers/<id>/reminders (`on` = "true" or "false"): the customer's "receives
// automatic reminders" (docs/decisions/143); 303 back to the customer. Another tenant's id is 404.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return redirect(`/customers/${params.id}`);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const form = await readStaffForm(request);
  await setAutoReminders(actorOf(user), params.id!, form.get("on") === "true");
  return redirect(`/customers/${params.id}#reminders`, 303);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
