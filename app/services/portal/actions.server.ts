import { randomBytes } from "node:crypto";
import { one, type Tx } from "../../../db/index";
import { Customer, CustomerProperty, Quote } from "../../../db/models";
import { conflict, validationFailed } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import { formatDate } from "~/utils/format";
import { oneLineAddress } from "~/utils/address";
import { notify } from "~/services/events/events.server";
import { recordPayment } from "~/services/invoices/payments.server";
import { queueOfficeNotice } from "~/services/messages/compose.server";
import type { Portal } from "./access.server";
import { approveQuote, recordDecline, requestQuoteChanges } from "./quote-decisions.server";
import type { BookingRequestInput, PaymentInput, QuoteDecisionInput } from "./schemas";
import type { PortalDone } from "./types";

// The three portal actions. Each runs inside the portal's transaction (withPortal) and takes
// a row lock on the record it changes before checking its state, so two clicks, two tabs or
// two servers cannot approve twice or pay twice: the second waits, then sees the first.

export type Confirmation = { done: PortalDone; id: string };
export type RequestMeta = { ip: string; userAgent: string | null };

// Another customer's or tenant's id is answered exactly like an id that does not exist.
const unknownQuote = () =>
  validationFailed({ quoteId: ["This quote is not available on your page. It may have been withdrawn."] });
const unknownInvoice = () =>
  validationFailed({ invoiceId: ["This invoice is not available on your page. It may have been withdrawn."] });

/** Approves (signed: typed name, time, IP, user agent) or declines a sent, unexpired quote of this customer. */
export async function decideQuote(
  portal: Portal,
  t: Tx,
  input: QuoteDecisionInput,
  meta: RequestMeta,
): Promise<Confirmation> {
  if (!isUuid(input.quoteId)) throw unknownQuote();
  const quote = await Quote.findOne({
    where: { tenantId: portal.tenantId, id: input.quoteId, customerId: portal.customerId },
    attributes: ["status", "validUntil", "approvedName"],
    lock: t.LOCK.UPDATE,
    transaction: t,
  });
  if (!quote) throw unknownQuote();
  // Both are YYYY-MM-DD: the quote's last valid day against today in the business's time zone.
  const expired = quote.validUntil !== null && quote.validUntil < portal.today;
  if (quote.status === "approved")
    throw conflict(
      `This quote was already approved${quote.approvedName ? ` by ${quote.approvedName}` : ""}. Nothing more to do.`,
    );
  if (quote.status === "declined")
    throw conflict("This quote was already declined. Ask the business for a new quote if you changed your mind.");
  if (quote.status === "expired" || (quote.status === "sent" && expired)) {
    throw conflict(
      `This quote expired${quote.validUntil ? ` on ${formatDate(quote.validUntil)}` : ""}. Ask ${portal.tenantName} for an updated quote.`,
    );
  }
  if (quote.status !== "sent") throw conflict("This quote is not open for a decision.");

  if (input.decision === "approve") {
    await approveQuote(portal, t, input, meta);
    await tellOfficeOfAnswer(portal, t, input.quoteId, `approved by ${input.signatureName}`);
    return { done: "quote-approved", id: input.quoteId };
  }
  if (input.decision === "changes") {
    await requestQuoteChanges(portal, t, input.quoteId, input.message);
    await tellOfficeOfAnswer(portal, t, input.quoteId, `sent back with a request for changes: "${input.message}"`);
    return { done: "quote-changes-requested", id: input.quoteId };
  }
  await Quote.update(
    { status: "declined", declinedAt: new Date(), declineReason: input.reason || null },
    { where: { tenantId: portal.tenantId, id: input.quoteId }, transaction: t },
  );
  await recordDecline(portal, t, input.quoteId, input.reason);
  await notify(t, portal.tenantId, { type: "quote.declined", id: input.quoteId });
  await tellOfficeOfAnswer(portal, t, input.quoteId, `declined${input.reason ? `: "${input.reason}"` : ""}`);
  return { done: "quote-declined", id: input.quoteId };
}

