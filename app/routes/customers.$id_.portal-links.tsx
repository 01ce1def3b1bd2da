import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { CreatePortalLinkForm } from "~/components/portal-links";
import { formAction, type FormReply } from "~/http/conform.server";
import { createPortalLink } from "~/services/portal/links.server";
import { portalLinkFormSchema } from "~/services/portal/schemas";
import { customerName } from "~/services/customers/customers.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { recordPageOf } from "~/utils/return-to";

// POST /customers/<id>/portal-links: creates a portal link and goes
// back to the page the form was on, which shows the new link's full URL. GET shows the form
// on its own; a bad `days` comes back here with the message beside the field.

export const meta: MetaFunction = () => [{ title: "New portal link · Fieldwork" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_portal_links");
  const customer = await customerName(actorOf(user), params.id!);
  return json({
    customer,
    returnTo: recordPageOf(new URL(request.url).searchParams.get("returnTo"), `/customers/${customer.id}`),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_portal_links");
  return formAction(request, portalLinkFormSchema, async ({ days, returnTo }) => {
    const link = await createPortalLink(actorOf(user), params.id!, days);
    const back = recordPageOf(returnTo, `/customers/${params.id}`);
    return redirect(`${back}?link=${link.id}#portal-links`, 303);
  });
}

export default function NewPortalLinkPage() {
  const { customer, returnTo } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <>
      <PageHeader
        title="New portal link"
        description={
          <>
            For <Link to={`/customers/${customer.id}`}>{customer.name}</Link>
          </>
        }
      />
      <section className="card narrow">
        <p className="muted">
          The link opens {customer.name}'s portal: their sent quotes, open invoices and a booking form. It lasts 1 to 90
          days.
        </p>
        <CreatePortalLinkForm customerId={customer.id} returnTo={returnTo} lastResult={reply?.result} />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
