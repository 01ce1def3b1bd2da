import { Op } from "sequelize";
import { sendPreviewOf } from "~/services/documents/send-preview";
import { assertManagesVisit } from "~/services/visits/access.server";
import { inTenant, rows, type Tx } from "../../../db/index";
import {
  Customer,
  Invoice,
  InvoiceItem,
  type Job,
  Payment,
  Quote,
  type Tenant,
  TimeEntry,
  User,
  Visit,
} from "../../../db/models/index";
import { decimalToMilli, percentToPpm, type LineItemInput } from "~/services/documents/line-items";
import { priceForm } from "~/services/documents/pricing.server";
import { defaultChoice, loadRateBook } from "~/services/taxes/taxes.server";
import { storedDiscount } from "~/services/taxes/rate-book";
import type { Discount } from "~/services/money/prices";
import {
  addDays,
  builderContext,
  chosenQuoteItems,
  dayIn,
  documentDiscountForEdit,
  documentForEdit,
  lineForEdit,
  livePortalLink,
  tenantOf,
} from "~/services/quotes/quotes.server";
import { recordHistory } from "~/services/history/history.server";
import { previewInvoiceEmail, queueInvoiceEmail } from "~/services/messages/compose.server";
import { assertManagesRecords, lockJob } from "~/services/jobs/jobs.server";
import { applyQuoteDeposit, sentStatus } from "./deposits.server";
import { portalShare } from "~/services/portal/links.server";
import { nextDocumentNumber } from "~/services/records/numbering.server";
import { conflict, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { formatDate, formatMoney } from "~/utils/format";
import type { InvoiceFormValue } from "./schemas";

// Invoices changed by hand in the office.

/** Voids an invoice without payments; one with payments is 409 and stays as it was. Voiding twice changes nothing. */
export async function voidInvoice(actor: Actor, invoiceId: string): Promise<Invoice> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const invoice =
      isUuid(invoiceId) &&
      (await Invoice.findOne({
        where: { tenantId: actor.tenantId, id: invoiceId },
        transaction: t,
        lock: t.LOCK.UPDATE,
      }));
    if (!invoice) throw notFound("Invoice not found.");
    if (invoice.status === "void") return invoice;
    // Payments are made under this same lock, so none can slip in between this check and the update.
    const payments = await Payment.count({ where: { tenantId: actor.tenantId, invoiceId }, transaction: t });
    if (payments > 0 || Number(invoice.amountPaidCents) > 0) {
      throw conflict(
        `Invoice ${invoice.number} has payments recorded, so it cannot be voided. Refund the customer outside the app, or issue a credit on a new invoice.`,
      );
    }
    invoice.set({ status: "void", voidedAt: new Date(), voidedBy: actor.userId });
    await invoice.save({ transaction: t });
    await recordHistory(t, actor, { recordType: "invoice", recordId: invoice.id, action: "voided", summary: "Voided" });
    return invoice;
  });
}

// --- Invoices by hand (docs/decisions/104 and 117) --------------------

/** A draft, or a sent invoice without payments, can be edited; part paid, paid or void cannot (409). */
function assertInvoiceEditable(invoice: Invoice) {
  // A draft may carry a deposit applied on creation (decision 156): still editable, not below it.
  if (invoice.status === "draft") return;
  if (invoice.status === "sent" && Number(invoice.amountPaidCents) === 0) return;
  const why =
    invoice.status === "void"
      ? "is void"
      : invoice.status === "sent"
        ? "has payments recorded"
        : `is ${invoice.status === "partial" ? "part paid" : invoice.status}`;
  throw conflict(`Invoice ${invoice.number} ${why} and can no longer be edited.`);
}

async function findInvoice(t: Tx, actor: Actor, id: string, lock = false) {
  if (!isUuid(id)) throw notFound("Invoice not found.");
  const invoice = await Invoice.findOne({
    where: { tenantId: actor.tenantId, id },
    transaction: t,
    ...(lock ? { lock: t.LOCK.UPDATE } : {}),
  });
  if (!invoice) throw notFound("Invoice not found.");
  return invoice;
}