/** The office hears of a quote's answer by e-mail (the company e-mail), in the answer's transaction. */
async function tellOfficeOfAnswer(portal: Portal, t: Tx, quoteId: string, what: string) {
  const quote = await Quote.findOne({
    where: { tenantId: portal.tenantId, id: quoteId },
    attributes: ["number", "customerId"],
    transaction: t,
  });
  const customer =
    quote &&
    (await Customer.findOne({
      where: { tenantId: portal.tenantId, id: quote.customerId },
      attributes: ["name"],
      transaction: t,
    }));
  if (!quote || !customer) return;
  const q = { number: quote.number, customer: customer.name };
  await queueOfficeNotice(t, portal.tenantId, {
    kind: "office_quote_answered",
    subject: `Quote ${q.number} ${what.split(":")[0]}`,
    path: `/quotes/${quoteId}`,
    paragraphs: [`${q.customer}'s quote ${q.number} was ${what} in the portal.`],
    record: { type: "quote", id: quoteId },
  });
}

/**
 * Records a sandbox payment (no money moves) on a sent or part-paid invoice of this customer:
 * at most the balance; the invoice becomes `partial` or `paid`. The form's idempotency key
 * makes a repeat (double click, resubmitted page) answer like the first and record nothing.
 */
export async function recordSandboxPayment(
  portal: Portal,
  t: Tx,
  input: PaymentInput,
  meta: RequestMeta,
): Promise<Confirmation> {
  await recordPayment(
    t,
    {
      tenantId: portal.tenantId,
      customerId: portal.customerId,
      invoiceId: input.invoiceId,
      amountCents: input.amount,
      method: "sandbox",
      reference: sandboxReference(),
      idempotencyKey: input.idempotencyKey,
      payerIp: meta.ip,
    },
    { tenantId: portal.tenantId, source: "portal" },
    unknownInvoice,
  );
  return { done: "payment-recorded", id: input.invoiceId };
}

/** SBX- and 12 random hex digits: plainly a sandbox reference, unique enough to quote on the phone. */
const sandboxReference = () => `SBX-${randomBytes(6).toString("hex").toUpperCase()}`;

/** A booking request in state `new` for staff to triage on /requests. */
export async function requestBooking(portal: Portal, t: Tx, input: BookingRequestInput): Promise<Confirmation> {
  // A property named must be this customer's; another's (or another tenant's) reads as unknown.
  const property = input.propertyId
    ? await CustomerProperty.findOne({
        where: { tenantId: portal.tenantId, customerId: portal.customerId, id: input.propertyId },
        transaction: t,
      })
    : null;
  if (input.propertyId && !property)
    throw validationFailed({ propertyId: ["Choose one of your properties from the list."] });
  const propertyAddress = property ? [property.label, oneLineAddress(property)].filter(Boolean).join(" · ") : null;
  // Raw SQL on purpose: exactly once comes from ON CONFLICT on the partial unique index
  // (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL, which a model's create
  // cannot name; a repeat inserts nothing and returns no row.
  const row = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, portal_link_id, service, description, preferred_date, time_window, address, phone, idempotency_key, property_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
    [
      portal.tenantId,
      portal.customerId,
      portal.linkId,
      input.service,
      input.description || null,
      input.preferredDate || null,
      input.timeWindow,
      input.address || null,
      input.phone || null,
      input.idempotencyKey ?? null,
      property?.id ?? null,
    ],
    t,
  );
  if (row) {
    await notify(t, portal.tenantId, { type: "booking_request.received", id: row.id });
    const customer = await Customer.findOne({
      where: { tenantId: portal.tenantId, id: portal.customerId },
      attributes: ["name"],
      transaction: t,
    });
    await queueOfficeNotice(t, portal.tenantId, {
      kind: "office_booking_request",
      subject: `New booking request: ${input.service}`.slice(0, 300),
      path: "/requests",
      paragraphs: [
        `${customer?.name ?? "A customer"} asked for a visit in the portal.`,
        ...(input.description ? [input.description] : []),
      ],
      facts: [
        ["Service", input.service],
        ...(input.preferredDate ? [["Preferred date", formatDate(input.preferredDate)] as [string, string]] : []),
        ["Time", input.timeWindow],
        ...(input.phone ? [["Phone", input.phone] as [string, string]] : []),
        ...(propertyAddress ? [["Property", propertyAddress] as [string, string]] : []),
        ...(input.address ? [["Address", input.address] as [string, string]] : []),
      ],
      record: { type: "booking_request", id: row.id },
    });
  }
  // A repeat of the same form lands on the same confirmation.
  return { done: "booking-sent", id: row?.id ?? "" };
}
