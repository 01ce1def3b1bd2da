// Quotes by hand (docs/decisions/122): the commands behind the
// quote builder, Send and Convert. Each takes the acting member and runs in one tenant
// transaction; the route, the seed, the tests and the assistant's "start a quote" call them.
import { sendPreviewOf } from "~/services/documents/send-preview";
import { oneAtATime } from "~/services/limits/one-at-a-time.server";
import { Op } from "sequelize";
import { inTenant, insertSelect, one, rows, type Tx } from "../../../db/index";
import {
  BookingRequest,
  Customer,
  Job,
  PortalLink,
  PriceBookItem,
  Quote,
  QuoteDeposit,
  QuoteItem,
  Tenant,
} from "../../../db/models/index";
import { historySource, recordHistory } from "~/services/history/history.server";
import { checklistFromItems, setChecklist } from "~/services/jobs/checklist.server";
import { customerPropertyChoices, propertyOf } from "~/services/jobs/jobs.server";
import { previewQuoteEmail, queueQuoteEmail } from "~/services/messages/compose.server";
import { portalShare } from "~/services/portal/links.server";
import { conflict, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { formatDate, formatMoney } from "~/utils/format";
import { oneLineAddress } from "~/utils/address";
import { centsToInput, countedLines, decimalToMilli, percentToPpm, trimDecimal } from "../documents/line-items";
import { exemptReason, priceForm } from "../documents/pricing.server";
import { choosable, defaultChoice, loadRateBook } from "~/services/taxes/taxes.server";
import { discountInput, storedDiscount } from "~/services/taxes/rate-book";
import { documentFigures } from "../documents/figures";
import type { QuoteFormValue } from "./quote-form";

/** A date as YYYY-MM-DD in a time zone (the tenant's calendar day). */
export function dayIn(timeZone: string, at = new Date()): string {
  let format = DAY_FORMATS.get(timeZone);
  if (!format) {
    // Making a formatter costs far more than using one: one per zone, kept (a few hundred zones at most).
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    DAY_FORMATS.set(timeZone, format);
  }
  return format.format(at);
}
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const EDITABLE = new Set(["draft", "sent"]);

export async function tenantOf(t: Tx, tenantId: string) {
  const tenant = await Tenant.findOne({ where: { id: tenantId }, transaction: t });
  if (!tenant) throw notFound();
  return tenant;
}

/** The builder's defaults: the tenant's currency, tax rate, validity, and its price book. */
export async function builderContext(actor: Actor) {
  return inTenant(actor.tenantId, async (t) => {
    const tenant = await tenantOf(t, actor.tenantId);
    // Plain rows, only the columns the builder shows: up to 500 model instances were built and dropped per page.
    const priceBook = await PriceBookItem.findAll({
      attributes: ["id", "kind", "name", "description", "unitPriceCents", "taxRate", "taxRateId"],
      where: { tenantId: actor.tenantId },
      order: [
        ["name", "ASC"],
        ["id", "ASC"],
      ],
      limit: 500,
      raw: true,
      transaction: t,
    });
    const book = await loadRateBook(t, actor.tenantId);
    const byDefault = defaultChoice(book);
    return {
      currency: tenant.currency.trim(),
      // A default named rate or group wins over the company's default percent.
      taxRate: byDefault ? "" : trimDecimal(tenant.defaultTaxRate),
      taxRateId: byDefault?.id ?? "",
      /** Every rate and group (archived ones too: a document may carry one); the builder offers the active ones. */
      rateBook: book,
      taxChoices: choosable(book).map((c) => ({ id: c.id, label: `${c.name} (${c.percent}%)` })),
      validUntil: addDays(dayIn(tenant.timeZone), tenant.quoteValidityDays),
      priceBook: priceBook.map((p) => ({
        id: p.id,
        kind: p.kind,
        name: p.name,
        description: p.description,
        unitPrice: centsToInput(p.unitPriceCents),
        taxRate: p.taxRateId ? "" : trimDecimal(p.taxRate),
        taxRateId: p.taxRateId ?? "",
      })),
    };
  });
}
export type BuilderContext = Awaited<ReturnType<typeof builderContext>>;

type FormLine = {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  taxRateId?: string;
  optional: string;
  option: string;
};
export type QuotePrefill = {
  customer: { id: string; name: string } | null;
  /** The customer's service properties, the builder's choices (docs/decisions/391). */
  properties: Array<{ id: string; label: string }>;
  requestId: string | null;
  values: {
    customerId?: string;
    title?: string;
    notes?: string;
    requestId?: string;
    propertyId?: string;
    items?: FormLine[];
  };
};

/**
 * What /quotes/new starts from: `?customerId=`, `?requestId=` (the booking request's customer,
 * service as the title, its details in the notes) and repeated `item` with matching `qty`
 * (the assistant's "start a quote"): each item priced from the price book by case-insensitive
 * name, else at 0. Nothing is stored. An unknown customer or request is a 404.
 */
export async function quotePrefill(
  actor: Actor,
  q: { customerId?: string | null; requestId?: string | null; items: string[]; qtys: string[] },
  defaultTaxRate: string,
  defaultTaxRateId = "",
): Promise<QuotePrefill> {
  return inTenant(actor.tenantId, async (t) => {
    const values: QuotePrefill["values"] = {};
    let customerId = q.customerId || null;
    let requestId: string | null = null;
    if (q.requestId) {
      if (!isUuid(q.requestId)) throw notFound("Booking request not found.");
      const request = await BookingRequest.findOne({
        where: { tenantId: actor.tenantId, id: q.requestId },
        transaction: t,
      });
      if (!request) throw notFound("Booking request not found.");
      requestId = request.id;
      customerId = request.customerId;
      values.requestId = request.id;
      values.title = request.service;
      if (request.propertyId) values.propertyId = request.propertyId;
      const when = request.preferredDate
        ? `Preferred date: ${formatDate(request.preferredDate)}${request.timeWindow !== "any" ? ` (${request.timeWindow})` : ""}`
        : null;
      values.notes = [
        request.description,
        request.address ? `Address: ${request.address}` : null,
        request.phone ? `Phone: ${request.phone}` : null,
        when,
      ]
        .filter(Boolean)
        .join("\n");
    }
    let customer: QuotePrefill["customer"] = null;
    let properties: QuotePrefill["properties"] = [];
    if (customerId) {
      if (!isUuid(customerId)) throw notFound("Customer not found.");
      const found = await Customer.findOne({
        where: { tenantId: actor.tenantId, id: customerId },
        attributes: ["id", "name"],
        transaction: t,
      });
      if (!found) throw notFound("Customer not found.");
      customer = { id: found.id, name: found.name };
      values.customerId = found.id;
      properties = await customerPropertyChoices(actor.tenantId, found.id, t);
    }
    const names = q.items
      .map((i) => i.trim())
      .filter(Boolean)
      .slice(0, 50);
    if (names.length) {
      const lower = [...new Set(names.map((n) => n.toLowerCase()))];
      const priced = await PriceBookItem.findAll({ where: { tenantId: actor.tenantId }, transaction: t }).then(
        (all) => new Map(all.filter((p) => lower.includes(p.name.toLowerCase())).map((p) => [p.name.toLowerCase(), p])),
      );
      values.items = names.map((name, i) => {
        const p = priced.get(name.toLowerCase());
        const qty = q.qtys[i]?.trim();
        return {
          description: p?.name ?? name,
          quantity: qty && /^\d+(\.\d{1,3})?$/.test(qty) && Number(qty) > 0 ? qty : "1",
          unitPrice: p ? centsToInput(p.unitPriceCents) : "0.00",
          taxRate: p ? (p.taxRateId ? "" : trimDecimal(p.taxRate)) : defaultTaxRate,
          taxRateId: p ? (p.taxRateId ?? "") : defaultTaxRateId,
          optional: "",
          option: "",
        };
      });
    }
    return { customer, properties, requestId, values };
  });
}

/** The priced form as stored rows of one quote. */
const quoteItemRows = (tenantId: string, quoteId: string, priced: Awaited<ReturnType<typeof priceForm>>) =>
  priced.rows.map((r) => ({ tenantId, quoteId, ...r }));

/** The customer must be the tenant's; returns why their documents carry no tax (null: they pay tax). */
async function requireCustomer(t: Tx, actor: Actor, customerId: string): Promise<string | null> {
  const customer = await Customer.findOne({
    where: { tenantId: actor.tenantId, id: customerId },
    attributes: ["id", "taxExempt", "taxExemptReason"],
    transaction: t,
  });
  if (!customer) throw validationFailed({ customerId: ["Choose a customer"] });
  return exemptReason(customer);
}

/** A row's keys as its columns are named: `unitPriceCents` -> `unit_price_cents`. */
const snakeKeys = (row: object) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));

