import type { Tx } from "../../../db/index";
import { Invoice, Payment, Quote, QuoteDeposit } from "../../../db/models";
import { recordHistory, type HistoryActor } from "~/services/history/history.server";
import { formatMoney } from "~/utils/format";

// The deposit paid with a quote's approval lands on the invoice made for that work
// (docs/decisions/156): the invoice created from the job (or the quote) calls this in its
// creating transaction, and the deposit becomes one of the invoice's payments, dated when it
// was paid, with its sandbox reference. The deposit row is locked and marked with the
// payment, so it is applied once, whichever invoice asks first.

/**
 * Applies the quote's unapplied deposit to the invoice as a payment (at most the invoice's
 * balance). Returns the amount applied in cents (0 when there was none). A draft invoice keeps
 * its state (sending it later makes it `partial` or `paid`); a sent one becomes partial or paid.
 */
export async function applyQuoteDeposit(t: Tx, by: HistoryActor, invoiceId: string): Promise<number> {
  const tenantId = by.tenantId;
  const invoice = await Invoice.findOne({ where: { tenantId, id: invoiceId }, transaction: t, lock: t.LOCK.UPDATE });
  if (!invoice?.quoteId || invoice.status === "void") return 0;
  const deposit = await QuoteDeposit.findOne({
    where: { tenantId, quoteId: invoice.quoteId, paymentId: null },
    transaction: t,
    lock: t.LOCK.UPDATE,
  });
  if (!deposit) return 0;
  const amount = Math.min(Number(deposit.amountCents), Number(invoice.totalCents) - Number(invoice.amountPaidCents));
  if (amount <= 0) return 0;
  const payment = await Payment.create(
    {
      tenantId,
      invoiceId,
      amountCents: amount,
      currency: invoice.currency,
      method: deposit.method,
      reference: deposit.reference,
      idempotencyKey: `deposit-${deposit.id}`,
      payerIp: deposit.payerIp,
      recordedAt: deposit.paidAt,
    },
    { transaction: t },
  );
  const paid = Number(invoice.amountPaidCents) + amount;
  const full = paid >= Number(invoice.totalCents);
  invoice.set({ amountPaidCents: paid });
  if (invoice.status === "sent" || invoice.status === "partial")
    invoice.set({ status: full ? "paid" : "partial", paidAt: full ? new Date() : invoice.paidAt });
  await invoice.save({ transaction: t });
  deposit.set({ invoiceId, paymentId: payment.id });
  await deposit.save({ transaction: t });
  const quote = await Quote.findOne({
    where: { tenantId, id: invoice.quoteId },
    attributes: ["number"],
    transaction: t,
  });
  await recordHistory(t, by, {
    recordType: "invoice",
    recordId: invoiceId,
    action: "payment_recorded",
    summary:
      `Deposit of ${formatMoney(amount, invoice.currency.trim())} paid with the approval of quote ${quote?.number ?? ""} applied`.replace(
        /  +/g,
        " ",
      ),
    details: { paymentId: payment.id, amountCents: amount, method: deposit.method, depositId: deposit.id },
  });
  return amount;
}

/** The status an invoice takes when it is sent, given what is already paid on it (a deposit). */
export function sentStatus(invoice: {
  totalCents: number | string;
  amountPaidCents: number | string;
}): "sent" | "partial" | "paid" {
  const paid = Number(invoice.amountPaidCents);
  if (paid <= 0) return "sent";
  return paid >= Number(invoice.totalCents) ? "paid" : "partial";
}
