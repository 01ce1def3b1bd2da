import { one, rows, type Tx } from "../../../db/index";
import { randomToken } from "~/utils/crypto.server";
import type { Portal } from "./access.server";
import type { PortalBookingRequest, PortalHubData, PortalInvoice, PortalLineItem, PortalPayment, PortalQuote } from "./types";

/** The last day a visit can be requested for: today + 365 days. */
export function lastBookableDate(today: string): string {
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + 365)).toISOString().slice(0, 10);
}

const iso = (v: Date | null) => (v ? v.toISOString() : null);

/**
 * The customer's page: the business, their quotes (every one that was sent to them, newest
 * first, the ones awaiting a decision on top), their invoices (open ones on top, with
 * balance and payments; drafts and void ones are not theirs to see), their recent booking
 * requests, and fresh idempotency keys for the forms.
 */
export async function loadHub(portal: Portal, t: Tx): Promise<PortalHubData> {
  const { tenantId, customerId, today } = portal;
  const customer = await one<{ name: string; phone: string | null; address: string | null }>(
    `SELECT name, phone,
            nullif(concat_ws(', ', nullif(address_line1, ''), nullif(address_line2, ''), nullif(city, ''),
                             nullif(concat_ws(' ', nullif(region, ''), nullif(postal_code, '')), '')), '') AS address
       FROM customers WHERE tenant_id = $1 AND id = $2`,
    [tenantId, customerId],
    t,
  );

  const quoteRows = await rows<QuoteRow>(
    `SELECT id, number, title, currency, subtotal_cents, tax_cents, total_cents, notes,
            CASE WHEN status = 'sent' AND valid_until < $3::date THEN 'expired' ELSE status END AS status,
            issue_date::text, valid_until::text, approved_at, approved_name, declined_at, decline_reason
       FROM quotes WHERE tenant_id = $1 AND customer_id = $2 AND status <> 'draft'
      ORDER BY (status = 'sent' AND coalesce(valid_until >= $3::date, true)) DESC, issue_date DESC NULLS LAST, created_at DESC
      LIMIT 50`,
    [tenantId, customerId, today],
    t,
  );
  const invoiceRows = await rows<InvoiceRow>(
    `SELECT id, number, status, currency, subtotal_cents, tax_cents, total_cents, amount_paid_cents, notes,
            issue_date::text, due_date::text, paid_at, (status <> 'paid' AND due_date < $3::date) AS overdue
       FROM invoices WHERE tenant_id = $1 AND customer_id = $2 AND status IN ('sent', 'partial', 'paid')
      ORDER BY (status <> 'paid') DESC, due_date ASC NULLS LAST, created_at DESC
      LIMIT 50`,
    [tenantId, customerId, today],
    t,
  );
  // One after another: a transaction is one connection, which runs one query at a time.
  const quoteItems = await lineItems("quote", tenantId, quoteRows.map((q) => q.id), t);
  const invoiceItems = await lineItems("invoice", tenantId, invoiceRows.map((i) => i.id), t);
  const payments = await rows<{ invoice_id: string; amount_cents: number; reference: string; recorded_at: Date }>(
    `SELECT invoice_id, amount_cents, reference, recorded_at FROM payments
      WHERE tenant_id = $1 AND invoice_id = ANY($2::uuid[]) ORDER BY recorded_at`,
    [tenantId, invoiceRows.map((i) => i.id)],
    t,
  );
  const requests = await rows<{ service: string; preferred_date: string | null; time_window: PortalBookingRequest["timeWindow"]; status: PortalBookingRequest["status"]; created_at: Date }>(
    `SELECT service, preferred_date::text, time_window, status, created_at FROM booking_requests
      WHERE tenant_id = $1 AND customer_id = $2 ORDER BY created_at DESC LIMIT 5`,
    [tenantId, customerId],
    t,
  );

  const paymentsOf = new Map<string, PortalPayment[]>();
  for (const p of payments) {
    const list = paymentsOf.get(p.invoice_id) ?? [];
    list.push({ amountCents: p.amount_cents, reference: p.reference, recordedAt: p.recorded_at.toISOString() });
    paymentsOf.set(p.invoice_id, list);
  }

  return {
    token: portal.token,
    business: { name: portal.tenantName, timeZone: portal.timeZone },
    customer: { name: customer?.name ?? "", phone: customer?.phone ?? null, address: customer?.address ?? null },
    linkExpiresAt: portal.linkExpiresAt.toISOString(),
    today,
    lastBookableDate: lastBookableDate(today),
    quotes: quoteRows.map(
      (q): PortalQuote => ({
        id: q.id,
        number: q.number,
        title: q.title,
        status: q.status,
        issueDate: q.issue_date,
        validUntil: q.valid_until,
        notes: q.notes,
        currency: q.currency,
        subtotalCents: q.subtotal_cents,
        taxCents: q.tax_cents,
        totalCents: q.total_cents,
        approvedAt: iso(q.approved_at),
        approvedName: q.approved_name,
        declinedAt: iso(q.declined_at),
        declineReason: q.decline_reason,
        items: quoteItems.get(q.id) ?? [],
      }),
    ),
    invoices: invoiceRows.map(
      (i): PortalInvoice => ({
        id: i.id,
        number: i.number,
        status: i.status,
        overdue: i.overdue,
        issueDate: i.issue_date,
        dueDate: i.due_date,
        notes: i.notes,
        currency: i.currency,
        subtotalCents: i.subtotal_cents,
        taxCents: i.tax_cents,
        totalCents: i.total_cents,
        amountPaidCents: i.amount_paid_cents,
        balanceCents: i.total_cents - i.amount_paid_cents,
        paidAt: iso(i.paid_at),
        items: invoiceItems.get(i.id) ?? [],
        payments: paymentsOf.get(i.id) ?? [],
        paymentKey: randomToken(18),
      }),
    ),
    bookingRequests: requests.map((r) => ({
      service: r.service,
      preferredDate: r.preferred_date,
      timeWindow: r.time_window,
      status: r.status,
      createdAt: r.created_at.toISOString(),
    })),
    bookingKey: randomToken(18),
  };
}

