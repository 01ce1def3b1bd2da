import { z } from "zod";
import { countedLines } from "~/services/documents/line-items";
import { documentFigures, documentFromRow, lineFromRow, pricedInputOf } from "~/services/documents/figures";
import { rateLabel } from "~/services/money/prices";
import { ratesOf, type RateBook, type Summary } from "~/services/taxes/rate-book";
import { loadRateBook } from "~/services/taxes/taxes.server";
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { keysetPage, type PageCursor } from "./keyset.server";
import { listSchemaBase } from "./list-params";
import { addressSql, containsPattern, CUSTOMER_SEARCH, invoiceOverdue, quoteStatus, TENANT_TODAY } from "./sql.server";
import { INVOICE_FILTERS, QUOTE_FILTERS } from "./statuses";

// Quotes and invoices: lists newest first, searched by number, title or customer; details
// with their line items, totals and approval or payment history.

export const quoteListSchema = listSchemaBase.extend({
  status: z.enum(QUOTE_FILTERS).catch("all"),
  customer: z.string().uuid().optional().catch(undefined),
});
export const invoiceListSchema = listSchemaBase.extend({
  status: z.enum(INVOICE_FILTERS).catch("all"),
  customer: z.string().uuid().optional().catch(undefined),
});
export type QuoteListParams = z.infer<typeof quoteListSchema> & PageCursor;
export type InvoiceListParams = z.infer<typeof invoiceListSchema> & PageCursor;

export type QuoteListItem = {
  id: string;
  number: string;
  title: string | null;
  status: string;
  issue_date: string | null;
  valid_until: string | null;
  total_cents: number;
  currency: string;
  customer_id: string;
  customer_name: string;
};
export type InvoiceListItem = {
  id: string;
  number: string;
  status: string;
  overdue: boolean;
  issue_date: string | null;
  due_date: string | null;
  total_cents: number;
  amount_paid_cents: number;
  currency: string;
  customer_id: string;
  customer_name: string;
};

/** Above this many matches a search walks the list's index instead of listing ids first. */
const ID_LIST_MAX = 1000;

/**
 * Conditions shared by both lists: tenant, customer, and the search over number/title or the
 * customer. A search first collects the matching ids through the two trigram indexes (its own
 * and customers_search); a specific search ("Q-1042", a customer's name) is then a handful of
 * primary-key lookups. A broad one (over ID_LIST_MAX matches) instead filters while walking the
 * newest-first index, which finds a page of matches quickly precisely because they are many.
 */
async function baseWhere(
  table: "quotes" | "invoices",
  actor: Actor,
  p: { q?: string; customer?: string },
  numberSearch: (alias: string) => string,
  t: Tx,
) {
  const where = ["d.tenant_id = $1"];
  const bind: unknown[] = [actor.tenantId];
  if (p.customer) {
    bind.push(p.customer);
    where.push(`d.customer_id = $${bind.length}`);
  }
  if (p.q) {
    const pattern = containsPattern(p.q);
    const byCustomer = (alias: string, n: string) =>
      `${alias}.customer_id IN (SELECT c.id FROM customers c WHERE c.tenant_id = $1 AND ${CUSTOMER_SEARCH} LIKE ${n})`;
    const ids = await rows<{ id: string }>(
      `SELECT x.id FROM ${table} x WHERE x.tenant_id = $1 AND ${numberSearch("x")} LIKE $2
       UNION ALL
       SELECT x.id FROM ${table} x WHERE x.tenant_id = $1 AND ${byCustomer("x", "$2")}
       LIMIT ${ID_LIST_MAX + 1}`,
      [actor.tenantId, pattern],
      t,
    );
    if (ids.length <= ID_LIST_MAX) {
      bind.push([...new Set(ids.map((r) => r.id))]);
      where.push(`d.id = ANY($${bind.length}::uuid[])`);
    } else {
      bind.push(pattern);
      where.push(`(${numberSearch("d")} LIKE $${bind.length} OR ${byCustomer("d", `$${bind.length}`)})`);
    }
  }
  return { where, bind };
}

/**
 * Newest first by the document's own date (its issue date; one without a date last), then its
 * number: the order of the quotes_date_order and invoices_date_order indexes (migration 0022).
 */
const NEWEST = { expr: "coalesce(d.issue_date, '-infinity'::date)", type: "date", dir: "desc" } as const;
const THEN_NUMBER = [{ expr: "d.number", type: "text" }] as const;
const CUSTOMER_JOIN = "JOIN customers c ON c.tenant_id = d.tenant_id AND c.id = d.customer_id";

/** One page of a document list, newest first, with its customer's name. */
function documentPage<T extends Record<string, unknown>>(
  table: "quotes" | "invoices",
  select: string,
  w: { where: string[]; bind: unknown[] },
  cursor: PageCursor,
  t: Tx,
) {
  return keysetPage<T>(
    {
      select,
      from: `${table} d ${CUSTOMER_JOIN}`,
      where: w.where,
      bind: w.bind,
      key: NEWEST,
      then: [...THEN_NUMBER],
      id: "d.id",
      cursor,
    },
    t,
  );
}

