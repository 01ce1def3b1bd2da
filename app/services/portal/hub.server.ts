import { logoMetaIn, logoPath } from "~/services/company/logo.server";
import { one, type Tx } from "../../../db/index";
import { countedLines } from "~/services/documents/line-items";
import { pricedInputOf, type StoredLine } from "~/services/documents/figures";
import { loadRateBook } from "~/services/taxes/taxes.server";
import { priceLines, storedDiscount, summaryOf, type RateBook, type Summary } from "~/services/taxes/rate-book";
import type { ChoiceLine, ChoicePricing } from "./quote-choice";
import { OPEN_ON_CALENDAR_STATUSES, sqlList } from "../../../db/enums";
import { randomToken } from "~/utils/crypto.server";
import type { Portal } from "./access.server";
import {
  PORTAL_INVOICE_STATUSES,
  type PortalBookingRequest,
  type PortalHubData,
  type PortalInvoice,
  type PortalLineItem,
  type PortalPayment,
  type PortalQuote,
  type PortalQuoteLine,
  type PortalVisit,
} from "./types";

/** The last day a visit can be requested for: today + 365 days. */
export function lastBookableDate(today: string): string {
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 365)).toISOString().slice(0, 10);
}

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

/**
 * The customer's page: the business, their quotes (every one that was sent to them, newest
 * first, the ones awaiting a decision on top), their invoices (open ones on top, with
 * balance and payments; paid and void ones stay, for the "Past" section; drafts are not
 * theirs to see), their recent booking
 * requests, and fresh idempotency keys for the forms. One statement, one round trip: the
 * page is opened by every customer a business texts, so its queries are folded together.
 * (Raw SQL on purpose: a report over five tables in one statement, which the models cannot
 * express without one query per table.)
 */
export async function loadHub(portal: Portal, t: Tx): Promise<PortalHubData> {
  const { tenantId, customerId, today } = portal;
  const hub = await one<HubRow>(HUB_SQL, [tenantId, customerId, today, PORTAL_INVOICE_STATUSES], t);
  const customer = hub?.customer;
  // Only the rates the customer's documents name go to the page.
  const allRates = await loadRateBook(t, tenantId);
  const used = new Set(
    [...(hub?.quotes ?? []), ...(hub?.invoices ?? [])].flatMap((d) => (d.items ?? []).map((l) => l.taxRateId)),
  );
  const logo = await logoMetaIn(t, tenantId);
  const book: RateBook = Object.fromEntries(Object.entries(allRates).filter(([id]) => used.has(id)));
  const priced = <L extends RawLine>(items: L[] | null) =>
    (items ?? []).map((l) => ({ ...l, priced: pricedInputOf(storedLine(l)) }));
  const pricingOf = (d: RawDoc): ChoicePricing => ({
    book,
    discount: storedDiscount(d.discountType, d.discountPercent, d.discountAmountCents),
    exemptReason: d.taxExemptReason,
  });
  return {
    token: portal.token,
    business: {
      name: portal.tenantName,
      timeZone: portal.timeZone,
      logoUrl: logo ? logoPath(tenantId, logo.id) : null,
    },
    customer: { name: customer?.name ?? "", phone: customer?.phone ?? null, address: customer?.address ?? null },
    properties: (customer?.properties ?? []).map((p) => ({
      id: p.id,
      label: [p.label, p.address].filter(Boolean).join(" · ") || "Unnamed property",
    })),
    linkExpiresAt: portal.linkExpiresAt.toISOString(),
    today,
    lastBookableDate: lastBookableDate(today),
    quotes: (hub?.quotes ?? []).map((q): PortalQuote => ({
      ...q,
      ...withSummary(q, priced(q.items), pricingOf(q)),
      approvedAt: iso(q.approvedAt),
      declinedAt: iso(q.declinedAt),
      depositPaid: q.depositPaid ? { ...q.depositPaid, paidAt: iso(q.depositPaid.paidAt)! } : null,
      changeRequests: (q.changeRequests ?? []).map((c) => ({ ...c, createdAt: iso(c.createdAt)! })),
    })),
    invoices: (hub?.invoices ?? []).map((i): PortalInvoice => ({
      ...i,
      balanceCents: i.totalCents - i.amountPaidCents,
      ...withSummary(i, priced(i.items), pricingOf(i)),
      paidAt: iso(i.paidAt),
      payments: (i.payments ?? []).map((p) => ({ ...p, recordedAt: iso(p.recordedAt)! })),
      paymentKey: randomToken(18),
    })),
    bookingRequests: (hub?.requests ?? []).map((r) => ({ ...r, createdAt: iso(r.createdAt)! })),
    // First names only: the customer learns who comes, not the team's full names.
    visits: (hub?.visits ?? []).map((v) => ({
      ...v,
      start: iso(v.start)!,
      end: iso(v.end),
      crew: (v.crew ?? []).map((n) => n.trim().split(/\s+/)[0]).filter(Boolean),
    })),
    bookingKey: randomToken(18),
  };
}

