import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CustomerForm } from "~/components/customer-form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { formAction } from "~/http/conform.server";
import { customerSchema } from "~/services/customers/schema";
import { customerForEdit, updateCustomer } from "~/services/customers/commands.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /customers/<id>/edit: 303 back to the customer's page.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit ${data?.customer.values.name ?? "customer"} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return json({ customer: await customerForEdit(actorOf(user), params.id!) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  // The customer is looked up first, so another tenant's id is the 404 page whatever was posted.
  const { id } = await customerForEdit(actorOf(user), params.id!);
  return formAction(request, customerSchema, async (row) => {
    await updateCustomer(actorOf(user), id, row);
    return redirect(`/customers/${id}`, 303);
  });
}

export default function EditCustomerPage() {
  const { customer } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title={`Edit ${customer.values.name}`}
        description={<Link to={`/customers/${customer.id}`}>Back to the customer</Link>}
      />
      <section className="card">
        <CustomerForm
          id={`customer-${customer.id}`}
          defaultValue={customer.values}
          submit="Save changes"
          cancelTo={`/customers/${customer.id}`}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
