import { inTenant } from "../../../db/index";
import { Invoice, Payment } from "../../../db/models/index";
import { conflict, notFound } from "~/utils/app-error";
import type { Actor } from "~/utils/auth.server";
import { isUuid } from "~/utils/crypto.server";
import { recordHistory } from "~/services/history/history.server";
import { assertManagesRecords } from "~/services/jobs/jobs.server";

// Invoices changed by hand in the office (CONTRACT section 12).

/** Voids an invoice without payments; one with payments is 409 and stays as it was. Voiding twice changes nothing. */
export async function voidInvoice(actor: Actor, invoiceId: string): Promise<Invoice> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const invoice = isUuid(invoiceId) && (await Invoice.findOne({ where: { tenantId: actor.tenantId, id: invoiceId }, transaction: t, lock: t.LOCK.UPDATE }));
    if (!invoice) throw notFound("Invoice not found.");
    if (invoice.status === "void") return invoice;
    // Payments are made under this same lock, so none can slip in between this check and the update.
    const payments = await Payment.count({ where: { tenantId: actor.tenantId, invoiceId }, transaction: t });
    if (payments > 0 || Number(invoice.amountPaidCents) > 0) {
      throw conflict(`Invoice ${invoice.number} has payments recorded, so it cannot be voided. Refund the customer outside the app, or issue a credit on a new invoice.`);
    }
    invoice.set({ status: "void", voidedAt: new Date(), voidedBy: actor.userId });
    await invoice.save({ transaction: t });
    await recordHistory(t, actor, { recordType: "invoice", recordId: invoice.id, action: "voided", summary: "Voided" });
    return invoice;
  });
}
