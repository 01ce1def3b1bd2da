import { UniqueConstraintError } from "sequelize";
import { oneAtATime } from "~/services/limits/one-at-a-time.server";
import { inTenant, type Tx } from "../../../db/index";
import { Customer, Invoice, Payment } from "../../../db/models/index";
import { conflict, notFound, validationFailed, type AppError } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { formatMoney } from "~/utils/format";
import { notify } from "~/services/events/events.server";
import { recordHistory, type HistoryActor } from "~/services/history/history.server";
import { queueOfficeNotice, queueReceipt } from "~/services/messages/compose.server";
import { assertManagesRecords, tenantTimeZone } from "~/services/jobs/jobs.server";
import { zonedToday } from "~/services/jobs/local-time";
import { PAYMENT_METHOD_LABELS, type OfficePaymentInput } from "./schemas";

// Payments on an invoice, from the portal (sandbox) or recorded by the office. One path for
// both: the invoice row is locked first, so twenty posts at once are taken one after the other
// and each sees the balance the one before it left; the idempotency key's unique index makes a
// repeated form record nothing (docs/decisions/021, 126).

export type PaymentToRecord = {
  tenantId: string;
  invoiceId: string;
  amountCents: number;
  method: string;
  reference: string;
  idempotencyKey: string;
  payerIp?: string | null;
  receivedOn?: string | null;
  recordedBy?: string | null;
  /** The portal sees only its own customer's invoices. */
  customerId?: string;
};

export type PaymentOutcome = {
  invoiceId: string;
  paymentId: string;
  repeated: boolean;
  amountCents: number;
  currency: string;
  status: string;
  balanceCents: number;
};

/** The portal acts as the customer: their name on the history line. */
async function withCustomerName(by: HistoryActor, customerId: string, t: Tx): Promise<HistoryActor> {
  if (by.source !== "portal" || by.name) return by;
  const customer = await Customer.findOne({
    where: { tenantId: by.tenantId, id: customerId },
    attributes: ["name"],
    transaction: t,
  });
  return { ...by, name: customer?.name ?? null };
}

const formUsed = () => conflict("This payment form was already used. Reload the page and try again.");

/**
 * Records one payment: at most the balance, on a sent or part-paid invoice; the invoice becomes
 * `partial` or `paid`. The same idempotency key again (a double click, a resubmitted page)
 * answers like the first and records nothing. `unknown` is what a missing (or another
 * customer's or tenant's) invoice answers.
 */