export async function listQuotes(actor: Actor, p: QuoteListParams) {
  return inTenant(actor.tenantId, async (t) => {
    const { where, bind } = await baseWhere(
      "quotes",
      actor,
      p,
      (a) => `lower(${a}.number || ' ' || coalesce(${a}.title, ''))`,
      t,
    );
    if (p.status === "sent")
      where.push(`d.status = 'sent' AND (d.valid_until IS NULL OR d.valid_until >= ${TENANT_TODAY})`);
    else if (p.status === "expired") where.push(`d.status = 'sent' AND d.valid_until < ${TENANT_TODAY}`);
    // Approved and never converted (quotes.job_id is set by the conversion): partial index quotes_to_schedule.
    else if (p.status === "to_schedule") where.push(`d.status = 'approved' AND d.job_id IS NULL`);
    else if (p.status !== "all") {
      bind.push(p.status);
      where.push(`d.status = $${bind.length}`);
    }
    return documentPage<QuoteListItem>(
      "quotes",
      `d.id, d.number, d.title, ${quoteStatus("d")} AS status, d.issue_date::text, d.valid_until::text,
       d.total_cents, d.currency, d.customer_id, c.name AS customer_name`,
      { where, bind },
      p,
      t,
    );
  });
}

export async function listInvoices(actor: Actor, p: InvoiceListParams) {
  return inTenant(actor.tenantId, async (t) => {
    const { where, bind } = await baseWhere("invoices", actor, p, (a) => `lower(${a}.number)`, t);
    const overdue = invoiceOverdue("d");
    if (p.status === "unpaid") where.push(`d.status IN ('sent', 'partial')`);
    else if (p.status === "overdue") where.push(overdue);
    else if (p.status !== "all") {
      bind.push(p.status);
      where.push(`d.status = $${bind.length}`);
    }
    return documentPage<InvoiceListItem>(
      "invoices",
      `d.id, d.number, d.status, ${overdue} AS overdue, d.issue_date::text, d.due_date::text, d.total_cents,
       d.amount_paid_cents, d.currency, d.customer_id, c.name AS customer_name`,
      { where, bind },
      p,
      t,
    );
  });
}

export type LineItem = {
  id: string;
  position: number;
  description: string;
  quantity: string;
  unit_price_cents: number;
  tax_rate: string;
  tax_rate_id: string | null;
  /** "State 6.25% + City 2%", "Tax 8.25%", or null for none. */
  tax_label: string | null;
  discount_type: string | null;
  discount_percent: string | null;
  discount_amount_cents: number | null;
  discount_cents: number;
  line_total_cents: number;
  tax_cents: number;
  option_name?: string | null;
  optional?: boolean;
  selected?: boolean | null;
};

/** A document's lines with each line's rate named, and the tenant's rate book. */
export async function lineItems(
  table: "quote_items" | "invoice_items",
  column: "quote_id" | "invoice_id",
  tenantId: string,
  id: string,
  t: Tx,
) {
  const quote = table === "quote_items";
  const items = await rows<LineItem>(
    `SELECT id, position, description, trim_scale(quantity)::text AS quantity, unit_price_cents,
            trim_scale(tax_rate)::text AS tax_rate, tax_rate_id, discount_type, discount_percent::text,
            discount_amount_cents, discount_cents, line_total_cents, tax_cents
            ${quote ? ", option_name, optional, selected" : ""}
       FROM ${table} WHERE tenant_id = $1 AND ${column} = $2 ORDER BY position`,
    [tenantId, id],
    t,
  );
  const book = await loadRateBook(t, tenantId);
  for (const l of items) {
    const rates = ratesOf(pricedInputOf(lineFromRow(l)), book);
    l.tax_label = rates.length ? rates.map(rateLabel).join(" + ") : null;
  }
  return { items, book };
}

type DocumentRow = {
  discount_type: string | null;
  discount_percent: string | null;
  discount_amount_cents: number | null;
  tax_exempt_reason: string | null;
};

/** The figures every document shows, from its counted lines (a quote: the customer's choice, else the default). */
export function summaryOfRows(doc: DocumentRow, items: LineItem[], book: RateBook): Summary {
  const counted = countedLines(
    items.map((l) => ({ ...l, option: l.option_name ?? null, optional: !!l.optional, selected: l.selected ?? null })),
  );
  return documentFigures(documentFromRow(doc), counted.map(lineFromRow), book).summary;
}