/** An invoice's lines all count: options and optional flags are a quote's, never an invoice's. */
const invoiceLines = (items: LineItemInput[]) => items.map((l) => ({ ...l, optional: false, option: null }));

/** The priced form as stored rows of one invoice (an invoice's lines carry no option). */
const invoiceItemRows = (tenantId: string, invoiceId: string, priced: Awaited<ReturnType<typeof priceForm>>) =>
  priced.rows.map(({ optionName: _o, optional: _p, ...r }) => ({ tenantId, invoiceId, ...r }));

async function requireInvoiceCustomer(t: Tx, actor: Actor, customerId: string) {
  const customer = await Customer.findOne({
    where: { tenantId: actor.tenantId, id: customerId },
    attributes: ["id"],
    transaction: t,
  });
  if (!customer) throw validationFailed({ customerId: ["Choose a customer"] });
}

/** Issue date (blank = today in the tenant's zone) and due date (blank = issue + payment terms); due never before issue. */
function invoiceDates(tenant: Tenant, v: Pick<InvoiceFormValue, "issueDate" | "dueDate">) {
  const issueDate = v.issueDate ?? dayIn(tenant.timeZone);
  const dueDate = v.dueDate ?? addDays(issueDate, tenant.paymentTermsDays);
  if (dueDate < issueDate) throw validationFailed({ dueDate: ["The due date is before the issue date."] });
  return { issueDate, dueDate };
}

/** The invoice form's defaults: the quote builder's context, with today and the due date by the payment terms. */
export async function invoiceFormContext(actor: Actor) {
  const context = await builderContext(actor);
  return inTenant(actor.tenantId, async (t) => {
    const tenant = await tenantOf(t, actor.tenantId);
    const issueDate = dayIn(tenant.timeZone);
    return {
      ...context,
      issueDate,
      dueDate: addDays(issueDate, tenant.paymentTermsDays),
      paymentTermsDays: tenant.paymentTermsDays,
    };
  });
}
export type InvoiceFormContext = Awaited<ReturnType<typeof invoiceFormContext>>;

/** The customer /invoices/new?customerId= names (404 for an unknown id or another tenant's). */
export async function invoiceCustomer(actor: Actor, customerId: string) {
  if (!isUuid(customerId)) throw notFound("Customer not found.");
  return inTenant(actor.tenantId, async (t) => {
    const c = await Customer.findOne({
      where: { tenantId: actor.tenantId, id: customerId },
      attributes: ["id", "name"],
      transaction: t,
    });
    if (!c) throw notFound("Customer not found.");
    return { id: c.id, name: c.name };
  });
}

/** Creates a draft invoice numbered INV-0001... from the tenant's counter (docs/decisions/121). */
export async function createInvoice(
  actor: Actor,
  v: InvoiceFormValue,
  opts: { transaction?: Tx } = {},
): Promise<{ id: string; number: string }> {
  assertManagesRecords(actor);
  const run = async (t: Tx) => {
    await requireInvoiceCustomer(t, actor, v.customerId);
    const tenant = await tenantOf(t, actor.tenantId);
    const { issueDate, dueDate } = invoiceDates(tenant, v);
    const priced = await priceForm(t, actor.tenantId, {
      customerId: v.customerId,
      items: invoiceLines(v.items),
      discount: v.discount,
    });
    // Taken last: the counter row stays locked until this transaction ends.
    const number = await nextDocumentNumber(t, actor.tenantId, "invoice");
    const invoice = await Invoice.create(
      {
        tenantId: actor.tenantId,
        customerId: v.customerId,
        number,
        status: "draft",
        issueDate,
        dueDate,
        currency: v.currency ?? tenant.currency.trim(),
        notes: v.notes,
        ...priced.totals,
        amountPaidCents: 0,
      },
      { transaction: t },
    );
    await InvoiceItem.bulkCreate(invoiceItemRows(actor.tenantId, invoice.id, priced), {
      transaction: t,
      returning: false,
    });
    await recordHistory(t, actor, {
      recordType: "invoice",
      recordId: invoice.id,
      action: "created",
      summary: "Created",
    });
    return { id: invoice.id, number };
  };
  return opts.transaction ? run(opts.transaction) : inTenant(actor.tenantId, run);
}