type RawLine = {
  quantity: string;
  unitPriceCents: number;
  taxRate: string;
  taxRateId: string | null;
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
};
type RawDoc = {
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | null;
  taxExemptReason: string | null;
};
const storedLine = (l: RawLine): StoredLine => ({
  quantity: l.quantity,
  unitPriceCents: l.unitPriceCents,
  taxRate: l.taxRate,
  taxRateId: l.taxRateId,
  discountType: l.discountType,
  discountPercent: l.discountPercent,
  discountAmountCents: l.discountAmountCents,
});

/** The document's figures for its recorded choice (a quote), else its default: what the card shows before any ticking. */
function withSummary<
  L extends { priced?: ChoiceLine["priced"]; option?: string | null; optional?: boolean; selected?: boolean | null },
>(doc: RawDoc, items: L[], pricing: ChoicePricing): { items: L[]; pricing: ChoicePricing; summary: Summary } {
  const counted = countedLines(items.map((l) => ({ ...l, option: l.option ?? null, optional: !!l.optional })));
  const figures = priceLines(
    counted.map((l) => l.priced!),
    pricing.book,
    { discount: pricing.discount, exempt: !!pricing.exemptReason },
  );
  return {
    items,
    pricing,
    summary: summaryOf(figures, { discount: pricing.discount, exemptReason: doc.taxExemptReason }),
  };
}

const ITEMS = (kind: "quote" | "invoice", doc: string) => `
  (SELECT json_agg(json_build_object('id', li.id, 'description', li.description, 'quantity', li.quantity::text,
            'unitPriceCents', li.unit_price_cents, 'taxRate', li.tax_rate::text, 'lineTotalCents', li.line_total_cents,
            'taxCents', li.tax_cents, 'taxRateId', li.tax_rate_id, 'discountType', li.discount_type,
            'discountPercent', li.discount_percent::text, 'discountAmountCents', li.discount_amount_cents${kind === "quote" ? ", 'option', li.option_name, 'optional', li.optional, 'selected', li.selected" : ""})
            ORDER BY li.position)
     FROM ${kind}_items li WHERE li.tenant_id = $1 AND li.${kind}_id = ${doc}.id)`;

