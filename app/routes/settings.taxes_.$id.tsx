import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readStaffForm } from "~/http/conform.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { archiveTax, deleteTax, restoreTax, setDefaultTax, taxById } from "~/services/taxes/taxes.server";
import { validationFailed } from "~/utils/app-error";

// /settings/taxes/<id>: `intent` = default, archive, restore or delete (`_csrf`), 303 back to
// /settings/taxes. DELETE (or intent=delete) of a rate or group in use is 409: archive it instead.
// GET goes to the settings page's form for it (404 for an unknown id or another tenant's).

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_taxes");
  await taxById(actorOf(user), params.id!);
  return redirect(`/settings/taxes?edit=${params.id}`, 303);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_taxes");
  const actor = actorOf(user);
  const form = await readStaffForm(request);
  const intent = request.method === "DELETE" ? "delete" : String(form.get("intent") ?? "");
  const id = params.id!;
  if (intent === "default") await setDefaultTax(actor, id);
  else if (intent === "archive") await archiveTax(actor, id);
  else if (intent === "restore") await restoreTax(actor, id);
  else if (intent === "delete") await deleteTax(actor, id);
  else
    throw validationFailed(
      { intent: ["Choose default, archive, restore or delete"] },
      "Choose what to do with the rate.",
    );
  return redirect("/settings/taxes", 303);
}

/** Never rendered on success (a 303); a refusal renders the error boundary. */
export default function TaxAction() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
