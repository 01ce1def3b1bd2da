/**
 * The files for the accountant: the range's invoices and payments read from the database, the
 * tenant's settings for them (a `tenant_settings` row, key `accountant_files`), and the file
 * each product imports. docs/decisions/365-accountant-files.md.
 */
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { TenantSetting } from "../../../db/models";
import type { Actor } from "~/services/accounts/actor";
import {
  quickBooksDesktopIif,
  quickBooksOnlineCsv,
  xeroFiles,
  zipFiles,
  type AccountantFormat,
  type DateRange,
  type Ledger,
  type LedgerInvoice,
} from "./accountant-files";
import {
  defaultAccountantSettings,
  loadAccountantSettings,
  NO_TAX,
  rateKey,
  type AccountantSettings,
} from "./accountant-settings";

const SETTING_KEY = "accountant_files";

async function tenantZone(t: Tx, tenantId: string) {
  const r = await one<{ time_zone: string; today: string }>(
    `SELECT time_zone, (now() AT TIME ZONE time_zone)::date::text AS today FROM tenants WHERE id = $1`,
    [tenantId],
    t,
  );
  return { timeZone: r?.time_zone ?? "UTC", today: r?.today ?? new Date().toISOString().slice(0, 10) };
}

async function settingsIn(t: Tx, tenantId: string, timeZone: string) {
  const row = await TenantSetting.findOne({ where: { tenantId, key: SETTING_KEY }, transaction: t });
  return {
    settings: row ? loadAccountantSettings(row.value, timeZone) : defaultAccountantSettings(timeZone),
    saved: row ? { at: row.updatedAt.toISOString(), by: row.updatedBy } : null,
  };
}

/**
 * The tax rates the table lists: every rate on the business's invoices, every rate already
 * given codes, and no tax, in order of percentage (names after).
 */
async function ratesInUse(t: Tx, tenantId: string, settings: AccountantSettings): Promise<string[]> {
  const used = await rows<{ rate: string }>(
    `SELECT DISTINCT trim_scale(tax_rate)::text AS rate FROM invoice_items WHERE tenant_id = $1`,
    [tenantId],
    t,
  );
  const keys = new Set([NO_TAX, ...used.map((r) => rateKey(r.rate)), ...settings.taxCodes.map((c) => c.rate)]);
  const numeric = (k: string) => (/^\d/.test(k) ? Number(k) : Number.POSITIVE_INFINITY);
  return [...keys].sort((a, b) => numeric(a) - numeric(b) || a.localeCompare(b));
}

