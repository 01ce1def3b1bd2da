import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InvoiceForm } from "~/components/invoice-form";
import { PageHeader } from "~/components/layout";
import { CustomerPicker } from "~/components/record-forms";
import { formAction } from "~/http/conform.server";
import { invoiceFormWithIntents } from "~/http/line-items.server";
import { emptyLine } from "~/services/documents/line-items";
import { createInvoice, invoiceCustomer, invoiceFormContext } from "~/services/invoices/invoices.server";
import { customerListSchema, listCustomers } from "~/services/customers/customers.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET/POST /invoices/new, the quote builder's shape: ?customerId= prefills
// the customer; without one the page first asks which (a search that works without JavaScript).

export const meta: MetaFunction = () => [{ title: "New invoice · Fieldwork" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const url = new URL(request.url);
  const context = await invoiceFormContext(actor);
  const customerId = url.searchParams.get("customerId");
  if (!customerId) {
    const q = url.searchParams.get("q") ?? "";
    const page = await listCustomers(actor, customerListSchema.parse({ q }));
    return json({ step: "customer" as const, q, customers: page.items.slice(0, 20), context, customer: null });
  }
  const customer = await invoiceCustomer(actor, customerId);
  return json({ step: "form" as const, q: "", customers: [], context, customer });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const actor = actorOf(user);
  const context = await invoiceFormContext(actor);
  return formAction(request, invoiceFormWithIntents(context.priceBook), async (value) => {
    const invoice = await createInvoice(actor, value);
    return redirect(`/invoices/${invoice.id}`, 303);
  });
}

export default function NewInvoicePage() {
  const data = useLoaderData<typeof loader>();
  if (data.step === "customer" || !data.customer) {
    return (
      <CustomerPicker
        what="invoice"
        q={data.q}
        customers={data.customers}
        pickHref={(id) => `/invoices/new?customerId=${id}`}
      />
    );
  }
  const { context, customer } = data;
  const defaultValue = {
    customerId: customer.id,
    currency: context.currency,
    issueDate: context.issueDate,
    dueDate: context.dueDate,
    notes: "",
    items: [emptyLine(context.taxRate, context.taxRateId)],
  };
  return (
    <>
      <PageHeader
        title="New invoice"
        description={
          <>
            For <Link to={`/customers/${customer.id}`}>{customer.name}</Link>. Saved as a draft: send it when it is
            ready.
          </>
        }
      />
      <section className="card">
        <InvoiceForm
          id="invoice-new"
          action={`/invoices/new?customerId=${customer.id}`}
          context={context}
          customer={customer}
          defaultValue={defaultValue}
          submit="Save invoice"
          cancelTo={`/customers/${customer.id}`}
          changeCustomerTo="/invoices/new"
        />
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