/** The invoice's fields as the form shows them; 409 when it can no longer be edited. */
export async function invoiceForEdit(actor: Actor, id: string) {
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await findInvoice(t, actor, id);
    assertInvoiceEditable(invoice);
    const items = await InvoiceItem.findAll({
      where: { tenantId: actor.tenantId, invoiceId: id },
      order: [["position", "ASC"]],
      transaction: t,
    });
    return {
      ...(await documentForEdit(t, actor, invoice)),
      values: {
        customerId: invoice.customerId,
        issueDate: invoice.issueDate ?? "",
        dueDate: invoice.dueDate ?? "",
        currency: invoice.currency.trim(),
        notes: invoice.notes ?? "",
        ...documentDiscountForEdit(invoice),
        items: items.map((l) => ({ ...lineForEdit(l), optional: "", option: "" })),
      },
    };
  });
}

/** Saves a draft (or a sent, unpaid) invoice's fields and lines; 409 once paid, part paid or void. */
export async function updateInvoice(actor: Actor, id: string, v: InvoiceFormValue): Promise<void> {
  assertManagesRecords(actor);
  await inTenant(actor.tenantId, async (t) => {
    // Locked: a payment recorded at the same moment waits, and this sees it.
    const invoice = await findInvoice(t, actor, id, true);
    assertInvoiceEditable(invoice);
    await requireInvoiceCustomer(t, actor, v.customerId);
    const tenant = await tenantOf(t, actor.tenantId);
    const { issueDate, dueDate } = invoiceDates(tenant, {
      issueDate: v.issueDate ?? invoice.issueDate,
      dueDate: v.dueDate,
    });
    const had = await InvoiceItem.findAll({
      where: { tenantId: actor.tenantId, invoiceId: id },
      attributes: ["taxRateId"],
      transaction: t,
    });
    const priced = await priceForm(t, actor.tenantId, {
      customerId: v.customerId,
      items: invoiceLines(v.items),
      discount: v.discount,
      keep: new Set(had.map((l) => l.taxRateId).filter((x): x is string => !!x)),
    });
    const paid = Number(invoice.amountPaidCents);
    if (priced.totals.totalCents < paid) {
      throw validationFailed({
        items: [
          `The total cannot be less than the ${formatMoney(paid, invoice.currency.trim())} already paid on this invoice.`,
        ],
      });
    }
    invoice.set({
      customerId: v.customerId,
      issueDate,
      dueDate,
      currency: v.currency ?? invoice.currency,
      notes: v.notes,
      ...priced.totals,
    });
    await invoice.save({ transaction: t });
    await InvoiceItem.destroy({ where: { tenantId: actor.tenantId, invoiceId: id }, transaction: t });
    await InvoiceItem.bulkCreate(invoiceItemRows(actor.tenantId, id, priced), { transaction: t, returning: false });
    await recordHistory(t, actor, { recordType: "invoice", recordId: id, action: "updated", summary: "Edited" });
  });
}

/**
 * Send: a draft becomes sent (sent_at now) and the customer has a live portal link (theirs, or
 * a new one of 30 days); with an e-mail on file the invoice e-mail is queued. Sending a sent or
 * part-paid invoice again sends the e-mail again; a paid or void one is 409.
 */
/**
 * Send a draft (draft -> sent) or, with `resend`, e-mail an open invoice again. An open invoice
 * without `resend` (a second click of the first Send, a form posted twice) sends nothing.
 */
