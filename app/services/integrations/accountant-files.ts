/**
 * The files for the accountant, written from plain data (no database): a QuickBooks Online
 * invoice import CSV, Xero sales-invoice import CSVs (at most 500 invoices a file) and a
 * QuickBooks Desktop IIF file of invoices and their payments. Each is in the columns its product
 * documents for its import; the sources are in docs/decisions/365-accountant-files.md.
 *
 * The same data gives the same bytes: rows come in the order the data is given (the loader
 * orders it), and nothing in a file depends on the clock.
 */
import { zipSync } from "fflate";
import { escapeFormula } from "~/services/import/csv-write";
import {
  taxCodesFor,
  rateKey,
  rateLabel,
  type AccountantSettings,
  type DateOrder,
  type TaxCodes,
} from "./accountant-settings";

export type LedgerCustomer = {
  name: string;
  email: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
};

export type LedgerLine = {
  description: string;
  /** NUMERIC as text, e.g. "1", "2.5". */
  quantity: string;
  unitPriceCents: number;
  /** The line's amount before tax. */
  netCents: number;
  taxCents: number;
  /** The line's tax rate: its name, or its percentage (any form; keyed with rateKey). */
  rate: string;
};

export type LedgerInvoice = {
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  /** YYYY-MM-DD; the issue date when the invoice has none. */
  dueDate: string;
  currency: string;
  totalCents: number;
  customer: LedgerCustomer;
  lines: LedgerLine[];
};

export type LedgerPayment = {
  /** YYYY-MM-DD: the day the money was received. */
  date: string;
  amountCents: number;
  currency: string;
  method: string;
  reference: string;
  invoiceNumber: string;
  customerName: string;
};

export type Ledger = { invoices: LedgerInvoice[]; payments: LedgerPayment[] };

export const ACCOUNTANT_FORMATS = ["qbo", "xero", "iif"] as const;
export type AccountantFormat = (typeof ACCOUNTANT_FORMATS)[number];
export const isAccountantFormat = (v: unknown): v is AccountantFormat =>
  typeof v === "string" && (ACCOUNTANT_FORMATS as readonly string[]).includes(v);

/** Xero imports at most this many invoices from one file. */
export const XERO_INVOICES_PER_FILE = 500;

// ---------------------------------------------------------------------------
// Amounts, dates, cells