/**
 * What creating a quote reads first, in one round trip: the tenant's zone, validity and
 * currency, and the customer's tax exemption (the customer must be the tenant's).
 */
async function creationContext(t: Tx, tenantId: string, customerId: string) {
  const row = await one<{
    time_zone: string;
    quote_validity_days: number;
    currency: string;
    customer_id: string | null;
    tax_exempt: boolean | null;
    tax_exempt_reason: string | null;
  }>(
    `SELECT t.time_zone, t.quote_validity_days, t.currency, c.id AS customer_id, c.tax_exempt, c.tax_exempt_reason
       FROM tenants t LEFT JOIN customers c ON c.tenant_id = t.id AND c.id = $2
      WHERE t.id = $1`,
    [tenantId, customerId],
    t,
  );
  if (!row) throw notFound();
  if (!row.customer_id) throw validationFailed({ customerId: ["Choose a customer"] });
  return {
    timeZone: row.time_zone,
    quoteValidityDays: row.quote_validity_days,
    currency: row.currency.trim(),
    exempt: exemptReason({ taxExempt: !!row.tax_exempt, taxExemptReason: row.tax_exempt_reason }),
  };
}

/**
 * Creates a draft quote numbered Q-0001... (docs/decisions/121). Checked and priced here, then
 * written by one statement (db/functions/quotes_create.sql: number, quote, lines, history), so
 * the tenant's counter row is held for that statement and the commit only (docs/decisions/450).
 */
