import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/layout";
import { PaymentForm } from "~/components/payment-form";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { recordOfficePayment } from "~/services/invoices/payments.server";
import { officePaymentSchema, PAYMENT_METHOD_LABELS } from "~/services/invoices/schemas";
import { zonedToday } from "~/services/jobs/local-time";
import { getInvoice } from "~/services/records/quotes-invoices.server";
import { balanceDue } from "~/services/records/statuses";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { randomToken } from "~/utils/crypto.server";
import { formatMoney } from "~/utils/format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Record payment · Invoice ${data?.invoice.number ?? ""} · Fieldwork` },
];

/** The payment form on its own page: where a failed post lands, and a link from the invoice. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  const { invoice } = await getInvoice(actorOf(user), params.id!);
  return json({
    invoice: {
      id: invoice.id,
      number: invoice.number,
      status: invoice.status,
      currency: invoice.currency,
      customer_name: invoice.customer_name,
    },
    balanceCents: balanceDue(invoice),
    today: zonedToday(user.timeZone),
    idempotencyKey: randomToken(18),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_records");
  return formAction(request, officePaymentSchema, async (value) => {
    const paid = await recordOfficePayment(actorOf(user), params.id!, value);
    const what = `${formatMoney(paid.amountCents, paid.currency)} by ${PAYMENT_METHOD_LABELS[value.method].toLowerCase()}`;
    await setFlash(user, {
      message: paid.repeated
        ? `That payment (${what}) was already recorded.`
        : `Payment of ${what} recorded.${paid.status === "paid" ? " The invoice is paid in full." : ""}`,
      tone: "success",
    });
    return redirect(`/invoices/${paid.invoiceId}`, 303);
  });
}

export default function RecordPaymentPage() {
  const { invoice, balanceCents, today, idempotencyKey } = useLoaderData<typeof loader>();
  const lastResult = useActionData<FormReply>()?.result;
  const open = invoice.status === "sent" || invoice.status === "partial";
  return (
    <>
      <PageHeader
        title={`Record payment: invoice ${invoice.number}`}
        description={`${invoice.customer_name} · balance due ${formatMoney(balanceCents, invoice.currency)}`}
        actions={
          <Link to={`/invoices/${invoice.id}`} className="btn btn-secondary">
            Back to invoice
          </Link>
        }
      />
      <section className="card narrow">
        {!open && !lastResult ? (
          <p className="muted">
            This invoice is {invoice.status}:{" "}
            {invoice.status === "draft" ? "send it before recording a payment." : "it is not open for payment."}
          </p>
        ) : (
          <PaymentForm
            invoiceId={invoice.id}
            balanceCents={balanceCents}
            currency={invoice.currency}
            today={today}
            idempotencyKey={idempotencyKey}
            lastResult={lastResult}
          />
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
