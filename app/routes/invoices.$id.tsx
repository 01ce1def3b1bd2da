import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LineItemsTable } from "~/components/documents";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ShareCard } from "~/components/share-card";
import { EmailStatus } from "~/components/email-status";
import { mailMode } from "~/services/messages/config.server";
import { latestMessageFor } from "~/services/messages/outbox.server";
import { invoiceShare } from "~/services/invoices/invoices.server";
import { SignatureView } from "~/components/job-field";
import { RecordPage } from "~/components/record-page";
import { recordPageData } from "~/http/record-page.server";
import { PaymentForm } from "~/components/payment-form";
import { DateTime, Money, StatusBadge } from "~/components/records";
import { PAYMENT_METHOD_LABELS } from "~/services/invoices/schemas";
import { zonedToday } from "~/services/jobs/local-time";
import { getInvoice } from "~/services/records/quotes-invoices.server";
import { signatureOfJob } from "~/services/records/jobs.server";
import { balanceDue } from "~/services/records/statuses";
import { actorOf } from "~/http/auth.server";
import { randomToken } from "~/utils/crypto.server";
import { formatDate, formatMoney, humanize } from "~/utils/format";
import { requireAllRecords } from "~/http/records-access.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Invoice ${data?.invoice.number ?? ""} · Fieldwork` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAllRecords(request);
  const actor = actorOf(user);
  const found = await getInvoice(actor, params.id!);
  const signature = found.invoice.job_id ? await signatureOfJob(actor, found.invoice.job_id) : null;
  const page = await recordPageData(request, user, {
    type: "invoice",
    id: found.invoice.id,
    customerId: found.invoice.customer_id,
  });
  const canManage = page.canManage;
  const share = canManage ? await invoiceShare(actor, found.invoice.id) : null;
  const mail = { mode: mailMode(), latest: share ? await latestMessageFor(actor, "invoice", found.invoice.id) : null };
  return json({
    ...found,
    ...page,
    share,
    mail,
    signature,
    // A fresh key each time the page renders: one payment per rendered form.
    payment: canManage ? { today: zonedToday(user.timeZone), idempotencyKey: randomToken(18) } : null,
  });
}