export async function createQuote(
  actor: Actor,
  v: QuoteFormValue,
  opts: { transaction?: Tx } = {},
): Promise<{ id: string; number: string }> {
  const run = async (t: Tx) => {
    if (!isUuid(v.customerId)) throw validationFailed({ customerId: ["Choose a customer"] });
    const tenant = await creationContext(t, actor.tenantId, v.customerId);
    let requestId: string | null = null;
    if (v.requestId) {
      const request = await BookingRequest.findOne({
        where: { tenantId: actor.tenantId, id: v.requestId },
        attributes: ["id"],
        transaction: t,
      });
      requestId = request?.id ?? null;
    }
    const priced = await priceForm(t, actor.tenantId, {
      customerId: v.customerId,
      items: v.items,
      discount: v.discount,
      exemptReason: tenant.exempt,
    });
    const propertyId = await propertyOf(actor.tenantId, v.customerId, v.propertyId, t);
    const today = dayIn(tenant.timeZone);
    const [created] = await rows<{ quote_id: string; quote_number: string }>(
      `SELECT quote_id, quote_number FROM quotes_create($1::jsonb, $2::jsonb, $3::jsonb)`,
      [
        JSON.stringify({
          tenant_id: actor.tenantId,
          customer_id: v.customerId,
          title: v.title,
          issue_date: today,
          valid_until: v.validUntil ?? addDays(today, tenant.quoteValidityDays),
          currency: v.currency ?? tenant.currency,
          notes: v.notes,
          ...snakeKeys(priced.totals),
          booking_request_id: requestId,
          property_id: propertyId,
          deposit_percent: v.deposit.percent,
          deposit_cents: v.deposit.cents,
        }),
        JSON.stringify(priced.rows.map(snakeKeys)),
        JSON.stringify({
          user_id: actor.userId,
          source: historySource(actor),
          summary: requestId ? "Created from a booking request" : "Created",
        }),
      ],
      t,
    );
    const quote = { id: created!.quote_id, number: created!.quote_number };
    if (requestId) {
      await recordHistory(t, actor, {
        recordType: "booking_request",
        recordId: requestId,
        action: "quote_created",
        summary: `Quote ${quote.number} created`,
        details: { quoteId: quote.id },
      });
    }
    return quote;
  };
  return opts.transaction ? run(opts.transaction) : inTenant(actor.tenantId, run);
}