export async function sendInvoice(
  actor: Actor,
  id: string,
  opts: { resend?: boolean } = {},
): Promise<{ sent: boolean; emailedTo: string | null }> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await findInvoice(t, actor, id, true);
    if (invoice.status === "paid" || invoice.status === "void")
      throw conflict(`Invoice ${invoice.number} is ${invoice.status}: there is nothing to send.`);
    if (invoice.status !== "draft" && !opts.resend) return { sent: false, emailedTo: null };
    const linkId = await livePortalLink(t, actor, invoice.customerId);
    if (invoice.status === "draft") {
      // A deposit already applied makes it part paid (or paid) as it goes out.
      const status = sentStatus(invoice);
      invoice.set({ status, sentAt: new Date(), ...(status === "paid" ? { paidAt: new Date() } : {}) });
      await invoice.save({ transaction: t });
      await recordHistory(t, actor, { recordType: "invoice", recordId: id, action: "sent", summary: "Sent" });
    } else {
      await recordHistory(t, actor, { recordType: "invoice", recordId: id, action: "resent", summary: "Sent again" });
    }
    // As a quote's Send (docs/decisions/140): with an e-mail on file the message goes to the outbox in this transaction.
    const emailed = await queueInvoiceEmail(t, actor.tenantId, invoice, linkId, actor.userId);
    return { sent: true, emailedTo: emailed?.queued ? emailed.to : null };
  });
}

/** What Send will do, shown before it: the invoice's state and the message as the customer will read it. */
export async function invoiceSendPreview(actor: Actor, id: string) {
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await findInvoice(t, actor, id);
    return sendPreviewOf(invoice, ["draft", "sent", "partial"], await previewInvoiceEmail(t, actor.tenantId, invoice));
  });
}

/** What the invoice page offers to share an open invoice: the live portal link and a ready message. */
export async function invoiceShare(actor: Actor, invoiceId: string) {
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await findInvoice(t, actor, invoiceId);
    if (invoice.status !== "sent" && invoice.status !== "partial") return null;
    const currency = invoice.currency.trim();
    const balance = Number(invoice.totalCents) - Number(invoice.amountPaidCents);
    return portalShare(t, actor.tenantId, invoice.customerId, (business, url) => ({
      subject: `Invoice ${invoice.number} from ${business}`,
      lines: [
        `Here is your invoice ${invoice.number}: ${formatMoney(balance, currency)} due${invoice.dueDate ? ` by ${formatDate(invoice.dueDate)}` : ""}.`,
        "You can see it and pay online:",
        url,
      ],
    }));
  });
}

/** "1 h 30 min" */
const duration = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;

type Line = {
  description: string;
  quantityMilli: number;
  unitPriceCents: number;
  taxRatePpm: number;
  taxRateId: string | null;
  discount: Discount | null;
};

/** The job's line items (job_items, migration 0200) in the job's order, each with its per-visit flag. */
async function jobItemLines(t: Tx, tenantId: string, jobId: string): Promise<Array<Line & { perVisit: boolean }>> {
  const items = await rows<{
    description: string;
    quantity: string;
    unit_price_cents: string;
    tax_rate: string;
    tax_rate_id: string | null;
    discount_type: string | null;
    discount_percent: string | null;
    discount_amount_cents: string | null;
    per_visit: boolean;
  }>(
    `SELECT description, quantity::text, unit_price_cents, tax_rate::text, tax_rate_id, discount_type,
            discount_percent::text, discount_amount_cents, per_visit FROM job_items
      WHERE tenant_id = $1 AND job_id = $2 ORDER BY position, id`,
    [tenantId, jobId],
    t,
  );
  return items.map((l) => ({
    description: l.description,
    quantityMilli: decimalToMilli(l.quantity),
    unitPriceCents: Number(l.unit_price_cents),
    taxRatePpm: percentToPpm(l.tax_rate),
    taxRateId: l.tax_rate_id,
    discount: storedDiscount(l.discount_type, l.discount_percent, l.discount_amount_cents),
    perVisit: l.per_visit,
  }));
}