/** A quote with its line items, totals and the customer's answer (404 for another tenant's id). */
export async function getQuote(actor: Actor, id: string) {
  if (!isUuid(id)) throw notFound("Quote not found.");
  return inTenant(actor.tenantId, async (t) => {
    const quote = await one<{
      id: string;
      number: string;
      title: string | null;
      status: string;
      stored_status: string;
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
      sent_at: string | null;
      approved_at: string | null;
      approved_name: string | null;
      approved_ip: string | null;
      declined_at: string | null;
      decline_reason: string | null;
      created_at: string;
      customer_id: string;
      customer_name: string;
      customer_email: string | null;
      property_label: string | null;
      property_address: string | null;
    }>(
      `SELECT q.id, q.number, q.title, ${quoteStatus("q")} AS status, q.status AS stored_status, q.issue_date::text, q.valid_until::text,
              q.currency, q.notes, q.subtotal_cents, q.tax_cents, q.total_cents, q.discount_type, q.discount_percent::text,
              q.discount_amount_cents, q.tax_exempt_reason, q.sent_at, q.approved_at, q.approved_name,
              q.approved_ip, q.declined_at, q.decline_reason, q.created_at, q.customer_id, c.name AS customer_name,
              c.email AS customer_email, p.label AS property_label, ${addressSql("p")} AS property_address
         FROM quotes q JOIN customers c ON c.tenant_id = q.tenant_id AND c.id = q.customer_id
         LEFT JOIN customer_properties p ON p.tenant_id = q.tenant_id AND p.id = q.property_id
        WHERE q.tenant_id = $1 AND q.id = $2`,
      [actor.tenantId, id],
      t,
    );
    if (!quote) throw notFound("Quote not found.");
    const { items, book } = await lineItems("quote_items", "quote_id", actor.tenantId, id, t);
    const summary = summaryOfRows(quote, items, book);
    const invoices = await rows<{ id: string; number: string }>(
      `SELECT id, number FROM invoices WHERE tenant_id = $1 AND quote_id = $2 ORDER BY created_at`,
      [actor.tenantId, id],
      t,
    );
    return { quote, items, invoices, summary };
  });
}

/** An invoice with its line items, totals and payments (404 for another tenant's id). */
export async function getInvoice(actor: Actor, id: string) {
  if (!isUuid(id)) throw notFound("Invoice not found.");
  return inTenant(actor.tenantId, async (t) => {
    const invoice = await one<{
      id: string;
      number: string;
      status: string;
      overdue: boolean;
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
      sent_at: string | null;
      paid_at: string | null;
      created_at: string;
      customer_id: string;
      customer_name: string;
      customer_email: string | null;
      quote_id: string | null;
      quote_number: string | null;
      job_id: string | null;
      job_title: string | null;
      voided_at: string | null;
      voided_by_name: string | null;
      property_label: string | null;
      property_address: string | null;
    }>(
      `SELECT i.id, i.number, i.status, ${invoiceOverdue("i")} AS overdue, i.issue_date::text, i.due_date::text, i.currency,
              i.notes, i.subtotal_cents, i.tax_cents, i.total_cents, i.amount_paid_cents, i.discount_type,
              i.discount_percent::text, i.discount_amount_cents, i.tax_exempt_reason, i.sent_at, i.paid_at, i.created_at,
              i.customer_id, c.name AS customer_name, c.email AS customer_email, i.quote_id, q.number AS quote_number,
              i.job_id, j.title AS job_title, i.voided_at, vu.name AS voided_by_name,
              p.label AS property_label, ${addressSql("p")} AS property_address
         FROM invoices i
         JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
         LEFT JOIN quotes q ON q.tenant_id = i.tenant_id AND q.id = i.quote_id
         LEFT JOIN jobs j ON j.tenant_id = i.tenant_id AND j.id = i.job_id
         LEFT JOIN users vu ON vu.tenant_id = i.tenant_id AND vu.id = i.voided_by
         LEFT JOIN customer_properties p ON p.tenant_id = i.tenant_id AND p.id = i.property_id
        WHERE i.tenant_id = $1 AND i.id = $2`,
      [actor.tenantId, id],
      t,
    );
    if (!invoice) throw notFound("Invoice not found.");
    const { items, book } = await lineItems("invoice_items", "invoice_id", actor.tenantId, id, t);
    const summary = summaryOfRows(invoice, items, book);
    const payments = await rows<{
      id: string;
      amount_cents: number;
      currency: string;
      method: string;
      reference: string;
      recorded_at: string;
      received_on: string | null;
      recorded_by_name: string | null;
    }>(
      `SELECT p.id, p.amount_cents, p.currency, p.method, p.reference, p.recorded_at, p.received_on::text, u.name AS recorded_by_name
         FROM payments p LEFT JOIN users u ON u.tenant_id = p.tenant_id AND u.id = p.recorded_by
        WHERE p.tenant_id = $1 AND p.invoice_id = $2 ORDER BY p.recorded_at, p.id`,
      [actor.tenantId, id],
      t,
    );
    return { invoice, items, payments, summary };
  });
}
