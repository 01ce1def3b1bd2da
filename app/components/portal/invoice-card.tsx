import { getFormProps } from "@conform-to/react";
import { summaryRows } from "~/services/portal/quote-choice";
import { Field } from "~/components/forms";
import { paymentSchema } from "~/services/portal/schemas";
import type { PortalInvoice } from "~/services/portal/types";
import { formatDate, formatDateTime, formatMoney } from "~/utils/format";
import { allErrors, portalFormAction, postedValues, useCardForm, useMessageInView, usePortalForm } from "./form-state";
import { FormAnchor, LineItems, paymentMethodLabel, PdfLink, Totals } from "./parts";

function badge(i: PortalInvoice): [string, string] {
  if (i.status === "void") return ["Cancelled", "badge badge-muted"];
  if (i.status === "paid") return ["Paid", "badge badge-success"];
  if (i.overdue) return ["Overdue", "badge badge-danger"];
  if (i.status === "partial") return ["Partly paid", "badge badge-warning"];
  return ["To pay", "badge"];
}

/** Still to pay: sent or partly paid, with a balance. Paid and cancelled invoices are "Past". */
export const isOpenInvoice = (i: PortalInvoice) =>
  (i.status === "sent" || i.status === "partial") && i.balanceCents > 0;

export function InvoiceCard({
  invoice: inv,
  token,
  timeZone,
}: {
  invoice: PortalInvoice;
  token: string;
  timeZone: string;
}) {
  const { Form, failure, busy } = usePortalForm("payment", inv.id);
  const [form, fields] = useCardForm(paymentSchema, `payment-${inv.id}`, failure);
  const messageRef = useMessageInView(failure);
  const [label, badgeClass] = badge(inv);
  const open = isOpenInvoice(inv);
  return (
    <article className="portal-card" id={`invoice-${inv.id}`} aria-labelledby={`invoice-${inv.id}-title`}>
      <header className="portal-card-head">
        <div>
          <p className="portal-kicker">Invoice</p>
          <h3 id={`invoice-${inv.id}-title`}>{inv.number}</h3>
        </div>
        <div className="portal-card-tools">
          <span className={badgeClass}>{label}</span>
          <PdfLink href={`/portal/${token}/invoices/${inv.id}.pdf`} label={`invoice ${inv.number}`} />
        </div>
      </header>
      <dl className="portal-meta">
        {inv.issueDate ? (
          <div>
            <dt>Issued</dt>
            <dd>{formatDate(inv.issueDate)}</dd>
          </div>
        ) : null}
        {inv.dueDate ? (
          <div>
            <dt>Due</dt>
            <dd className={inv.overdue ? "portal-overdue" : undefined}>{formatDate(inv.dueDate)}</dd>
          </div>
        ) : null}
        {open ? (
          <div>
            <dt>Balance due</dt>
            <dd>{formatMoney(inv.balanceCents, inv.currency)}</dd>
          </div>
        ) : null}
      </dl>
      <LineItems items={inv.items} currency={inv.currency} />
      <Totals
        currency={inv.currency}
        rows={[
          ...summaryRows(inv.summary),
          ["Total", inv.totalCents, !inv.amountPaidCents || inv.status === "void"],
          ...(inv.amountPaidCents && inv.status !== "void"
            ? ([
                // What was paid is a payment received, shown as the positive amount it is.
                ["Paid so far", inv.amountPaidCents],
                ["Balance due", inv.balanceCents, true],
              ] as Array<[string, number, boolean?]>)
            : []),
        ]}
      />
      {inv.notes ? <p className="portal-notes">{inv.notes}</p> : null}
      {inv.payments.length ? (
        <div className="portal-payments">
          <h4>Payments</h4>
          <ul>
            {inv.payments.map((p) => (
              <li key={p.id}>
                <span>
                  {formatDateTime(p.recordedAt, timeZone)}
                  <span className="portal-item-qty">
                    {paymentMethodLabel(p.method)} · <span className="portal-ref">{p.reference}</span>
                  </span>
                </span>
                <span className="portal-amount">
                  {formatMoney(p.amountCents, inv.currency)}
                  <a
                    className="portal-receipt"
                    href={`/portal/${token}/invoices/${inv.id}/receipts/${p.id}.pdf`}
                    download
                  >
                    Receipt
                    <span className="visually-hidden">
                      {" "}
                      for the payment of {formatMoney(p.amountCents, inv.currency)} on{" "}
                      {formatDateTime(p.recordedAt, timeZone)}
                    </span>
                  </a>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <FormAnchor id={`invoice-${inv.id}-pay`} ref={messageRef} errors={allErrors(failure)} />
      {open ? (
        <div className="portal-action">
          <div className="portal-sandbox" role="note">
            <strong>Sandbox payment: no money moves.</strong> This is a test checkout. No card is charged and nothing is
            sent to a bank; the payment is only recorded on this invoice.
          </div>
          <Form
            method="post"
            action={portalFormAction("/api/portal/invoice-payment", token, `invoice-${inv.id}-pay`)}
            className="stack"
            {...getFormProps(form)}
          >
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="invoiceId" value={inv.id} />
            <input type="hidden" name="idempotencyKey" value={inv.paymentKey} />
            <Field
              id={`amount-${inv.id}`}
              name="amount"
              label={`Amount to pay (${inv.currency})`}
              inputMode="decimal"
              autoComplete="off"
              defaultValue={postedValues(failure).amount ?? (inv.balanceCents / 100).toFixed(2)}
              hint="Pay the whole balance or any part of it."
              errors={fields.amount.errors}
            />
            <button type="submit" className="btn btn-primary btn-lg btn-block" disabled={busy}>
              {busy ? "Recording…" : "Record sandbox payment"}
            </button>
          </Form>
        </div>
      ) : inv.status === "paid" ? (
        <p className="portal-outcome portal-outcome-success">
          Paid in full{inv.paidAt ? ` on ${formatDateTime(inv.paidAt, timeZone)}` : ""}. Thank you!
        </p>
      ) : inv.status === "void" ? (
        <p className="portal-outcome portal-outcome-muted">This invoice was cancelled. Nothing is owed on it.</p>
      ) : (
        <p className="portal-outcome portal-outcome-muted">Nothing to pay on this invoice.</p>
      )}
    </article>
  );
}
