import { inTenant, one, rows, type Tx } from "../../../db/index";
import { lineItems, summaryOfRows, type LineItem } from "~/services/records/quotes-invoices.server";
import type { Summary } from "~/services/taxes/rate-book";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { cityLine } from "~/utils/address";
import { formatDate, formatDateTimeZoned as formatDateTime, formatMoney, humanize } from "~/utils/format";
import { invoiceOverdue, quoteStatus } from "~/services/records/sql.server";
import { runCpu } from "~/services/work/pool.server";
import { logoBytesIn } from "~/services/company/logo.server";
import { paperFor, type PdfDocument, type PdfLine } from "./pdf-layout.server";
import { keptPdf } from "./pdf-kept.server";

/**
 * Draws the document, with the business's logo when it has one, in the CPU pool, within the
 * tenant's share of its threads; a document whose content was drawn before is served again.
 */
async function renderPdf(t: Tx, tenantId: string, doc: PdfDocument): Promise<Buffer> {
  const withLogo = { ...doc, logo: await logoBytesIn(t, tenantId) };
  return keptPdf(tenantId, withLogo, async () => {
    const bytes = await runCpu<Uint8Array>(tenantId, { kind: "pdf", doc: withLogo });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  });
}

// What a quote, an invoice or a payment receipt PDF holds, for staff
// (`view_records`, any document of the tenant) and for the portal (only the token's customer's
// documents, and never a draft: the customer has not been sent it). Every loader takes the
// transaction it runs in, so the portal's checks and the read are one transaction.

export type Scope = { tenantId: string; customerId?: string };

type Business = { name: string; lines: string[]; country: string | null };
type Customer = { name: string; company: string | null; country: string | null; lines: string[] };

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The business as its documents show it: the name, then whatever contact details the company settings hold. */
async function businessOf(t: Tx, tenantId: string): Promise<Business> {
  const r = await one<{ tenant: Record<string, unknown>; company: Record<string, unknown> | null }>(
    `SELECT to_jsonb(tn) AS tenant, (SELECT value FROM tenant_settings s WHERE s.tenant_id = tn.id AND s.key = 'company') AS company
       FROM tenants tn WHERE tn.id = $1`,
    [tenantId],
    t,
  );
  const f = { ...r!.tenant, ...(r!.company ?? {}) };
  const pick = (...keys: string[]) => keys.map((k) => text(f[k])).find(Boolean) ?? null;
  const lines = [
    pick("address_line1", "addressLine1", "address"),
    pick("address_line2", "addressLine2"),
    cityLine(pick("city"), pick("region"), pick("postal_code", "postalCode")) || null,
    pick("phone"),
    pick("email"),
  ].filter((l): l is string => !!l);
  return { name: pick("business_name", "businessName", "name") ?? "", lines, country: pick("country") };
}

async function customerOf(t: Tx, tenantId: string, customerId: string): Promise<Customer> {
  const c = await one<Record<string, string | null>>(
    `SELECT name, company, email, phone, address_line1, address_line2, city, region, postal_code, country
       FROM customers WHERE tenant_id = $1 AND id = $2`,
    [tenantId, customerId],
    t,
  );
  const lines = [
    c!.company,
    c!.address_line1,
    c!.address_line2,
    cityLine(c!.city, c!.region, c!.postal_code) || null,
    c!.country,
    c!.email,
    c!.phone,
  ].filter((l): l is string => !!l);
  return { name: c!.name!, company: c!.company, country: c!.country, lines };
}

type Item = LineItem;

async function itemsOf(
  t: Tx,
  table: "quote_items" | "invoice_items",
  column: "quote_id" | "invoice_id",
  tenantId: string,
  id: string,
) {
  return lineItems(table, column, tenantId, id, t);
}

/** The totals rows every document shows (app/services/documents/figures.ts), for the PDF. */
const pdfTotals = (s: Summary): PdfDocument["totals"] => [
  { label: "Subtotal", cents: s.subtotal },
  ...(s.discount ? [{ label: s.discountLabel, cents: -s.discount }] : []),
  ...(s.exemptReason
    ? [{ label: `Tax exempt: ${s.exemptReason}`, cents: 0 }]
    : s.taxes.length
      ? s.taxes.map((x) => ({ label: x.label, cents: x.cents }))
      : [{ label: "Tax", cents: 0 }]),
];

