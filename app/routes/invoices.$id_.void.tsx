import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, FormError } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { Money, StatusBadge } from "~/components/records";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { voidInvoice } from "~/services/invoices/invoices.server";
import { voidInvoiceFormSchema } from "~/services/invoices/schemas";
import { getInvoice } from "~/services/records/quotes-invoices.server";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Void invoice ${data?.invoice.number ?? ""} · Fieldwork` },
];

/** Asks before voiding (the Void button of the invoice page leads here); shows why when refused. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const { invoice, payments } = await getInvoice(actorOf(user), params.id!);
  return json({
    invoice: {
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      total_cents: invoice.total_cents,
      currency: invoice.currency,
      customer_name: invoice.customer_name,
    },
    hasPayments: payments.length > 0,
  });
}

/** An invoice without payments becomes void; with payments 409, nothing changed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, voidInvoiceFormSchema, async () => {
    const invoice = await voidInvoice(actorOf(user), params.id!);
    await setFlash(user, { message: `Invoice ${invoice.number} is void. Nothing is due on it.`, tone: "success" });
    return redirect(`/invoices/${invoice.id}`, 303);
  });
}

export default function VoidInvoicePage() {
  const { invoice: i, hasPayments } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <PageHeader
        title={`Void invoice ${i.number}?`}
        description={
          <>
            <StatusBadge status={i.status} /> for {i.customer_name},{" "}
            <Money cents={i.total_cents} currency={i.currency} />
          </>
        }
      />
      <section className="card narrow">
        <FormError errors={reply?.result.error?.[""]} />
        {i.status === "void" ? (
          <p>This invoice is already void.</p>
        ) : hasPayments ? (
          <p>This invoice has payments recorded, so it cannot be voided.</p>
        ) : (
          <>
            <p>
              A void invoice stays in the records with its number, but nothing is due on it and the customer no longer
              sees it in their portal. This cannot be undone.
            </p>
            <Form method="post" className="form-actions">
              <CsrfInput />
              <button type="submit" className="btn btn-danger" disabled={busy}>
                Void invoice
              </button>
              <Link to={`/invoices/${i.id}`} className="btn btn-secondary">
                Keep it
              </Link>
            </Form>
          </>
        )}
        {i.status === "void" || hasPayments ? (
          <p>
            <Link to={`/invoices/${i.id}`}>Back to the invoice</Link>
          </p>
        ) : null}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