/**
 * Time entries as labour lines at each member's hourly rate (users.hourly_rate_cents; a member
 * without a rate gives a line at 0 for the office to price): "Labour: Tom Tech, Jun 16, 2026 (1 h 30 min)".
 */
async function labourLines(t: Tx, tenant: Tenant, entries: TimeEntry[]): Promise<Line[]> {
  const userIds = [...new Set(entries.map((e) => e.userId).filter((u): u is string => !!u))];
  const members = new Map(
    (userIds.length
      ? await User.findAll({
          where: { tenantId: tenant.id, id: userIds },
          attributes: ["id", "name", "hourlyRateCents"],
          transaction: t,
        })
      : []
    ).map((u) => [u.id, u]),
  );
  const labourTax = await labourTaxOf(t, tenant);
  const lines: Line[] = [];
  for (const e of entries) {
    const minutes = Math.round((e.endedAt.getTime() - e.startedAt.getTime()) / 60_000);
    if (minutes <= 0) continue;
    const member = e.userId ? members.get(e.userId) : undefined;
    const day = formatDate(dayIn(tenant.timeZone, e.startedAt));
    lines.push({
      description:
        `Labour: ${member?.name ?? "former member"}, ${day} (${duration(minutes)})${e.note ? ` · ${e.note}` : ""}`.slice(
          0,
          1000,
        ),
      quantityMilli: Math.round((minutes * 1000) / 60),
      unitPriceCents: Number(member?.hourlyRateCents ?? 0),
      ...labourTax,
      discount: null,
    });
  }
  return lines;
}

/** Labour's tax: the default named rate or group, else the company's default percent. */
async function labourTaxOf(t: Tx, tenant: Tenant): Promise<{ taxRateId: string | null; taxRatePpm: number }> {
  const d = defaultChoice(await loadRateBook(t, tenant.id));
  if (d) return { taxRateId: d.id, taxRatePpm: d.members.reduce((a, m) => a + m.ppm, 0) };
  return { taxRateId: null, taxRatePpm: percentToPpm(String(tenant.defaultTaxRate)) };
}

/** A draft invoice of `lines` for the job (or one of its visits), with its history on both records. */
async function draftInvoice(
  t: Tx,
  actor: Actor,
  tenant: Tenant,
  o: { job: Job; lines: Line[]; quote: Quote | null; visitId: string | null; what: string },
): Promise<{ id: string; number: string; created: boolean }> {
  const lines: Line[] = o.lines.length
    ? o.lines
    : [
        {
          description: o.job.title.slice(0, 1000),
          quantityMilli: 1000,
          unitPriceCents: 0,
          ...(await labourTaxOf(t, tenant)),
          discount: null,
        },
      ];
  const items: LineItemInput[] = lines.slice(0, 200).map((l) => ({
    description: l.description,
    quantity: l.quantityMilli,
    unitPrice: l.unitPriceCents,
    taxRate: l.taxRatePpm,
    taxRateId: l.taxRateId,
    discountType: l.discount?.type ?? null,
    discountValue: null,
    discount: l.discount,
    optional: false,
    option: null,
  }));
  // The rates the job's lines carry stay, archived or not: they were chosen when the work was agreed.
  const priced = await priceForm(t, actor.tenantId, {
    customerId: o.job.customerId,
    items,
    discount: null,
    keep: new Set(lines.map((l) => l.taxRateId).filter((x): x is string => !!x)),
  });
  const issueDate = dayIn(tenant.timeZone);
  const number = await nextDocumentNumber(t, actor.tenantId, "invoice");
  const invoice = await Invoice.create(
    {
      tenantId: actor.tenantId,
      customerId: o.job.customerId,
      number,
      status: "draft",
      issueDate,
      dueDate: addDays(issueDate, tenant.paymentTermsDays),
      currency: o.quote?.currency.trim() ?? tenant.currency.trim(),
      notes: null,
      ...priced.totals,
      amountPaidCents: 0,
      jobId: o.job.id,
      visitId: o.visitId,
      quoteId: o.quote?.id ?? null,
      // Where the work was: the job's service property, carried to what it bills.
      propertyId: o.job.propertyId,
    },
    { transaction: t },
  );
  await InvoiceItem.bulkCreate(invoiceItemRows(actor.tenantId, invoice.id, priced), {
    transaction: t,
    returning: false,
  });
  await recordHistory(t, actor, {
    recordType: "invoice",
    recordId: invoice.id,
    action: "created",
    summary: `Created from ${o.what} “${o.job.title}”`.slice(0, 500),
    details: { jobId: o.job.id, ...(o.visitId ? { visitId: o.visitId } : {}) },
  });
  await recordHistory(t, actor, {
    recordType: "job",
    recordId: o.job.id,
    action: "invoiced",
    summary: `Invoice ${number} created${o.visitId ? " for a visit" : ""}`,
    details: { invoiceId: invoice.id, ...(o.visitId ? { visitId: o.visitId } : {}) },
  });
  return { id: invoice.id, number, created: true };
}

