import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { formAction } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { revokePortalLink } from "~/services/portal/links.server";
import { portalLinkRevokeSchema } from "~/services/portal/schemas";
import { actorOf, requireUser, requireUserWithPermission } from "~/http/auth.server";
import { recordPageOf } from "~/utils/return-to";

// POST /portal-links/<id>/revoke: the link stops opening at once.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "Revoke a portal link with the Revoke button on the customer's page." }, { status: 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_portal_links");
  return formAction(request, portalLinkRevokeSchema, async ({ returnTo }) => {
    const { customerId } = await revokePortalLink(actorOf(user), params.id!);
    await setFlash(user, { message: "Portal link revoked. It no longer opens the portal.", tone: "success" });
    return redirect(`${recordPageOf(returnTo, `/customers/${customerId}`)}#portal-links`, 303);
  });
}

export default function RevokePortalLink() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
