// The messages the app sends: each is composed and queued inside the
// transaction of the effect it tells of (quotes.server.ts, payments.server.ts, the portal's
// actions, invites). Customers get portal links; the office gets the company e-mail.
import { one, type Tx } from "../../../db/index";
import type { RecordType } from "../../../db/enums";
import { env } from "~/utils/env.server";
import { formatDate, formatMoney } from "~/utils/format";
import { LINK_PLACEHOLDER, portalLinkRef, resolveLink, sealedLinkRef } from "./links.server";
import { emailLogo } from "~/services/company/logo.server";
import { businessOf, queueMessage, type Queued } from "./outbox.server";
import { renderEmail, type Business, type EmailContent } from "./templates.server";
import { lineItems, summaryOfRows } from "~/services/records/quotes-invoices.server";
import { exemptLine } from "~/services/taxes/rate-book";

/**
 * The figures a document's message shows before its total, the same as its page and PDF (one
 * pricing function): the discount, then the tax per named rate, or the exemption's reason.
 */
async function figureFacts(
  t: Tx,
  tenantId: string,
  kind: "quote" | "invoice",
  id: string,
  currency: string,
): Promise<Array<[string, string]>> {
  const doc = await one<Parameters<typeof summaryOfRows>[0]>(
    `SELECT discount_type, discount_percent::text, discount_amount_cents, tax_exempt_reason
       FROM ${kind}s WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
    t,
  );
  if (!doc) return [];
  const { items, book } = await lineItems(`${kind}_items`, `${kind}_id`, tenantId, id, t);
  const summary = summaryOfRows(doc, items, book);
  const money = (cents: number) => formatMoney(cents, currency);
  return [
    ...(summary.discount > 0 ? [[summary.discountLabel, `-${money(summary.discount)}`] as [string, string]] : []),
    ...summary.taxes.map((x) => [x.label, money(x.cents)] as [string, string]),
    ...(summary.exemptReason ? [[exemptLine(summary.exemptReason), money(0)] as [string, string]] : []),
  ];
}

const firstName = (name: string | null | undefined) => (name ?? "").trim().split(/\s+/)[0] || "there";

type Context = { customer: { name: string; email: string | null }; business: Business; liveLinkId: string | null };

/**
 * The customer, the business and the customer's live portal link in one round trip: these
 * run inside the transactions of sends and payments, some under a row lock (a payment holds
 * its invoice's), so each query saved shortens the wait of the next one in line.
 */
async function contextOf(t: Tx, tenantId: string, customerId: string): Promise<Context | null> {
  const row = await one<{
    name: string;
    email: string | null;
    b_name: string;
    b_email: string | null;
    b_phone: string | null;
    b_address: string | null;
    b_color: string;
    b_logo: { id: string; width: number; height: number } | null;
    link_id: string | null;
  }>(
    `SELECT c.name, c.email, tn.name AS b_name, tn.email AS b_email, tn.phone AS b_phone, tn.address AS b_address, tn.brand_color AS b_color,
            (SELECT jsonb_build_object('id', l.id, 'width', l.width, 'height', l.height) FROM company_logos l WHERE l.tenant_id = c.tenant_id) AS b_logo,
            (SELECT p.id FROM portal_links p WHERE p.tenant_id = c.tenant_id AND p.customer_id = c.id AND p.revoked_at IS NULL AND p.expires_at > now()
              ORDER BY p.expires_at DESC LIMIT 1) AS link_id
       FROM customers c JOIN tenants tn ON tn.id = c.tenant_id
      WHERE c.tenant_id = $1 AND c.id = $2`,
    [tenantId, customerId],
    t,
  );
  if (!row) return null;
  return {
    customer: { name: row.name, email: row.email },
    business: {
      name: row.b_name,
      email: row.b_email,
      phone: row.b_phone,
      address: row.b_address,
      color: row.b_color,
      logo: row.b_logo ? emailLogo(tenantId, row.b_logo) : null,
    },
    liveLinkId: row.link_id,
  };
}

type Send = {
  tenantId: string;
  kind: Parameters<typeof queueMessage>[1]["kind"];
  to: { address: string; name?: string | null };
  subject: string;
  content: Omit<EmailContent, "business">;
  business: Business;
  record?: { type: RecordType; id: string };
  createdBy?: string | null;
  dedupeKey?: string;
  /** What `LINK_PLACEHOLDER` (the action's URL) stands for. */
  linkRef?: string | null;
};

async function send(t: Tx, s: Send): Promise<Queued> {
  const { html, text } = renderEmail({ ...s.content, business: s.business });
  return queueMessage(t, {
    tenantId: s.tenantId,
    kind: s.kind,
    to: s.to,
    subject: s.subject,
    html,
    text,
    business: s.business,
    record: s.record,
    createdBy: s.createdBy,
    dedupeKey: s.dedupeKey,
    linkRef: s.linkRef,
  });
}

export type QuoteForEmail = {
  id: string;
  number: string;
  title: string | null;
  totalCents: number | string;
  currency: string;
  validUntil: string | null;
  customerId: string;
};

/** The quote's message to the customer: subject and content (sent by Send, shown before it). */
function quoteMessage(ctx: Context, quote: QuoteForEmail, figures: Array<[string, string]>) {
  const { customer, business } = ctx;
  const total = formatMoney(Number(quote.totalCents), quote.currency.trim());
  return {
    subject: `Quote ${quote.number} from ${business.name}`,
    content: {
      preview: `Your quote ${quote.number}: ${total}`,
      greeting: `Hi ${firstName(customer.name)},`,
      paragraphs: [
        `Here is your quote ${quote.number}${quote.title ? ` for ${quote.title}` : ""}.`,
        "You can review it, choose options and approve it online.",
      ],
      facts: [
        ["Quote", quote.number],
        ...figures,
        ["Total", total],
        ...(quote.validUntil ? [["Valid until", formatDate(quote.validUntil)] as [string, string]] : []),
      ] as Array<[string, string]>,
      action: { label: "Review and approve", url: LINK_PLACEHOLDER },
    },
  };
}

/** "Quote Q-0001 from Acme Plumbing", with the portal link that opens the customer's hub. */
export async function queueQuoteEmail(
  t: Tx,
  tenantId: string,
  quote: QuoteForEmail,
  portalLinkId: string,
  createdBy: string | null,
): Promise<{ to: string; queued: Queued } | null> {
  const ctx = await contextOf(t, tenantId, quote.customerId);
  if (!ctx?.customer.email) return null;
  const { customer, business } = ctx;
  const queued = await send(t, {
    tenantId,
    kind: "quote_sent",
    business,
    createdBy,
    record: { type: "quote", id: quote.id },
    linkRef: portalLinkRef(portalLinkId),
    to: { address: customer.email!, name: customer.name },
    ...quoteMessage(ctx, quote, await figureFacts(t, tenantId, "quote", quote.id, quote.currency.trim())),
  });
  return { to: customer.email!, queued };
}

/**
 * A message as Send would write it, before it is sent: who gets it (null without an e-mail on
 * file), the subject and the plain text, the link written out as the customer's live portal
 * link or, without one, as a note that Send makes it.
 */
export type MessagePreview = { to: { address: string; name: string } | null; subject: string; text: string };

async function preview(
  t: Tx,
  tenantId: string,
  customerId: string,
  build: (ctx: Context) => { subject: string; content: Omit<EmailContent, "business"> },
): Promise<MessagePreview | null> {
  const ctx = await contextOf(t, tenantId, customerId);
  if (!ctx) return null;
  const { subject, content } = build(ctx);
  const link = ctx.liveLinkId
    ? (resolveLink(tenantId, portalLinkRef(ctx.liveLinkId)) ?? LINK_PLACEHOLDER)
    : "(the customer's portal link, made when you send)";
  const { text } = renderEmail({ ...content, business: ctx.business });
  return {
    to: ctx.customer.email ? { address: ctx.customer.email, name: ctx.customer.name } : null,
    subject,
    text: text.replaceAll(LINK_PLACEHOLDER, link),
  };
}

export const previewQuoteEmail = async (t: Tx, tenantId: string, quote: QuoteForEmail) => {
  const figures = await figureFacts(t, tenantId, "quote", quote.id, quote.currency.trim());
  return preview(t, tenantId, quote.customerId, (ctx) => quoteMessage(ctx, quote, figures));
};

export type InvoiceForEmail = {
  id: string;
  number: string;
  totalCents: number | string;
  amountPaidCents: number | string;
  currency: string;
  dueDate: string | null;
  customerId: string;
};

/** The invoice's message to the customer: subject and content (sent by Send, shown before it). */
function invoiceMessage(ctx: Context, invoice: InvoiceForEmail, figures: Array<[string, string]>) {
  const { customer, business } = ctx;
  const currency = invoice.currency.trim();
  const balance = formatMoney(Number(invoice.totalCents) - Number(invoice.amountPaidCents), currency);
  return {
    subject: `Invoice ${invoice.number} from ${business.name}`,
    content: {
      preview: `Invoice ${invoice.number}: ${balance} due${invoice.dueDate ? ` by ${formatDate(invoice.dueDate)}` : ""}`,
      greeting: `Hi ${firstName(customer.name)},`,
      paragraphs: [`Here is your invoice ${invoice.number}. You can view it, download it and pay it online.`],
      facts: [
        ["Invoice", invoice.number],
        ...figures,
        ["Total", formatMoney(Number(invoice.totalCents), currency)],
        ["Balance due", balance],
        ...(invoice.dueDate ? [["Due", formatDate(invoice.dueDate)] as [string, string]] : []),
      ] as Array<[string, string]>,
      action: { label: "View and pay", url: LINK_PLACEHOLDER },
    },
  };
}

/** "Invoice INV-0001 from Acme Plumbing", with the portal link to view and pay it. */
export async function queueInvoiceEmail(
  t: Tx,
  tenantId: string,
  invoice: InvoiceForEmail,
  portalLinkId: string,
  createdBy: string | null,
): Promise<{ to: string; queued: Queued } | null> {
  const ctx = await contextOf(t, tenantId, invoice.customerId);
  if (!ctx?.customer.email) return null;
  const { customer, business } = ctx;
  const queued = await send(t, {
    tenantId,
    kind: "invoice_sent",
    business,
    createdBy,
    record: { type: "invoice", id: invoice.id },
    linkRef: portalLinkRef(portalLinkId),
    to: { address: customer.email!, name: customer.name },
    ...invoiceMessage(ctx, invoice, await figureFacts(t, tenantId, "invoice", invoice.id, invoice.currency.trim())),
  });
  return { to: customer.email!, queued };
}

export const previewInvoiceEmail = (t: Tx, tenantId: string, invoice: InvoiceForEmail) =>
  figureFacts(t, tenantId, "invoice", invoice.id, invoice.currency.trim()).then((figures) =>
    preview(t, tenantId, invoice.customerId, (ctx) => invoiceMessage(ctx, invoice, figures)),
  );

export type ReceiptInput = {
  invoiceId: string;
  invoiceNumber: string;
  customerId: string;
  paymentId: string;
  amountCents: number;
  balanceCents: number;
  currency: string;
  method: string;
  reference: string | null;
};

/** A receipt for one payment: the amount, how, and the balance left; the portal link when the customer has one. */
export async function queueReceipt(
  t: Tx,
  tenantId: string,
  p: ReceiptInput,
  createdBy: string | null,
): Promise<Queued> {
  const ctx = await contextOf(t, tenantId, p.customerId);
  if (!ctx?.customer.email) return null;
  const { customer, business } = ctx;
  const currency = p.currency.trim();
  const linkRef = ctx.liveLinkId ? portalLinkRef(ctx.liveLinkId) : null;
  const amount = formatMoney(p.amountCents, currency);
  return send(t, {
    tenantId,
    kind: "receipt",
    business,
    createdBy,
    record: { type: "invoice", id: p.invoiceId },
    linkRef,
    to: { address: customer.email!, name: customer.name },
    subject: `Receipt for your payment of ${amount} to ${business.name}`,
    content: {
      preview: `We received ${amount} on invoice ${p.invoiceNumber}.`,
      greeting: `Hi ${firstName(customer.name)},`,
      paragraphs: [
        `We received your payment of ${amount} on invoice ${p.invoiceNumber}.`,
        p.balanceCents > 0 ? "The balance below is still due." : "The invoice is paid in full.",
      ],
      facts: [
        ["Invoice", p.invoiceNumber],
        ["Payment", amount],
        ["Method", p.method],
        ...(p.reference ? [["Reference", p.reference] as [string, string]] : []),
        ["Balance", formatMoney(p.balanceCents, currency)],
      ],
      action: linkRef ? { label: "View your invoices", url: LINK_PLACEHOLDER } : undefined,
    },
  });
}

/** One message to the office (the company e-mail of the company settings); nothing when none is set. */
export async function queueOfficeNotice(
  t: Tx,
  tenantId: string,
  n: {
    kind: "office_booking_request" | "office_quote_answered" | "office_portal_payment";
    subject: string;
    paragraphs: string[];
    facts?: Array<[string, string]>;
    path: string;
    record?: { type: RecordType; id: string };
  },
): Promise<Queued> {
  const business = await businessOf(t, tenantId);
  if (!business.email) return null;
  return send(t, {
    tenantId,
    kind: n.kind,
    business,
    record: n.record,
    to: { address: business.email, name: business.name },
    subject: n.subject,
    content: {
      preview: n.paragraphs[0] ?? n.subject,
      greeting: "Hello,",
      paragraphs: n.paragraphs,
      facts: n.facts,
      action: { label: "Open in Fieldwork", url: `${env().APP_URL}${n.path}` },
      footer: "Sent to the company e-mail in your company settings.",
    },
  });
}

/** An invite to a new member: the link that sets their password. */
export async function queueInviteEmail(
  t: Tx,
  tenantId: string,
  member: { email: string; name: string },
  url: string,
  expiresAt: Date,
  createdBy: string | null,
): Promise<Queued> {
  const business = await businessOf(t, tenantId);
  return send(t, {
    tenantId,
    kind: "invite",
    business,
    createdBy,
    linkRef: sealedLinkRef(url),
    to: { address: member.email, name: member.name },
    subject: `You're invited to ${business.name} on Fieldwork`,
    content: {
      preview: `Set your password to join ${business.name}.`,
      greeting: `Hi ${firstName(member.name)},`,
      paragraphs: [
        `${business.name} added you to their team on Fieldwork. Choose a password to sign in.`,
        `The link works until ${formatDate(expiresAt.toISOString().slice(0, 10))}.`,
      ],
      action: { label: "Choose your password", url: LINK_PLACEHOLDER },
    },
  });
}