const quoteOfJob = (t: Tx, tenantId: string, job: Job) =>
  job.quoteId
    ? Quote.findOne({ where: { tenantId, id: job.quoteId }, transaction: t })
    : Quote.findOne({ where: { tenantId, jobId: job.id }, transaction: t });

/**
 * "Create invoice" from a job (docs/decisions/117, 371): a draft invoice whose lines are the
 * job's line items (those not billed per visit; a job without items: its quote's chosen items,
 * the customer's recorded choice, else the first option and every non-optional line), then each
 * time entry as labour, except the time of visits that have their own invoice: no labour is
 * billed twice. Exactly once per job: the job row is locked first, so a second call, at once or
 * later, waits and lands on the same invoice; invoices_job_key backs it in the schema.
 */
export async function createInvoiceFromJob(
  actor: Actor,
  jobId: string,
): Promise<{ id: string; number: string; created: boolean }> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    const existing = await Invoice.findOne({
      where: { tenantId: actor.tenantId, jobId: job.id, visitId: null },
      attributes: ["id", "number"],
      transaction: t,
    });
    if (existing) return { id: existing.id, number: existing.number, created: false };
    if (job.status === "cancelled") throw conflict("This job is cancelled. Reopen it before invoicing it.");
    const tenant = await tenantOf(t, actor.tenantId);
    const quote = await quoteOfJob(t, actor.tenantId, job);
    const items = await jobItemLines(t, actor.tenantId, job.id);
    const lines: Line[] = [];
    if (items.length) {
      // Billed per visit, the per-visit items went on the visits' invoices; on completion, they are billed once here.
      lines.push(...items.filter((i) => job.billing !== "per_visit" || !i.perVisit));
    } else if (quote) {
      for (const l of await chosenQuoteItems(t, actor.tenantId, quote.id)) {
        lines.push({
          description: l.description,
          quantityMilli: decimalToMilli(l.quantity),
          unitPriceCents: Number(l.unitPriceCents),
          taxRatePpm: percentToPpm(l.taxRate),
          taxRateId: l.taxRateId,
          discount: storedDiscount(l.discountType, l.discountPercent, l.discountAmountCents),
        });
      }
    }
    const invoicedVisits = await rows<{ visit_id: string }>(
      `SELECT visit_id FROM invoices WHERE tenant_id = $1 AND job_id = $2 AND visit_id IS NOT NULL AND status <> 'void'`,
      [actor.tenantId, job.id],
      t,
    );
    const billed = new Set(invoicedVisits.map((r) => r.visit_id));
    const entries = await TimeEntry.findAll({
      where: { tenantId: actor.tenantId, jobId: job.id, kind: { [Op.ne]: "break" } },
      order: [
        ["startedAt", "ASC"],
        ["id", "ASC"],
      ],
      transaction: t,
    });
    lines.push(
      ...(await labourLines(
        t,
        tenant,
        entries.filter((e) => !e.visitId || !billed.has(e.visitId)),
      )),
    );
    const made = await draftInvoice(t, actor, tenant, { job, lines, quote, visitId: null, what: "job" });
    // A deposit paid with the quote's approval becomes this invoice's first payment (decision 156).
    if (quote) await applyQuoteDeposit(t, actor, made.id);
    return made;
  });
}