const pdfLine = (i: Item, currency: string): PdfLine => ({
  description: i.description,
  quantity: i.quantity,
  unitPriceCents: Number(i.unit_price_cents),
  taxRate: i.tax_rate,
  amountCents: Number(i.line_total_cents),
  note:
    [
      i.tax_rate_id && i.tax_label ? `Tax: ${i.tax_label}` : null,
      Number(i.discount_cents)
        ? `Discount${i.discount_type === "percent" && i.discount_percent ? ` ${i.discount_percent.replace(/\.?0+$/, "")}%` : ""}: -${formatMoney(Number(i.discount_cents), currency)}`
        : null,
    ]
      .filter(Boolean)
      .join(" · ") || undefined,
});

const customerFilter = (scope: Scope, alias: string, n: number) =>
  scope.customerId ? `AND ${alias}.customer_id = $${n} AND ${alias}.status <> 'draft'` : "";
const customerBind = (scope: Scope) => (scope.customerId ? [scope.customerId] : []);

export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  sandbox: "Online (sandbox)",
  cash: "Cash",
  check: "Check",
  card: "Card",
  bank_transfer: "Bank transfer",
  import: "Paid before import",
  other: "Other",
};
const methodLabel = (m: string) => PAYMENT_METHOD_LABELS[m] ?? humanize(m);

export async function quotePdfIn(t: Tx, scope: Scope, id: string): Promise<{ number: string; pdf: Buffer }> {
  if (!isUuid(id)) throw notFound("Quote not found.");
  const q = await one<{
    id: string;
    customer_id: string;
    number: string;
    title: string | null;
    status: string;
    issue_date: string | null;
    valid_until: string | null;
    currency: string;
    notes: string | null;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
    discount_type: string | null;
    discount_percent: string | null;
    discount_amount_cents: number | null;
    tax_exempt_reason: string | null;
    approved_at: Date | null;
    approved_name: string | null;
    declined_at: Date | null;
    time_zone: string;
  }>(
    `SELECT q.id, q.customer_id, q.number, q.title, ${quoteStatus("q")} AS status, q.issue_date::text, q.valid_until::text, q.currency, q.notes,
            q.subtotal_cents, q.tax_cents, q.total_cents, q.discount_type, q.discount_percent::text, q.discount_amount_cents,
            q.tax_exempt_reason, q.approved_at, q.approved_name, q.declined_at, tn.time_zone
       FROM quotes q JOIN tenants tn ON tn.id = q.tenant_id
      WHERE q.tenant_id = $1 AND q.id = $2 ${customerFilter(scope, "q", 3)}`,
    [scope.tenantId, id, ...customerBind(scope)],
    t,
  );
  if (!q) throw notFound("Quote not found.");
  const [business, customer, { items, book }] = [
    await businessOf(t, scope.tenantId),
    await customerOf(t, scope.tenantId, q.customer_id),
    await itemsOf(t, "quote_items", "quote_id", scope.tenantId, q.id),
  ];
  const summary = summaryOfRows(q, items, book);
  // Options and optional items: each line says its group. Once the customer's choice is
  // recorded, the lines not chosen (another option, an optional item left unticked) are left
  // out: the document lists what was bought, and its totals are the choice's (docs/decisions/155).
  const flags = await rows<{ option_name: string | null; optional: boolean; selected: boolean | null }>(
    `SELECT option_name, optional, selected FROM quote_items WHERE tenant_id = $1 AND quote_id = $2 ORDER BY position`,
    [scope.tenantId, q.id],
    t,
  );
  const lineNote = (i: number) => {
    const f = flags[i];
    if (!f) return "";
    const notes = [
      f.option_name ? `option ${f.option_name}` : null,
      f.optional ? "optional" : null,
      f.selected === true && (f.option_name || f.optional) ? "chosen" : null,
    ].filter(Boolean);
    return notes.length ? ` (${notes.join(", ")})` : "";
  };
  const deposit = await one<{ amount_cents: string; reference: string }>(
    `SELECT amount_cents, reference FROM quote_deposits WHERE tenant_id = $1 AND quote_id = $2`,
    [scope.tenantId, q.id],
    t,
  );
  const facts: Array<[string, string]> = [];
  if (q.issue_date) facts.push(["Date", formatDate(q.issue_date)]);
  if (q.valid_until) facts.push(["Valid until", formatDate(q.valid_until)]);
  facts.push(["Status", humanize(q.status)]);
  const paragraphs: PdfDocument["paragraphs"] = [];
  if (q.approved_at)
    paragraphs.push({
      heading: "Approved",
      text: `Approved by ${q.approved_name ?? "the customer"} on ${formatDateTime(q.approved_at, q.time_zone)}.`,
    });
  if (q.declined_at)
    paragraphs.push({ heading: "Declined", text: `Declined on ${formatDateTime(q.declined_at, q.time_zone)}.` });
  if (deposit)
    paragraphs.push({
      heading: "Deposit",
      text: `Deposit of ${formatMoney(Number(deposit.amount_cents), q.currency.trim())} paid with the approval (sandbox, reference ${deposit.reference}).`,
    });
  if (q.notes) paragraphs.push({ heading: "Notes", text: q.notes });
  const doc: PdfDocument = {
    heading: "Quote",
    paper: paperFor(business.country ?? customer.country),
    business,
    customer: { heading: "Prepared for", name: customer.name, lines: customer.lines },
    number: q.number,
    title: q.title,
    facts,
    currency: q.currency,
    lines: items
      .map((item, i) => ({ ...pdfLine(item, q.currency.trim()), description: `${item.description}${lineNote(i)}` }))
      .filter((_, i) => flags[i]?.selected !== false),
    totals: [...pdfTotals(summary), { label: "Total", cents: summary.total, strong: true }],
    paragraphs,
    footer: `${business.name} · Quote ${q.number}`,
  };
  return { number: q.number, pdf: await renderPdf(t, scope.tenantId, doc) };
}