async function findQuote(t: Tx, actor: Actor, id: string, lock = false) {
  if (!isUuid(id)) throw notFound("Quote not found.");
  const quote = await Quote.findOne({
    where: { tenantId: actor.tenantId, id },
    transaction: t,
    ...(lock ? { lock: t.LOCK.UPDATE } : {}),
  });
  if (!quote) throw notFound("Quote not found.");
  return quote;
}

function assertEditable(quote: Quote) {
  if (quote.jobId) throw conflict(`Quote ${quote.number} was converted to a job and can no longer be edited.`);
  if (!EDITABLE.has(quote.status))
    throw conflict(`Quote ${quote.number} is ${quote.status} and can no longer be edited.`);
}

/**
 * What a quote's or invoice's edit form starts from beside its own fields: the document's id,
 * number and status, its customer, and a line's four shared fields as the form's inputs.
 */
export async function documentForEdit(
  t: Tx,
  actor: Actor,
  doc: { id: string; number: string; status: string; customerId: string },
) {
  const customer = await Customer.findOne({
    where: { tenantId: actor.tenantId, id: doc.customerId },
    attributes: ["id", "name"],
    transaction: t,
  });
  return { id: doc.id, number: doc.number, status: doc.status, customer: { id: customer!.id, name: customer!.name } };
}
export const lineForEdit = (l: {
  description: string;
  quantity: string;
  unitPriceCents: number;
  taxRate: string;
  taxRateId: string | null;
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
}) => ({
  description: l.description,
  quantity: trimDecimal(l.quantity),
  unitPrice: centsToInput(l.unitPriceCents),
  taxRate: l.taxRateId ? "" : trimDecimal(l.taxRate),
  taxRateId: l.taxRateId ?? "",
  ...discountInput(storedDiscount(l.discountType, l.discountPercent, l.discountAmountCents)),
});
/** A document's own discount for its edit form. */
export const documentDiscountForEdit = (d: {
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
}) => discountInput(storedDiscount(d.discountType, d.discountPercent, d.discountAmountCents));

/** The quote's fields as the builder shows them; 409 when it can no longer be edited. */
export async function quoteForEdit(actor: Actor, id: string) {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, id);
    assertEditable(quote);
    const items = await QuoteItem.findAll({
      where: { tenantId: actor.tenantId, quoteId: id },
      order: [["position", "ASC"]],
      transaction: t,
    });
    return {
      ...(await documentForEdit(t, actor, quote)),
      properties: await customerPropertyChoices(actor.tenantId, quote.customerId, t),
      values: {
        customerId: quote.customerId,
        propertyId: quote.propertyId ?? "",
        title: quote.title ?? "",
        validUntil: quote.validUntil ?? "",
        currency: quote.currency.trim(),
        notes: quote.notes ?? "",
        deposit:
          quote.depositPercent !== null
            ? `${trimDecimal(quote.depositPercent)}%`
            : quote.depositCents
              ? centsToInput(Number(quote.depositCents))
              : "",
        ...documentDiscountForEdit(quote),
        items: items.map((l) => ({ ...lineForEdit(l), optional: l.optional ? "on" : "", option: l.optionName ?? "" })),
      },
    };
  });
}