/**
 * A completed visit of a job billed per visit: one draft invoice of the job's per-visit items
 * and the visit's own time as labour (docs/decisions/371). Once per visit: the visit row is
 * locked first, so a second call, at once or later, lands on the same invoice; invoices_visit_key
 * backs it in the schema. A visit the caller's tenant does not have is 404; a visit not
 * completed, or of a job billed on completion, is 409.
 */
export async function createInvoiceFromVisit(
  actor: Actor,
  visitId: string,
): Promise<{ id: string; number: string; created: boolean }> {
  await assertManagesVisit(actor, visitId);
  return inTenant(actor.tenantId, async (t) => {
    const visit =
      isUuid(visitId) &&
      (await Visit.findOne({ where: { tenantId: actor.tenantId, id: visitId }, transaction: t, lock: t.LOCK.UPDATE }));
    if (!visit) throw notFound("Visit not found.");
    const existing = await Invoice.findOne({
      where: { tenantId: actor.tenantId, visitId: visit.id },
      attributes: ["id", "number"],
      transaction: t,
    });
    if (existing) return { id: existing.id, number: existing.number, created: false };
    const job = await lockJob(actor, visit.jobId, t);
    if (job.billing !== "per_visit")
      throw conflict("This job is billed on completion: create its invoice from the job once the work is done.");
    if (visit.status !== "completed") throw conflict("Only a completed visit can be invoiced.");
    const tenant = await tenantOf(t, actor.tenantId);
    const entries = await TimeEntry.findAll({
      where: { tenantId: actor.tenantId, visitId: visit.id, kind: { [Op.ne]: "break" } },
      order: [
        ["startedAt", "ASC"],
        ["id", "ASC"],
      ],
      transaction: t,
    });
    const lines = [
      ...(await jobItemLines(t, actor.tenantId, job.id)).filter((i) => i.perVisit),
      ...(await labourLines(t, tenant, entries)),
    ];
    const quote = await quoteOfJob(t, actor.tenantId, job);
    return draftInvoice(t, actor, tenant, { job, lines, quote, visitId: visit.id, what: "a visit of job" });
  });
}

/**
 * Time on a job that "Create invoice" could not price: each member (or former member) with
 * time entries and no hourly rate, with their minutes. The job page warns before invoicing,
 * since their labour lines would come out at no charge.
 */
export async function unpricedLabour(actor: Actor, jobId: string): Promise<Array<{ name: string; minutes: number }>> {
  if (!isUuid(jobId)) return [];
  return inTenant(actor.tenantId, (t) =>
    rows<{ name: string; minutes: number }>(
      `SELECT coalesce(u.name, 'A former member') AS name,
              sum(round(extract(epoch FROM te.ended_at - te.started_at) / 60))::int AS minutes
         FROM time_entries te LEFT JOIN users u ON u.tenant_id = te.tenant_id AND u.id = te.user_id
        WHERE te.tenant_id = $1 AND te.job_id = $2 AND te.ended_at > te.started_at
          AND coalesce(u.hourly_rate_cents, 0) = 0
        GROUP BY 1 ORDER BY 1`,
      [actor.tenantId, jobId],
      t,
    ),
  );
}

/** The job's invoice (the one "Create invoice" made), if any. */
export async function jobInvoice(actor: Actor, jobId: string) {
  if (!isUuid(jobId)) return null;
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await Invoice.findOne({
      where: { tenantId: actor.tenantId, jobId, visitId: null },
      attributes: ["id", "number", "status"],
      transaction: t,
    });
    return invoice ? { id: invoice.id, number: invoice.number, status: invoice.status } : null;
  });
}