/** Integer cents as a decimal with two places, sign first: -1230 -> "-12.30". */
export function money(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A YYYY-MM-DD date in a product's order. */
export function formatDate(iso: string, order: DateOrder): string {
  const [y, m, d] = iso.split("-");
  return order === "dd/mm/yyyy" ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell of a CSV file: formula-escaped (OWASP CSV injection), then quoted per RFC 4180. */
function text(value: string): string {
  const s = escapeFormula(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A row of cells already written (text() for text; our own numbers as they are: -5 is data). */
const row = (cells: readonly string[]) => cells.join(",");

function csv(headers: readonly string[], rows: readonly string[]): string {
  return [row(headers.map(text)), ...rows].join("\r\n") + "\r\n";
}

/** Each rate's codes, looked up once per file. */
function codesOf(s: AccountantSettings) {
  const cache = new Map<string, TaxCodes>();
  return (rate: string) => {
    let c = cache.get(rate);
    if (!c) cache.set(rate, (c = taxCodesFor(s, rate)));
    return c;
  };
}

// ---------------------------------------------------------------------------
// Lines as the products take them

type BookedLine = {
  description: string;
  quantity: string;
  unitCents: number;
  netCents: number;
  taxCents: number;
  rate: string;
};

/** Quantity times unit price, when it is a whole number of cents: the products multiply them themselves. */
function exactProduct(quantity: string, unitCents: number, netCents: number): boolean {
  const m = /^(\d+)(?:\.(\d{1,3}))?$/.exec(quantity.trim());
  if (!m) return false;
  const thousandths = Number(m[1]) * 1000 + Number((m[2] ?? "").padEnd(3, "0"));
  const product = thousandths * unitCents;
  return product % 1000 === 0 && product / 1000 === netCents;
}

/** A quantity without trailing zeros: "3.000" -> "3", "1.50" -> "1.5". */
const plainQuantity = (q: string) => (q.includes(".") ? q.replace(/\.?0+$/, "") : q);

/**
 * The invoice's lines as booked: quantity and unit price as on the invoice when they multiply
 * to the line's amount exactly, else one unit at the line's amount (the products would round
 * the product themselves and could land a cent away); then, when the lines do not add up to
 * the invoice's total (an invoice without lines), one line for the difference, so every file
 * carries the invoice's total exactly.
 */
export function bookedLines(invoice: LedgerInvoice): BookedLine[] {
  const out: BookedLine[] = invoice.lines.map((l) => {
    const quantity = plainQuantity(l.quantity);
    const exact = exactProduct(l.quantity, l.unitPriceCents, l.netCents);
    return {
      description: exact ? l.description : `${l.description} (${quantity} × ${money(l.unitPriceCents)})`,
      quantity: exact ? quantity : "1",
      unitCents: exact ? l.unitPriceCents : l.netCents,
      netCents: l.netCents,
      taxCents: l.taxCents,
      rate: rateKey(l.rate),
    };
  });
  const booked = out.reduce((s, l) => s + l.netCents + l.taxCents, 0);
  const rest = invoice.totalCents - booked;
  if (rest !== 0) {
    out.push({
      description: invoice.lines.length ? "Adjustment" : `Invoice ${invoice.number}`,
      quantity: "1",
      unitCents: rest,
      netCents: rest,
      taxCents: 0,
      rate: "0",
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// QuickBooks Online

export const QBO_HEADERS = [
  "InvoiceNo",
  "Customer",
  "InvoiceDate",
  "DueDate",
  "Item(Product/Service)",
  "ItemDescription",
  "ItemQuantity",
  "ItemRate",
  "ItemAmount",
  "ItemTaxCode",
  "ItemTaxAmount",
  "Currency",
] as const;

/** QuickBooks Online's invoice import: one row per line, the invoice's columns repeated. */
export function quickBooksOnlineCsv(ledger: Ledger, s: AccountantSettings): string {
  const codes = codesOf(s);
  const item = text(s.item);
  const rows: string[] = [];
  for (const inv of ledger.invoices) {
    const head = row([
      text(inv.number),
      text(inv.customer.name),
      formatDate(inv.issueDate, s.dateOrder),
      formatDate(inv.dueDate, s.dateOrder),
      item,
    ]);
    const currency = text(inv.currency);
    for (const l of bookedLines(inv)) {
      rows.push(
        row([
          head,
          text(l.description),
          l.quantity,
          money(l.unitCents),
          money(l.netCents),
          text(codes(l.rate).qbo),
          money(l.taxCents),
          currency,
        ]),
      );
    }
  }
  return csv(QBO_HEADERS, rows);
}

// ---------------------------------------------------------------------------
// Xero

/** Xero's sales invoice import template, its column names as written there (* = required). */
export const XERO_HEADERS = [
  "*ContactName",
  "EmailAddress",
  "POAddressLine1",
  "POAddressLine2",
  "POAddressLine3",
  "POAddressLine4",
  "POCity",
  "PORegion",
  "POPostalCode",
  "POCountry",
  "*InvoiceNumber",
  "Reference",
  "*InvoiceDate",
  "*DueDate",
  "Total",
  "InventoryItemCode",
  "*Description",
  "*Quantity",
  "*UnitAmount",
  "Discount",
  "*AccountCode",
  "*TaxType",
  "TaxAmount",
  "TrackingName1",
  "TrackingOption1",
  "TrackingName2",
  "TrackingOption2",
  "Currency",
  "BrandingTheme",
] as const;

function xeroCsv(invoices: readonly LedgerInvoice[], s: AccountantSettings): string {
  const codes = codesOf(s);
  const account = text(s.xeroAccountCode);
  const rows: string[] = [];
  for (const inv of invoices) {
    const c = inv.customer;
    const head = row([
      text(c.name),
      text(c.email ?? ""),
      text(c.addressLine1 ?? ""),
      text(c.addressLine2 ?? ""),
      "",
      "",
      text(c.city ?? ""),
      text(c.region ?? ""),
      text(c.postalCode ?? ""),
      text(c.country ?? ""),
      text(inv.number),
      "",
      formatDate(inv.issueDate, s.dateOrder),
      formatDate(inv.dueDate, s.dateOrder),
      money(inv.totalCents),
      "",
    ]);
    const tail = row(["", "", "", "", text(inv.currency), ""]);
    for (const l of bookedLines(inv)) {
      rows.push(
        row([
          head,
          text(l.description),
          l.quantity,
          money(l.unitCents),
          "",
          account,
          text(codes(l.rate).xero),
          money(l.taxCents),
          tail,
        ]),
      );
    }
  }
  return csv(XERO_HEADERS, rows);
}

export type NamedFile = { name: string; text: string };

/** Xero's files: the invoices in order, at most 500 to a file, numbered when there are several. */
export function xeroFiles(ledger: Ledger, s: AccountantSettings, baseName: string): NamedFile[] {
  const chunks: LedgerInvoice[][] = [];
  for (let i = 0; i < ledger.invoices.length; i += XERO_INVOICES_PER_FILE)
    chunks.push(ledger.invoices.slice(i, i + XERO_INVOICES_PER_FILE));
  if (chunks.length <= 1) return [{ name: `${baseName}.csv`, text: xeroCsv(chunks[0] ?? [], s) }];
  return chunks.map((chunk, i) => ({
    name: `${baseName}-part-${i + 1}-of-${chunks.length}.csv`,
    text: xeroCsv(chunk, s),
  }));
}

/**
 * Files in one ZIP. Every entry carries the same fixed time (the range's last day), so the
 * same files give the same bytes.
 */
export function zipFiles(files: readonly NamedFile[], lastDay: string): Uint8Array {
  const [y, m, d] = lastDay.split("-").map(Number);
  // A local-time Date: ZIP stores wall-clock fields, which then read back as y-m-d whatever the zone.
  const mtime = new Date(Math.max(y, 1980), m - 1, d);
  const encoder = new TextEncoder();
  return zipSync(Object.fromEntries(files.map((f) => [f.name, [encoder.encode(f.text), { mtime }]])));
}

// ---------------------------------------------------------------------------
// QuickBooks Desktop IIF

/** QuickBooks Desktop's standard accounts the invoices and payments are booked between. */
export const IIF_ACCOUNTS = {
  receivable: "Accounts Receivable",
  deposits: "Undeposited Funds",
  salesTax: "Sales Tax Payable",
} as const;

export const IIF_HEADERS = {
  trns: [
    "!TRNS",
    "TRNSID",
    "TRNSTYPE",
    "DATE",
    "ACCNT",
    "NAME",
    "CLASS",
    "AMOUNT",
    "DOCNUM",
    "MEMO",
    "CLEAR",
    "TOPRINT",
    "DUEDATE",
    "PAYMETH",
  ],
  spl: [
    "!SPL",
    "SPLID",
    "TRNSTYPE",
    "DATE",
    "ACCNT",
    "NAME",
    "CLASS",
    "AMOUNT",
    "DOCNUM",
    "MEMO",
    "CLEAR",
    "QNTY",
    "PRICE",
    "INVITEM",
    "TAXABLE",
  ],
  end: ["!ENDTRNS"],
} as const;

const PAYMENT_METHODS: Record<string, string> = {
  cash: "Cash",
  check: "Check",
  card: "Card",
  bank_transfer: "Bank transfer",
  sandbox: "Online",
};

/**
 * A text field of the IIF: tabs and line breaks would end the field or the row, so they become
 * spaces; then the same formula escaping as the CSV files.
 */
function iifText(s: string): string {
  return escapeFormula(s.replace(/[\t\r\n]+/g, " ").trim());
}

/** A customer's name: a colon would make QuickBooks read "Customer:Job", a job of another customer. */
const iifName = (s: string) => iifText(s.replace(/:/g, "-"));

/** A row of the IIF: fields already written (iifText for text), tab-separated. */
const iifRow = (cells: readonly string[]) => cells.join("\t");

/**
 * Invoices (TRNS on Accounts Receivable for the total; a SPL per line on the income account and
 * a SPL per tax rate on Sales Tax Payable, each negative, so every transaction sums to zero) and
 * payments (TRNS on Undeposited Funds, SPL on Accounts Receivable). Dates MM/DD/YYYY, as IIF
 * always reads them.
 */
export function quickBooksDesktopIif(ledger: Ledger, s: AccountantSettings): string {
  const out: string[] = [IIF_HEADERS.trns.join("\t"), IIF_HEADERS.spl.join("\t"), IIF_HEADERS.end.join("\t")];
  const codes = codesOf(s);
  const date = (iso: string) => formatDate(iso, "mm/dd/yyyy");
  const income = iifText(s.incomeAccount);
  const item = iifText(s.item);
  const receivable = iifText(IIF_ACCOUNTS.receivable);
  const salesTax = iifText(IIF_ACCOUNTS.salesTax);
  const deposits = iifText(IIF_ACCOUNTS.deposits);
  for (const inv of ledger.invoices) {
    const name = iifName(inv.customer.name);
    const d = date(inv.issueDate);
    const number = iifText(inv.number);
    out.push(
      iifRow([
        "TRNS",
        "",
        "INVOICE",
        d,
        receivable,
        name,
        "",
        money(inv.totalCents),
        number,
        "",
        "N",
        "N",
        date(inv.dueDate),
        "",
      ]),
    );
    const splHead = iifRow(["SPL", "", "INVOICE", d]);
    const taxByRate = new Map<string, number>();
    for (const l of bookedLines(inv)) {
      out.push(
        iifRow([
          splHead,
          income,
          name,
          "",
          money(-l.netCents),
          number,
          iifText(l.description),
          "N",
          `-${l.quantity}`,
          money(l.unitCents),
          item,
          l.taxCents !== 0 || l.rate !== "0" ? "Y" : "N",
        ]),
      );
      if (l.taxCents !== 0) taxByRate.set(l.rate, (taxByRate.get(l.rate) ?? 0) + l.taxCents);
    }
    for (const [rate, cents] of taxByRate) {
      out.push(
        iifRow([
          splHead,
          salesTax,
          name,
          "",
          money(-cents),
          number,
          iifText(`Sales tax ${rateLabel(rate)}`),
          "N",
          "",
          "",
          iifText(codes(rate).iif),
          "N",
        ]),
      );
    }
    out.push("ENDTRNS");
  }
  for (const p of ledger.payments) {
    const name = iifName(p.customerName);
    const d = date(p.date);
    const memo = iifText(`Payment for invoice ${p.invoiceNumber}`);
    const reference = iifText(p.reference);
    out.push(
      iifRow([
        "TRNS",
        "",
        "PAYMENT",
        d,
        deposits,
        name,
        "",
        money(p.amountCents),
        reference,
        memo,
        "N",
        "N",
        "",
        iifText(PAYMENT_METHODS[p.method] ?? "Other"),
      ]),
      iifRow([
        "SPL",
        "",
        "PAYMENT",
        d,
        receivable,
        name,
        "",
        money(-p.amountCents),
        reference,
        memo,
        "N",
        "",
        "",
        "",
        "N",
      ]),
      "ENDTRNS",
    );
  }
  return out.join("\r\n") + "\r\n";
}

// ---------------------------------------------------------------------------
// The range asked for

/** The longest range one download covers: a year (a leap year's 366 days). */
export const MAX_RANGE_DAYS = 366;

export type DateRange = { from: string; to: string };

const isDate = (v: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
};

const dayNumber = (v: string) => Date.parse(`${v}T00:00:00Z`) / 86_400_000;

/** The format and dates of a download, or a message per field. */
export function parseDownload(
  q: URLSearchParams,
): { ok: true; format: AccountantFormat; range: DateRange } | { ok: false; fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const format = (q.get("format") ?? "").trim();
  const from = (q.get("from") ?? "").trim();
  const to = (q.get("to") ?? "").trim();
  if (!isAccountantFormat(format)) fields.format = [`Choose a file: ${ACCOUNTANT_FORMATS.join(", ")}.`];
  if (!isDate(from)) fields.from = ["Enter the first day as a date (YYYY-MM-DD)."];
  if (!isDate(to)) fields.to = ["Enter the last day as a date (YYYY-MM-DD)."];
  if (isDate(from) && isDate(to)) {
    if (dayNumber(to) < dayNumber(from)) fields.to = ["The last day must be on or after the first day."];
    else if (dayNumber(to) - dayNumber(from) + 1 > MAX_RANGE_DAYS)
      fields.to = [`One file covers at most ${MAX_RANGE_DAYS} days: choose a shorter range.`];
  }
  if (Object.keys(fields).length || !isAccountantFormat(format)) return { ok: false, fields };
  return { ok: true, format, range: { from, to } };
}