/** Saves a draft or sent quote's fields and lines (409 once approved, declined or converted). */
export async function updateQuote(actor: Actor, id: string, v: QuoteFormValue): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, id, true);
    assertEditable(quote);
    await requireCustomer(t, actor, v.customerId);
    const had = await QuoteItem.findAll({
      where: { tenantId: actor.tenantId, quoteId: id },
      attributes: ["taxRateId"],
      transaction: t,
    });
    const priced = await priceForm(t, actor.tenantId, {
      customerId: v.customerId,
      items: v.items,
      discount: v.discount,
      keep: new Set(had.map((l) => l.taxRateId).filter((x): x is string => !!x)),
    });
    const propertyId = await propertyOf(actor.tenantId, v.customerId, v.propertyId, t);
    quote.set({
      customerId: v.customerId,
      propertyId,
      title: v.title,
      validUntil: v.validUntil ?? quote.validUntil,
      currency: v.currency ?? quote.currency,
      notes: v.notes,
      ...priced.totals,
      depositPercent: v.deposit.percent,
      depositCents: v.deposit.cents,
    });
    await quote.save({ transaction: t });
    await QuoteItem.destroy({ where: { tenantId: actor.tenantId, quoteId: id }, transaction: t });
    await QuoteItem.bulkCreate(quoteItemRows(actor.tenantId, id, priced), { transaction: t, returning: false });
    await recordHistory(t, actor, { recordType: "quote", recordId: id, action: "updated", summary: "Edited" });
  });
}

const LINK_DAYS = 30;

/**
 * The customer's live portal link (the one that lasts longest, with a day left at least), or a
 * new one of 30 days. `userId` null: made by the app itself (an automatic reminder).
 */
export async function livePortalLink(
  t: Tx,
  actor: { tenantId: string; userId: string | null },
  customerId: string,
): Promise<string> {
  const live = await PortalLink.findOne({
    where: {
      tenantId: actor.tenantId,
      customerId,
      revokedAt: null,
      expiresAt: { [Op.gt]: new Date(Date.now() + 86_400_000) },
    },
    order: [["expiresAt", "DESC"]],
    transaction: t,
  });
  if (live) return live.id;
  const link = await PortalLink.create(
    {
      tenantId: actor.tenantId,
      customerId,
      createdBy: actor.userId,
      expiresAt: new Date(Date.now() + LINK_DAYS * 86_400_000),
    },
    { transaction: t },
  );
  return link.id;
}

/**
 * Send: a draft becomes sent (sent_at now) and the customer has a live portal link (theirs, or
 * a new one of 30 days). With an e-mail on file the message with that link is written to the
 * outbox in the same transaction (docs/decisions/140): pressing Send again sends it again.
 * Without one, or with e-mail off, the page offers the link and a ready message to send by hand.
 */
/**
 * Send a draft (draft -> sent) or, with `resend`, e-mail a sent quote again. A sent quote without
 * `resend` (a second click of the first Send, a form posted twice) sends nothing: `sent` false.
 */
export async function sendQuote(
  actor: Actor,
  id: string,
  opts: { resend?: boolean } = {},
): Promise<{ sent: boolean; emailedTo: string | null }> {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, id, true);
    if (quote.status !== "draft" && quote.status !== "sent")
      throw conflict(`Quote ${quote.number} is ${quote.status}: there is nothing to send.`);
    if (quote.status === "sent" && !opts.resend) return { sent: false, emailedTo: null };
    const linkId = await livePortalLink(t, actor, quote.customerId);
    if (quote.status === "draft") {
      quote.set({ status: "sent", sentAt: new Date() });
      await quote.save({ transaction: t });
      await recordHistory(t, actor, { recordType: "quote", recordId: id, action: "sent", summary: "Sent" });
    } else {
      await recordHistory(t, actor, { recordType: "quote", recordId: id, action: "resent", summary: "Sent again" });
    }
    const emailed = await queueQuoteEmail(t, actor.tenantId, quote, linkId, actor.userId);
    return { sent: true, emailedTo: emailed?.queued ? emailed.to : null };
  });
}

/** What Send will do, shown before it: the quote's state and the message as the customer will read it. */
export async function quoteSendPreview(actor: Actor, id: string) {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, id);
    return sendPreviewOf(quote, ["draft", "sent"], await previewQuoteEmail(t, actor.tenantId, quote));
  });
}