export default function InvoicePage() {
  const {
    invoice: i,
    items,
    summary,
    payments,
    links,
    canManageLinks,
    canManage,
    createdId,
    payment,
    history,
    share,
    mail,
    signature,
  } = useLoaderData<typeof loader>();
  const balance = balanceDue(i);
  const open = i.status === "sent" || i.status === "partial";
  const voidable = (i.status === "draft" || i.status === "sent") && !payments.length;
  // Editable while a draft, or sent without payments.
  const editable =
    i.status === "draft" || (i.status === "sent" && !payments.length && Number(i.amount_paid_cents) === 0);
  return (
    <RecordPage
      history={history}
      portal={{
        customerId: i.customer_id,
        customerName: i.customer_name,
        links,
        canManage: canManageLinks,
        returnTo: `/invoices/${i.id}`,
        createdId,
      }}
      title={`Invoice ${i.number}`}
      description={
        <>
          <StatusBadge status={i.status} /> {i.overdue ? <StatusBadge status="overdue" /> : null} for{" "}
          <Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link>
        </>
      }
      actions={
        <>
          {canManage && editable ? (
            <Link to={`/invoices/${i.id}/edit`} className="btn btn-secondary">
              Edit
            </Link>
          ) : null}
          {canManage && (i.status === "draft" || open) ? (
            <Link
              to={`/invoices/${i.id}/send`}
              className={`btn ${i.status === "draft" ? "btn-primary" : "btn-secondary"}`}
            >
              {i.status === "draft" ? "Send" : "Send again"}
            </Link>
          ) : null}
          <a href={`/invoices/${i.id}.pdf`} className="btn btn-secondary">
            Download PDF
          </a>
          {canManage && voidable ? (
            <Link to={`/invoices/${i.id}/void`} className="btn btn-secondary">
              Void invoice
            </Link>
          ) : null}
          <Link to="/invoices" className="btn btn-secondary">
            All invoices
          </Link>
        </>
      }
      notices={
        <>
          {i.status === "void" ? (
            <div className="alert alert-info" role="status">
              This invoice is void
              {i.voided_at ? (
                <>
                  {" "}
                  since <DateTime value={i.voided_at} />
                  {i.voided_by_name ? ` (by ${i.voided_by_name})` : ""}
                </>
              ) : null}
              . Nothing is due on it.
            </div>
          ) : null}
          {i.overdue ? (
            <div className="alert alert-warning" role="status">
              Overdue: {formatMoney(balance, i.currency)} was due on {formatDate(i.due_date)}.
            </div>
          ) : null}
        </>
      }
    >
      <div className="grid grid-2">
        <section className="card">
          <h2>Details</h2>
          <dl className="details">
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${i.customer_id}`}>{i.customer_name}</Link>
            </dd>
            {i.property_label || i.property_address ? (
              <>
                <dt>Service property</dt>
                <dd>{[i.property_label, i.property_address].filter(Boolean).join(" · ")}</dd>
              </>
            ) : null}
            <dt>Issued</dt>
            <dd>{formatDate(i.issue_date) || <span className="muted">—</span>}</dd>
            <dt>Due</dt>
            <dd>{formatDate(i.due_date) || <span className="muted">—</span>}</dd>
            <dt>Sent</dt>
            <dd>{i.sent_at ? <DateTime value={i.sent_at} /> : <span className="muted">Not sent</span>}</dd>
            {i.paid_at ? (
              <>
                <dt>Paid in full</dt>
                <dd>
                  <DateTime value={i.paid_at} />
                </dd>
              </>
            ) : null}
            {i.quote_id ? (
              <>
                <dt>From quote</dt>
                <dd>
                  <Link to={`/quotes/${i.quote_id}`}>{i.quote_number}</Link>
                </dd>
              </>
            ) : null}
            {i.job_id ? (
              <>
                <dt>From job</dt>
                <dd>
                  <Link to={`/jobs/${i.job_id}`}>{i.job_title}</Link>
                </dd>
              </>
            ) : null}
          </dl>
        </section>
        <section className="card">
          <h2>Balance</h2>
          <dl className="details">
            <dt>Total</dt>
            <dd>
              <Money cents={i.total_cents} currency={i.currency} />
            </dd>
            <dt>Paid</dt>
            <dd>
              <Money cents={i.amount_paid_cents} currency={i.currency} />
            </dd>
            <dt>Balance due</dt>
            <dd>
              {i.status === "void" ? (
                <span className="muted">None: void</span>
              ) : (
                <strong>
                  <Money cents={balance} currency={i.currency} />
                </strong>
              )}
            </dd>
          </dl>
        </section>
      </div>

      <section className="card" aria-labelledby="items-title">
        <h2 id="items-title">Line items</h2>
        <LineItemsTable
          items={items}
          currency={i.currency}
          summary={summary}
          after={
            <>
              <tr>
                <th colSpan={4} className="num">
                  Payments received
                </th>
                <td className="num">
                  {/* A payment is money received, never a negative amount. */}
                  <Money cents={i.amount_paid_cents} currency={i.currency} />
                </td>
              </tr>
              <tr className="total-row">
                <th colSpan={4} className="num">
                  Balance due
                </th>
                <td className="num">
                  {i.status === "void" ? "Void" : <Money cents={balance} currency={i.currency} />}
                </td>
              </tr>
            </>
          }
        />
        {i.notes ? (
          <>
            <h3 className="section-gap">Notes</h3>
            <p className="prewrap">{i.notes}</p>
          </>
        ) : null}
      </section>

      {signature ? (
        <section className="card" aria-labelledby="signature-title">
          <h2 id="signature-title">Customer signature</h2>
          <p className="muted small">Collected on site when the job was completed.</p>
          <SignatureView signature={signature} />
        </section>
      ) : null}

      <section className="card" aria-labelledby="payments-title">
        <h2 id="payments-title">Payments</h2>
        {payments.length ? (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Method</th>
                  <th>Reference</th>
                  <th>Recorded by</th>
                  <th className="num">Amount</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id}>
                    <td>{p.received_on ? formatDate(p.received_on) : <DateTime value={p.recorded_at} />}</td>
                    <td>
                      {p.method === "sandbox" ? (
                        <>
                          Portal <span className="badge badge-muted">sandbox</span>
                        </>
                      ) : (
                        (PAYMENT_METHOD_LABELS[p.method] ?? humanize(p.method))
                      )}
                    </td>
                    <td className="mono">
                      {p.reference || <span className="muted">—</span>}{" "}
                      <a href={`/invoices/${i.id}/receipts/${p.id}.pdf`} className="small">
                        Receipt<span className="visually-hidden"> {p.reference}</span>
                      </a>
                    </td>
                    <td>
                      {p.recorded_by_name ??
                        (p.method === "sandbox" ? "The customer, in the portal" : <span className="muted">—</span>)}
                    </td>
                    <td className="num">
                      <Money cents={p.amount_cents} currency={p.currency} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">
            No payments recorded yet.{i.status === "sent" ? " Send the customer a portal link so they can pay." : ""}
          </p>
        )}
      </section>

      {share && canManage ? (
        <ShareCard
          share={share}
          intro="The customer can see the invoice and pay it in their portal."
          status={<EmailStatus mode={mail.mode} latest={mail.latest} />}
        />
      ) : null}

      {canManage && open && payment ? (
        <section className="card" aria-labelledby="record-payment-title">
          <h2 id="record-payment-title">Record a payment</h2>
          <p className="muted">Cash, a check or a card taken at the office. The invoice becomes part paid or paid.</p>
          <PaymentForm
            invoiceId={i.id}
            balanceCents={balance}
            currency={i.currency}
            today={payment.today}
            idempotencyKey={payment.idempotencyKey}
          />
        </section>
      ) : null}
    </RecordPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
