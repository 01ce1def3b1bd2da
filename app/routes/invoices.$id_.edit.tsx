import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InvoiceForm } from "~/components/invoice-form";
import { PageHeader } from "~/components/layout";
import { formAction } from "~/http/conform.server";
import { invoiceFormWithIntents } from "~/http/line-items.server";
import { invoiceForEdit, invoiceFormContext, updateInvoice } from "~/services/invoices/invoices.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /invoices/<id>/edit: a draft, or a sent invoice without
// payments; a part-paid, paid or void invoice answers 409 and nothing changes.

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Edit invoice ${data?.invoice.number ?? ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const invoice = await invoiceForEdit(actor, params.id!);
  return json({ invoice, context: await invoiceFormContext(actor) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  // Looked up first: another tenant's id is the 404 page, a paid invoice the 409 page.
  const { id } = await invoiceForEdit(actor, params.id!);
  const context = await invoiceFormContext(actor);
  return formAction(request, invoiceFormWithIntents(context.priceBook), async (value) => {
    await updateInvoice(actor, id, value);
    return redirect(`/invoices/${id}`, 303);
  });
}

export default function EditInvoicePage() {
  const { invoice, context } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader
        title={`Edit invoice ${invoice.number}`}
        description={
          <>
            For <Link to={`/customers/${invoice.customer.id}`}>{invoice.customer.name}</Link>
            {invoice.status === "sent" ? ". Already sent: the customer sees the changes in their portal." : "."}
          </>
        }
      />
      <section className="card">
        <InvoiceForm
          id={`invoice-${invoice.id}`}
          context={context}
          customer={invoice.customer}
          defaultValue={invoice.values}
          submit="Save changes"
          cancelTo={`/invoices/${invoice.id}`}
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