/**
 * THE rule for which of a quote's lines are bought (docs/decisions/155):
 * the customer's recorded choice (quote_items.selected = true, set for every line when the
 * quote is approved in the portal); absent a recorded choice, decision 122's default: every
 * line that is neither optional nor in an option group, plus the first option group's
 * non-optional lines. The job made by Convert, the invoice made from a job, and anything else
 * that carries a quote's work forward, take their lines from here and nowhere else.
 */
export async function chosenQuoteItems(t: Tx, tenantId: string, quoteId: string): Promise<QuoteItem[]> {
  const items = await QuoteItem.findAll({ where: { tenantId, quoteId }, order: [["position", "ASC"]], transaction: t });
  return countedLines(
    items.map((l) => ({ item: l, option: l.optionName, optional: l.optional, selected: l.selected })),
  ).map((l) => l.item);
}

/**
 * Copies a quote's chosen lines to the job's line items, in order (none is billed per visit
 * until the office says so). Each keeps its named rate; its discount becomes the amount it came
 * to on the quote, its own and its share of the quote's discount, so the job's invoice bills
 * the quote's figures to the cent.
 */
async function copyItemsToJob(t: Tx, quote: Quote, jobId: string, chosen: QuoteItem[]): Promise<void> {
  if (!chosen.length) return;
  const tenantId = quote.tenantId;
  const book = await loadRateBook(t, tenantId);
  const { figures } = documentFigures(quote, chosen, book);
  const off = figures.lines.map((f) => f.lineDiscount + f.documentShare);
  await insertSelect(
    `INSERT INTO job_items (tenant_id, job_id, position, description, quantity, unit_price_cents, tax_rate, tax_rate_id,
                            discount_type, discount_amount_cents, discount_cents)
     SELECT $1, $2, n, d, q::numeric, p::bigint, r::numeric, nullif(rid, '')::uuid,
            CASE WHEN o::bigint > 0 THEN 'amount' END, nullif(o::bigint, 0), o::bigint
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(n, d, q, p, r, rid, o)`,
    [
      tenantId,
      jobId,
      chosen.map((_, i) => i + 1),
      chosen.map((l) => l.description.slice(0, 1000)),
      chosen.map((l) => String(l.quantity)),
      chosen.map((l) => String(l.unitPriceCents)),
      chosen.map((l) => String(l.taxRate)),
      chosen.map((l) => l.taxRateId ?? ""),
      off.map(String),
    ],
    t,
  );
}

/** A line as it goes into a job's description: "2 × Water heater" (quantity 1 is left out). */
const jobLine = (l: QuoteItem) => {
  const qty = trimDecimal(l.quantity);
  return `${qty === "1" ? "" : `${qty} × `}${l.description}`;
};

/**
 * Convert an approved quote to one job (customer, title, address, the chosen lines as its
 * description), linked both ways. The quote row is locked first: a second convert, at once
 * or later, waits and lands on the same job. 409 for a quote that is not approved.
 */
export function convertQuote(actor: Actor, id: string): Promise<{ jobId: string; created: boolean }> {
  // Converts of one quote wait their turn here, not holding a pooled connection on its row lock.
  return oneAtATime(actor.tenantId, `quote:${id}`, () => convertOnce(actor, id));
}