/** The last full calendar month of the tenant's calendar: the range the page offers first. */
function lastMonth(today: string): DateRange {
  const [y, m] = today.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 2, 1));
  const last = new Date(Date.UTC(y, m - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

export type AccountantFilesPage = {
  settings: AccountantSettings;
  rates: string[];
  range: DateRange;
  savedAt: string | null;
  savedByName: string | null;
};

/** What the accounting settings page shows of the files for the accountant. */
export async function accountantFilesPage(actor: Actor): Promise<AccountantFilesPage> {
  return inTenant(actor.tenantId, async (t) => {
    const { timeZone, today } = await tenantZone(t, actor.tenantId);
    const { settings, saved } = await settingsIn(t, actor.tenantId, timeZone);
    const by = saved?.by
      ? await one<{ name: string }>(
          `SELECT name FROM users WHERE tenant_id = $1 AND id = $2`,
          [actor.tenantId, saved.by],
          t,
        )
      : undefined;
    return {
      settings,
      rates: await ratesInUse(t, actor.tenantId, settings),
      range: lastMonth(today),
      savedAt: saved?.at ?? null,
      savedByName: by?.name ?? null,
    };
  });
}

/** Stores the settings (insert or replace), as the form's schema produced them. */
export async function saveAccountantSettings(actor: Actor, value: AccountantSettings): Promise<void> {
  await inTenant(actor.tenantId, (t) =>
    TenantSetting.upsert(
      { tenantId: actor.tenantId, key: SETTING_KEY, value, updatedBy: actor.userId, updatedAt: new Date() },
      { transaction: t, returning: false },
    ),
  );
}

type InvoiceRow = {
  number: string;
  issue_date: string;
  due_date: string;
  currency: string;
  total_cents: string | number;
  name: string;
  email: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  /** [description, quantity, unit price, net, tax, rate] per line, in order. */
  lines: Array<[string, string, number, number, number, string]>;
};

/**
 * The range's invoices (issued: not draft, not void; by issue date) with their lines and
 * customers, and the payments received in the range on such invoices. One statement each over
 * the tenant's index, in a stable order (date, number, id; lines by position), hence raw SQL;
 * an invoice's lines come as one JSON array, so a year is one row per invoice.
 */
export async function loadLedger(t: Tx, tenantId: string, range: DateRange): Promise<Ledger> {
  const found = await rows<InvoiceRow>(
    `SELECT i.number, i.issue_date::text AS issue_date, coalesce(i.due_date, i.issue_date)::text AS due_date,
            i.currency, i.total_cents,
            c.name, c.email, c.address_line1, c.address_line2, c.city, c.region, c.postal_code, c.country,
            coalesce((SELECT json_agg(json_build_array(li.description, trim_scale(li.quantity)::text, li.unit_price_cents,
                                                       li.line_total_cents, li.tax_cents, trim_scale(li.tax_rate)::text)
                                      ORDER BY li.position, li.id)
                        FROM invoice_items li
                       WHERE li.tenant_id = i.tenant_id AND li.invoice_id = i.id), '[]') AS lines
       FROM invoices i
       JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
      WHERE i.tenant_id = $1 AND i.issue_date >= $2::date AND i.issue_date <= $3::date
        AND i.status NOT IN ('draft', 'void')
      ORDER BY i.issue_date, i.number, i.id`,
    [tenantId, range.from, range.to],
    t,
  );
  const invoices: LedgerInvoice[] = found.map((r) => ({
    number: r.number,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    currency: r.currency,
    totalCents: Number(r.total_cents),
    customer: {
      name: r.name,
      email: r.email,
      addressLine1: r.address_line1,
      addressLine2: r.address_line2,
      city: r.city,
      region: r.region,
      postalCode: r.postal_code,
      country: r.country,
    },
    lines: r.lines.map(([description, quantity, unit, net, tax, rate]) => ({
      description,
      quantity,
      unitPriceCents: Number(unit),
      netCents: Number(net),
      taxCents: Number(tax),
      rate,
    })),
  }));
  const payments = await rows<{
    date: string;
    amount_cents: string | number;
    currency: string;
    method: string;
    reference: string;
    number: string;
    name: string;
  }>(
    `SELECT p.received_on::text AS date, p.amount_cents, p.currency, p.method, p.reference, i.number, c.name
       FROM payments p
       JOIN invoices i ON i.tenant_id = p.tenant_id AND i.id = p.invoice_id
       JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
      WHERE p.tenant_id = $1 AND p.received_on >= $2::date AND p.received_on <= $3::date
        AND i.status NOT IN ('draft', 'void')
      ORDER BY p.received_on, p.recorded_at, p.id`,
    [tenantId, range.from, range.to],
    t,
  );
  return {
    invoices,
    payments: payments.map((p) => ({
      date: p.date,
      amountCents: Number(p.amount_cents),
      currency: p.currency,
      method: p.method,
      reference: p.reference,
      invoiceNumber: p.number,
      customerName: p.name,
    })),
  };
}

export type AccountantDownload = { filename: string; contentType: string; body: string | Uint8Array<ArrayBuffer> };

const BASE_NAMES: Record<AccountantFormat, string> = {
  qbo: "quickbooks-online-invoices",
  xero: "xero-sales-invoices",
  iif: "quickbooks-desktop-invoices-payments",
};

/** One file for the accountant, for the range, in the business's settings. */
export async function accountantFile(
  actor: Actor,
  format: AccountantFormat,
  range: DateRange,
): Promise<AccountantDownload> {
  const { ledger, settings } = await inTenant(actor.tenantId, async (t) => {
    const { timeZone } = await tenantZone(t, actor.tenantId);
    return {
      settings: (await settingsIn(t, actor.tenantId, timeZone)).settings,
      ledger: await loadLedger(t, actor.tenantId, range),
    };
  });
  const base = `${BASE_NAMES[format]}-${range.from}-to-${range.to}`;
  if (format === "qbo")
    return {
      filename: `${base}.csv`,
      contentType: "text/csv; charset=utf-8",
      body: quickBooksOnlineCsv(ledger, settings),
    };
  if (format === "iif")
    return {
      filename: `${base}.iif`,
      contentType: "text/plain; charset=utf-8",
      body: quickBooksDesktopIif(ledger, settings),
    };
  const files = xeroFiles(ledger, settings, base);
  if (files.length === 1)
    return { filename: files[0].name, contentType: "text/csv; charset=utf-8", body: files[0].text };
  return { filename: `${base}.zip`, contentType: "application/zip", body: new Uint8Array(zipFiles(files, range.to)) };
}