type InvoiceRow = {
  id: string;
  customer_id: string;
  number: string;
  status: string;
  issue_date: string | null;
  due_date: string | null;
  currency: string;
  notes: string | null;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  amount_paid_cents: number;
  discount_type: string | null;
  discount_percent: string | null;
  discount_amount_cents: number | null;
  tax_exempt_reason: string | null;
  time_zone: string;
  job_id: string | null;
  overdue: boolean;
};
type PaymentRow = { id: string; amount_cents: number; method: string; reference: string; recorded_at: Date };

async function invoiceOf(t: Tx, scope: Scope, id: string) {
  if (!isUuid(id)) throw notFound("Invoice not found.");
  const invoice = await one<InvoiceRow>(
    `SELECT i.id, i.customer_id, i.number, i.status, i.issue_date::text, i.due_date::text, i.currency, i.notes,
            i.subtotal_cents, i.tax_cents, i.total_cents, i.amount_paid_cents, i.discount_type, i.discount_percent::text,
            i.discount_amount_cents, i.tax_exempt_reason, tn.time_zone, i.job_id,
            ${invoiceOverdue("i")} AS overdue
       FROM invoices i JOIN tenants tn ON tn.id = i.tenant_id
      WHERE i.tenant_id = $1 AND i.id = $2 ${customerFilter(scope, "i", 3)}`,
    [scope.tenantId, id, ...customerBind(scope)],
    t,
  );
  if (!invoice) throw notFound("Invoice not found.");
  const payments = await rows<PaymentRow>(
    `SELECT id, amount_cents, method, reference, recorded_at FROM payments WHERE tenant_id = $1 AND invoice_id = $2 ORDER BY recorded_at, id`,
    [scope.tenantId, id],
    t,
  );
  return {
    invoice,
    payments,
    business: await businessOf(t, scope.tenantId),
    customer: await customerOf(t, scope.tenantId, invoice.customer_id),
  };
}

/** The customer's signature collected when the invoice's job was completed (docs/decisions/214). */
async function signatureOf(
  t: Tx,
  tenantId: string,
  jobId: string,
  timeZone: string,
): Promise<PdfDocument["signature"]> {
  const s = await one<{ signer_name: string; image: Buffer | null; signed_at: Date }>(
    `SELECT signer_name, image, signed_at FROM job_signatures WHERE tenant_id = $1 AND job_id = $2`,
    [tenantId, jobId],
    t,
  );
  if (!s) return null;
  return {
    image: s.image,
    name: s.signer_name,
    caption: `Signed by ${s.signer_name} on completion, ${formatDateTime(s.signed_at, timeZone)}`,
  };
}

const pdfPayment = (p: PaymentRow, tz: string) => ({
  date: formatDateTime(p.recorded_at, tz),
  method: methodLabel(p.method),
  reference: p.reference,
  amountCents: Number(p.amount_cents),
});