async function convertOnce(actor: Actor, id: string): Promise<{ jobId: string; created: boolean }> {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, id, true);
    if (quote.jobId) return { jobId: quote.jobId, created: false };
    if (quote.status !== "approved")
      throw conflict(`Quote ${quote.number} is ${quote.status}: only an approved quote can be converted to a job.`);
    const customer = await Customer.findOne({
      where: { tenantId: actor.tenantId, id: quote.customerId },
      transaction: t,
    });
    const chosen = await chosenQuoteItems(t, actor.tenantId, id);
    // A named service property is where the work is: the job names it and shows its address.
    const address = quote.propertyId || !customer ? "" : oneLineAddress(customer, true);
    const job = await Job.create(
      {
        tenantId: actor.tenantId,
        customerId: quote.customerId,
        title: (quote.title ?? `Quote ${quote.number}`).slice(0, 200),
        description: [`From quote ${quote.number}:`, ...chosen.map(jobLine)].join("\n").slice(0, 5000),
        status: "unscheduled",
        address: address || null,
        propertyId: quote.propertyId,
        quoteId: quote.id,
      },
      { transaction: t },
    );
    // The chosen items become the job's line items, which its invoices bill (docs/decisions/371).
    await copyItemsToJob(t, quote, job.id, chosen);
    // The chosen items are what the technician ticks off on site (docs/decisions/213).
    await setChecklist(actor.tenantId, job.id, checklistFromItems(chosen.map((i) => i.description)), t);
    quote.set({ jobId: job.id, convertedAt: new Date() });
    await quote.save({ transaction: t });
    await recordHistory(t, actor, {
      recordType: "quote",
      recordId: id,
      action: "converted",
      summary: "Converted to a job",
      details: { jobId: job.id },
    });
    await recordHistory(t, actor, {
      recordType: "job",
      recordId: job.id,
      action: "created",
      summary: `Created from quote ${quote.number}`,
      details: { quoteId: id },
    });
    return { jobId: job.id, created: true };
  });
}

/**
 * What the quote page offers to share a sent quote: the customer's live portal link, and a
 * ready message (subject and body, and a mailto: link when the customer has an email).
 */
export async function quoteShare(actor: Actor, quoteId: string) {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, quoteId);
    if (quote.status !== "sent") return null;
    return portalShare(t, actor.tenantId, quote.customerId, (business, url) => ({
      subject: `Quote ${quote.number} from ${business}`,
      lines: [
        `Here is your quote ${quote.number}${quote.title ? ` for ${quote.title}` : ""}: ${formatMoney(Number(quote.totalCents), quote.currency.trim())}${quote.validUntil ? `, valid until ${formatDate(quote.validUntil)}` : ""}.`,
        "You can review it and approve it online:",
        url,
      ],
    }));
  });
}

/** The quote's links: its job (once converted) and its booking request. */
export async function quoteLinks(actor: Actor, quoteId: string) {
  return inTenant(actor.tenantId, async (t) => {
    const quote = await findQuote(t, actor, quoteId);
    const job = quote.jobId
      ? await one<{ id: string; title: string }>(
          `SELECT id, title FROM jobs WHERE tenant_id = $1 AND id = $2`,
          [actor.tenantId, quote.jobId],
          t,
        )
      : null;
    const items = await QuoteItem.findAll({
      where: { tenantId: actor.tenantId, quoteId },
      attributes: ["id", "description", "optionName", "optional", "selected"],
      order: [["position", "ASC"]],
      transaction: t,
    });
    const deposit = await QuoteDeposit.findOne({ where: { tenantId: actor.tenantId, quoteId }, transaction: t });
    const currency = quote.currency.trim();
    return {
      /** The customer's recorded choice (docs/decisions/155) and the deposit asked and paid (156). */
      choice: {
        recorded: items.some((l) => l.selected !== null),
        option: quote.chosenOption,
        optionalItems: items.filter((l) => l.optional && l.selected).map((l) => l.description),
        depositAsked:
          quote.depositPercent !== null
            ? `${trimDecimal(quote.depositPercent)}% of the chosen total`
            : quote.depositCents
              ? formatMoney(Number(quote.depositCents), currency)
              : null,
        depositPaid: deposit
          ? {
              amount: formatMoney(Number(deposit.amountCents), currency),
              reference: deposit.reference,
              paidAt: deposit.paidAt.toISOString(),
              invoiceId: deposit.invoiceId,
            }
          : null,
      },
      job: job ?? null,
      requestId: quote.bookingRequestId,
      editable: !quote.jobId && EDITABLE.has(quote.status),
      lineFlags: Object.fromEntries(
        items.map((l) => [l.id, { option: l.optionName, optional: l.optional, selected: l.selected }]),
      ),
    };
  });
}

export { decimalToMilli, percentToPpm };