const HUB_SQL = `
SELECT
  (SELECT json_build_object('name', name, 'phone', phone, 'address',
            nullif(concat_ws(', ', nullif(address_line1, ''), nullif(address_line2, ''), nullif(city, ''),
                             nullif(concat_ws(' ', nullif(region, ''), nullif(postal_code, '')), '')), ''),
            'properties', (SELECT json_agg(json_build_object('id', p.id, 'label', p.label, 'address',
                                    nullif(concat_ws(', ', nullif(p.address_line1, ''), nullif(p.address_line2, ''), nullif(p.city, ''),
                                                     nullif(concat_ws(' ', nullif(p.region, ''), nullif(p.postal_code, '')), '')), ''))
                                  ORDER BY p.position, p.id)
                             FROM customer_properties p WHERE p.tenant_id = $1 AND p.customer_id = $2))
     FROM customers WHERE tenant_id = $1 AND id = $2) AS customer,
  (SELECT coalesce(json_agg(x.doc ORDER BY x.rank), '[]') FROM (
     SELECT json_build_object('id', q.id, 'number', q.number, 'title', q.title, 'currency', q.currency,
              'subtotalCents', q.subtotal_cents, 'taxCents', q.tax_cents, 'totalCents', q.total_cents, 'notes', q.notes,
              'discountType', q.discount_type, 'discountPercent', q.discount_percent::text,
              'discountAmountCents', q.discount_amount_cents, 'taxExemptReason', q.tax_exempt_reason,
              'status', CASE WHEN q.status = 'sent' AND q.valid_until < $3::date THEN 'expired' ELSE q.status END,
              'issueDate', q.issue_date::text, 'validUntil', q.valid_until::text, 'approvedAt', q.approved_at,
              'approvedName', q.approved_name, 'declinedAt', q.declined_at, 'declineReason', q.decline_reason,
              'chosenOption', q.chosen_option, 'depositPercent', q.deposit_percent::text, 'depositCents', q.deposit_cents,
              'depositPaid', (SELECT json_build_object('amountCents', d.amount_cents, 'reference', d.reference, 'paidAt', d.paid_at)
                                FROM quote_deposits d WHERE d.tenant_id = $1 AND d.quote_id = q.id),
              'changeRequests', (SELECT json_agg(json_build_object('message', c.message, 'createdAt', c.created_at) ORDER BY c.created_at)
                                   FROM quote_change_requests c WHERE c.tenant_id = $1 AND c.quote_id = q.id),
              'items', ${ITEMS("quote", "q")}) AS doc,
            row_number() OVER (ORDER BY (q.status = 'sent' AND coalesce(q.valid_until >= $3::date, true)) DESC,
                                        q.issue_date DESC NULLS LAST, q.created_at DESC) AS rank
       FROM quotes q WHERE q.tenant_id = $1 AND q.customer_id = $2 AND q.status <> 'draft'
      ORDER BY rank LIMIT 50) x) AS quotes,
  (SELECT coalesce(json_agg(x.doc ORDER BY x.rank), '[]') FROM (
     SELECT json_build_object('id', i.id, 'number', i.number, 'status', i.status, 'currency', i.currency,
              'subtotalCents', i.subtotal_cents, 'taxCents', i.tax_cents, 'totalCents', i.total_cents,
              'discountType', i.discount_type, 'discountPercent', i.discount_percent::text,
              'discountAmountCents', i.discount_amount_cents, 'taxExemptReason', i.tax_exempt_reason,
              'amountPaidCents', i.amount_paid_cents, 'notes', i.notes, 'issueDate', i.issue_date::text,
              'dueDate', i.due_date::text, 'paidAt', i.paid_at, 'overdue', (i.status IN ('sent', 'partial') AND i.due_date < $3::date),
              'items', ${ITEMS("invoice", "i")},
              'payments', (SELECT json_agg(json_build_object('id', p.id, 'amountCents', p.amount_cents, 'method', p.method,
                                                             'reference', p.reference, 'recordedAt', p.recorded_at) ORDER BY p.recorded_at, p.id)
                             FROM payments p WHERE p.tenant_id = $1 AND p.invoice_id = i.id)) AS doc,
            row_number() OVER (ORDER BY (i.status IN ('sent', 'partial')) DESC, i.due_date ASC NULLS LAST, i.created_at DESC) AS rank
       FROM invoices i WHERE i.tenant_id = $1 AND i.customer_id = $2 AND i.status = ANY($4::text[])
      ORDER BY rank LIMIT 50) x) AS invoices,
  (SELECT coalesce(json_agg(x.doc ORDER BY x.created_at DESC), '[]') FROM (
     SELECT json_build_object('service', service, 'preferredDate', preferred_date::text, 'timeWindow', time_window,
              'status', status, 'createdAt', created_at) AS doc, created_at
       FROM booking_requests WHERE tenant_id = $1 AND customer_id = $2 ORDER BY created_at DESC LIMIT 5) x) AS requests,
  (SELECT coalesce(json_agg(x.doc ORDER BY x.starts_at, x.id), '[]') FROM (
     SELECT json_build_object('id', v.id, 'jobTitle', j.title, 'start', v.starts_at, 'end', v.ends_at, 'status', v.status,
              'crew', (SELECT json_agg(u.name ORDER BY a.created_at, u.id) FROM visit_assignees a
                         JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
                        WHERE a.tenant_id = $1 AND a.visit_id = v.id)) AS doc, v.starts_at, v.id
       FROM jobs j JOIN visits v ON v.tenant_id = j.tenant_id AND v.job_id = j.id
      WHERE j.tenant_id = $1 AND j.customer_id = $2 AND j.status NOT IN ('cancelled', 'completed')
        AND v.status IN (${sqlList(OPEN_ON_CALENDAR_STATUSES)})
        AND coalesce(v.ends_at, v.starts_at + interval '1 hour') >= now()
      ORDER BY v.starts_at, v.id LIMIT 20) x) AS visits`;

type Json<T, Dates extends keyof T> = Omit<T, Dates> & { [K in Dates]: string | null };
type HubRow = {
  customer: {
    name: string;
    phone: string | null;
    address: string | null;
    properties: Array<{ id: string; label: string | null; address: string | null }> | null;
  } | null;
  quotes: Array<
    Json<
      Omit<PortalQuote, "items" | "depositPaid" | "changeRequests" | "pricing" | "summary">,
      "approvedAt" | "declinedAt"
    > &
      RawDoc & {
        items: Array<Omit<PortalQuoteLine, "priced"> & RawLine> | null;
        depositPaid: (Omit<NonNullable<PortalQuote["depositPaid"]>, "paidAt"> & { paidAt: string }) | null;
        changeRequests: Array<{ message: string; createdAt: string }> | null;
      }
  >;
  invoices: Array<
    Json<Omit<PortalInvoice, "items" | "payments" | "paymentKey" | "balanceCents" | "pricing" | "summary">, "paidAt"> &
      RawDoc & {
        items: Array<Omit<PortalLineItem, "priced"> & RawLine> | null;
        payments: Array<Json<PortalPayment, "recordedAt">> | null;
      }
  >;
  requests: Array<Json<PortalBookingRequest, "createdAt">>;
  visits: Array<Omit<PortalVisit, "crew"> & { crew: string[] | null }> | null;
};