export async function invoicePdfIn(t: Tx, scope: Scope, id: string): Promise<{ number: string; pdf: Buffer }> {
  const { invoice: i, payments, business, customer } = await invoiceOf(t, scope, id);
  const { items, book } = await itemsOf(t, "invoice_items", "invoice_id", scope.tenantId, i.id);
  const summary = summaryOfRows(i, items, book);
  const facts: Array<[string, string]> = [];
  if (i.issue_date) facts.push(["Date", formatDate(i.issue_date)]);
  if (i.due_date) facts.push(["Due", formatDate(i.due_date)]);
  // As the invoice's page says: an unpaid invoice past its due date is overdue.
  facts.push(["Status", i.overdue ? "Overdue" : humanize(i.status)]);
  const balance = Number(i.total_cents) - Number(i.amount_paid_cents);
  const totals: PdfDocument["totals"] = [
    ...pdfTotals(summary),
    { label: "Total", cents: Number(i.total_cents), strong: i.status === "void" },
  ];
  // A void invoice asks for nothing: it shows no balance due.
  if (i.status !== "void")
    totals.push(
      { label: "Paid", cents: Number(i.amount_paid_cents) },
      { label: "Balance due", cents: balance, strong: true },
    );
  const paragraphs: PdfDocument["paragraphs"] = [];
  if (i.status === "void")
    paragraphs.push({ heading: "Void", text: "This invoice was cancelled. Nothing is owed on it." });
  if (i.overdue)
    paragraphs.push({
      heading: "Overdue",
      text: `This invoice was due on ${formatDate(i.due_date)}. ${formatMoney(balance, i.currency.trim())} is still owed.`,
    });
  if (i.notes) paragraphs.push({ heading: "Notes", text: i.notes });
  const doc: PdfDocument = {
    heading: "Invoice",
    paper: paperFor(business.country ?? customer.country),
    business,
    customer: { heading: "Bill to", name: customer.name, lines: customer.lines },
    number: i.number,
    facts,
    currency: i.currency,
    lines: items.map((item) => pdfLine(item, i.currency.trim())),
    totals,
    payments: payments.map((p) => pdfPayment(p, i.time_zone)),
    paragraphs,
    signature: i.job_id ? await signatureOf(t, scope.tenantId, i.job_id, i.time_zone) : null,
    footer: `${business.name} · Invoice ${i.number}`,
  };
  return { number: i.number, pdf: await renderPdf(t, scope.tenantId, doc) };
}

/** A receipt for one payment: what was paid, how, and the balance after it. */
export async function receiptPdfIn(
  t: Tx,
  scope: Scope,
  invoiceId: string,
  paymentId: string,
): Promise<{ number: string; pdf: Buffer }> {
  const { invoice: i, payments, business, customer } = await invoiceOf(t, scope, invoiceId);
  const index = payments.findIndex((p) => p.id === paymentId);
  if (index < 0) throw notFound("Payment not found.");
  const p = payments[index];
  const paidUpTo = payments.slice(0, index + 1).reduce((s, x) => s + Number(x.amount_cents), 0);
  const number = `${i.number}-R${index + 1}`;
  const doc: PdfDocument = {
    heading: "Receipt",
    paper: paperFor(business.country ?? customer.country),
    business,
    customer: { heading: "Received from", name: customer.name, lines: customer.lines },
    number,
    facts: [
      ["Received", formatDateTime(p.recorded_at, i.time_zone)],
      ["For invoice", i.number],
      ["Method", methodLabel(p.method)],
    ],
    currency: i.currency,
    lines: [],
    totals: [
      { label: `Invoice ${i.number} total`, cents: Number(i.total_cents) },
      { label: "Paid before", cents: paidUpTo - Number(p.amount_cents) },
      { label: "Balance after this payment", cents: Number(i.total_cents) - paidUpTo },
      { label: "Amount paid", cents: Number(p.amount_cents), strong: true },
    ],
    payments: [pdfPayment(p, i.time_zone)],
    paragraphs:
      p.method === "sandbox"
        ? [{ heading: "Sandbox payment", text: "This payment was recorded in a sandbox: no money moved." }]
        : [],
    footer: `${business.name} · Receipt ${number}`,
  };
  return { number, pdf: await renderPdf(t, scope.tenantId, doc) };
}

// Staff: the whole tenant's documents, drafts included.
export const quotePdf = (actor: Actor, id: string) =>
  inTenant(actor.tenantId, (t) => quotePdfIn(t, { tenantId: actor.tenantId }, id));
export const invoicePdf = (actor: Actor, id: string) =>
  inTenant(actor.tenantId, (t) => invoicePdfIn(t, { tenantId: actor.tenantId }, id));
export const receiptPdf = (actor: Actor, invoiceId: string, paymentId: string) =>
  inTenant(actor.tenantId, (t) => receiptPdfIn(t, { tenantId: actor.tenantId }, invoiceId, paymentId));
