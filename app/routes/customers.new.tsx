import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { CustomerForm } from "~/components/customer-form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { formAction } from "~/http/conform.server";
import { customerSchema } from "~/services/customers/schema";
import { createCustomer } from "~/services/customers/commands.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /customers/new: 303 to the new customer's page.

export const meta: MetaFunction = () => [{ title: "New customer · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithPermission(request, "manage_records");
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, customerSchema, async (row) => {
    const customer = await createCustomer(actorOf(user), row);
    return redirect(`/customers/${customer.id}`, 303);
  });
}

export default function NewCustomerPage() {
  return (
    <>
      <PageHeader
        title="New customer"
        description="The same fields as the customer import. Only the name is required."
      />
      <section className="card">
        <CustomerForm id="customer-new" submit="Create customer" cancelTo="/customers" />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