type QuoteRow = {
  id: string;
  number: string;
  title: string | null;
  currency: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  notes: string | null;
  status: PortalQuote["status"];
  issue_date: string | null;
  valid_until: string | null;
  approved_at: Date | null;
  approved_name: string | null;
  declined_at: Date | null;
  decline_reason: string | null;
};

type InvoiceRow = {
  id: string;
  number: string;
  status: PortalInvoice["status"];
  currency: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  amount_paid_cents: number;
  notes: string | null;
  issue_date: string | null;
  due_date: string | null;
  paid_at: Date | null;
  overdue: boolean;
};

async function lineItems(kind: "quote" | "invoice", tenantId: string, ids: string[], t: Tx): Promise<Map<string, PortalLineItem[]>> {
  const out = new Map<string, PortalLineItem[]>();
  if (!ids.length) return out;
  const found = await rows<{ doc_id: string; description: string; quantity: string; unit_price_cents: number; tax_rate: string; line_total_cents: number }>(
    `SELECT ${kind}_id AS doc_id, description, quantity::text, unit_price_cents, tax_rate::text, line_total_cents
       FROM ${kind}_items WHERE tenant_id = $1 AND ${kind}_id = ANY($2::uuid[]) ORDER BY ${kind}_id, position`,
    [tenantId, ids],
    t,
  );
  for (const r of found) {
    const list = out.get(r.doc_id) ?? [];
    list.push({ description: r.description, quantity: r.quantity, unitPriceCents: r.unit_price_cents, taxRate: r.tax_rate, lineTotalCents: r.line_total_cents });
    out.set(r.doc_id, list);
  }
  return out;
}