export async function recordPayment(
  t: Tx,
  p: PaymentToRecord,
  by: HistoryActor,
  unknown: () => AppError,
): Promise<PaymentOutcome> {
  if (!isUuid(p.invoiceId)) throw unknown();
  const invoice = await Invoice.findOne({
    where: { tenantId: p.tenantId, id: p.invoiceId, ...(p.customerId ? { customerId: p.customerId } : {}) },
    transaction: t,
    lock: t.LOCK.UPDATE,
  });
  if (!invoice) throw unknown();
  const outcome = (paymentId: string, repeated: boolean, amountCents: number): PaymentOutcome => ({
    invoiceId: invoice.id,
    paymentId,
    repeated,
    amountCents,
    currency: invoice.currency,
    status: invoice.status,
    balanceCents: Number(invoice.totalCents) - Number(invoice.amountPaidCents),
  });
  // Under the invoice lock, a payment made with this key by an earlier request is visible.
  const earlier = await Payment.findOne({
    where: { tenantId: p.tenantId, idempotencyKey: p.idempotencyKey },
    transaction: t,
  });
  if (earlier?.invoiceId === invoice.id) return outcome(earlier.id, true, Number(earlier.amountCents));
  if (earlier) throw formUsed();
  if (invoice.status === "paid") throw conflict("This invoice is already paid in full. Thank you!");
  if (invoice.status === "void") throw conflict("This invoice is void: nothing is due on it.");
  if (invoice.status === "draft") throw conflict("This invoice is a draft: it is open for payment once it is sent.");
  if (invoice.status !== "sent" && invoice.status !== "partial")
    throw conflict("This invoice is not open for payment.");

  const balance = Number(invoice.totalCents) - Number(invoice.amountPaidCents);
  if (p.amountCents > balance) {
    throw validationFailed({
      amount: [`The balance is ${formatMoney(balance, invoice.currency)}. Enter that amount or less.`],
    });
  }
  let payment: Payment;
  try {
    payment = await Payment.create(
      {
        tenantId: p.tenantId,
        invoiceId: invoice.id,
        amountCents: p.amountCents,
        currency: invoice.currency,
        method: p.method,
        reference: p.reference,
        idempotencyKey: p.idempotencyKey,
        payerIp: p.payerIp ?? null,
        receivedOn: p.receivedOn ?? null,
        recordedBy: p.recordedBy ?? null,
        recordedAt: new Date(),
      },
      { transaction: t },
    );
  } catch (error) {
    // The same key used at once on another invoice: its unique index refuses the second.
    if (error instanceof UniqueConstraintError) throw formUsed();
    throw error;
  }
  const paid = Number(invoice.amountPaidCents) + p.amountCents;
  const full = paid >= Number(invoice.totalCents);
  invoice.set({ amountPaidCents: paid, status: full ? "paid" : "partial", paidAt: full ? new Date() : invoice.paidAt });
  await invoice.save({ transaction: t });
  await recordHistory(t, await withCustomerName(by, invoice.customerId, t), {
    recordType: "invoice",
    recordId: invoice.id,
    action: "payment_recorded",
    details: { paymentId: payment.id, amountCents: p.amountCents, method: p.method },
    summary:
      p.method === "sandbox"
        ? `Paid ${formatMoney(p.amountCents, invoice.currency)} in the portal`
        : `Payment of ${formatMoney(p.amountCents, invoice.currency)} by ${(PAYMENT_METHOD_LABELS[p.method] ?? p.method).toLowerCase()} recorded`,
  });
  if (full)
    await recordHistory(
      t,
      { tenantId: p.tenantId, source: "system" },
      { recordType: "invoice", recordId: invoice.id, action: "paid", summary: "Paid in full" },
    );
  // The customer's receipt, and for a portal payment the office's notice, in this same
  // transaction (docs/decisions/140): a payment recorded always has its e-mails, once.
  const amount = formatMoney(p.amountCents, invoice.currency);
  const balanceCents = Number(invoice.totalCents) - paid;
  const method = p.method === "sandbox" ? "Online (portal)" : (PAYMENT_METHOD_LABELS[p.method] ?? p.method);
  await queueReceipt(
    t,
    p.tenantId,
    {
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      customerId: invoice.customerId,
      paymentId: payment.id,
      amountCents: p.amountCents,
      balanceCents,
      currency: invoice.currency,
      method,
      reference: p.reference || null,
    },
    p.recordedBy ?? null,
  );
  if (by.source === "portal") {
    await queueOfficeNotice(t, p.tenantId, {
      kind: "office_portal_payment",
      subject: `Payment of ${amount} on invoice ${invoice.number}`,
      path: `/invoices/${invoice.id}`,
      paragraphs: [`A customer paid ${amount} on invoice ${invoice.number} in the portal.`],
      facts: [
        ["Invoice", invoice.number],
        ["Payment", amount],
        ["Balance", formatMoney(balanceCents, invoice.currency)],
      ],
      record: { type: "invoice", id: invoice.id },
    });
  }
  // Live pages (dashboard, the invoice) hear of it once the transaction commits (section 17).
  await notify(t, p.tenantId, { type: "payment.recorded", id: invoice.id });
  return outcome(payment.id, false, p.amountCents);
}

/** A payment recorded by staff (cash, check, card, bank transfer, other), dated the day it was received. */
export async function recordOfficePayment(
  actor: Actor,
  invoiceId: string,
  input: OfficePaymentInput,
): Promise<PaymentOutcome> {
  assertManagesRecords(actor);
  // Payments on one invoice wait their turn here, not holding a pooled connection on its row lock.
  return oneAtATime(actor.tenantId, `invoice:${invoiceId}`, () => officePayment(actor, invoiceId, input));
}

function officePayment(actor: Actor, invoiceId: string, input: OfficePaymentInput): Promise<PaymentOutcome> {
  return inTenant(actor.tenantId, async (t) => {
    const today = zonedToday(await tenantTimeZone(actor.tenantId, t));
    if (input.receivedOn > today)
      throw validationFailed({ receivedOn: ["The payment cannot be received in the future."] });
    const outcome = await recordPayment(
      t,
      {
        tenantId: actor.tenantId,
        invoiceId,
        amountCents: input.amount,
        method: input.method,
        reference: input.reference ?? "",
        idempotencyKey: input.idempotencyKey,
        receivedOn: input.receivedOn,
        recordedBy: actor.userId,
      },
      actor,
      () => notFound("Invoice not found."),
    );
    return outcome;
  });
}
