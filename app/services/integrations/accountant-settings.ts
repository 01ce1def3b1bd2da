/**
 * The settings of the files for the accountant (QuickBooks Online CSV, Xero CSV, QuickBooks
 * Desktop IIF): the income account, the product or service the lines are booked to, the Xero
 * account code and date order, and the tax code of each tax rate in each product.
 *
 * Safe in the browser: the form's schema is shared by the page (conform) and the action.
 * A tax rate is keyed by its name when it has one, else by its percentage written without
 * trailing zeros ("8.25", "0"), so the table works for the rates invoices carry today and for
 * named rates alike (docs/decisions/365-accountant-files.md).
 */
import { z } from "zod";

export const DATE_ORDERS = ["dd/mm/yyyy", "mm/dd/yyyy"] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

export const DATE_ORDER_LABELS: Record<DateOrder, string> = {
  "dd/mm/yyyy": "DD/MM/YYYY (31/01/2026)",
  "mm/dd/yyyy": "MM/DD/YYYY (01/31/2026)",
};

export type TaxCodes = {
  /** The rate's key: its name, or its percentage without trailing zeros. */
  rate: string;
  /** QuickBooks Online's `ItemTaxCode`. */
  qbo: string;
  /** Xero's `TaxType`: the tax rate's display name in Xero. */
  xero: string;
  /** QuickBooks Desktop's sales tax item the IIF file books this rate's tax to. */
  iif: string;
};

export type AccountantSettings = {
  /** QuickBooks Desktop income account of the invoice lines (IIF). */
  incomeAccount: string;
  /** The product or service the lines are booked to (QuickBooks Online and Desktop items). */
  item: string;
  /** Xero's `AccountCode` of the invoice lines. */
  xeroAccountCode: string;
  /** The date order of the QuickBooks Online and Xero files (the IIF's is fixed: MM/DD/YYYY). */
  dateOrder: DateOrder;
  taxCodes: TaxCodes[];
};

/** The no-tax rate's key. */
export const NO_TAX = "0";

const NUMERIC = /^\d{1,3}(\.\d+)?$/;

/** A rate's key: a percentage without trailing zeros ("8.250" -> "8.25", "0.000" -> "0"), or the name as given. */
export function rateKey(rate: string): string {
  const s = rate.trim();
  if (!NUMERIC.test(s)) return s;
  const [whole, frac = ""] = s.split(".");
  const f = frac.replace(/0+$/, "");
  const w = whole.replace(/^0+(?=\d)/, "");
  return f ? `${w}.${f}` : w;
}

/** What the page calls a rate. */
export function rateLabel(key: string): string {
  if (key === NO_TAX) return "No tax (0%)";
  return NUMERIC.test(key) ? `${key}%` : key;
}

export const isNoTax = (key: string) => key === NO_TAX;

/** The codes a rate gets until the business says otherwise: QuickBooks' TAX/NON, Xero's US sales tax names. */
export function defaultTaxCodes(key: string): TaxCodes {
  return isNoTax(key)
    ? { rate: key, qbo: "NON", xero: "Tax Exempt", iif: "" }
    : { rate: key, qbo: "TAX", xero: "Tax on Sales", iif: "Sales Tax" };
}

/**
 * US and Canadian organisations read dates month first; Xero documents DD/MM/YYYY otherwise.
 * The default follows the business's time zone; the setting overrides it.
 */
export function defaultDateOrder(timeZone: string): DateOrder {
  return /^(America\/|US\/|Canada\/|Pacific\/Honolulu$)/.test(timeZone) ? "mm/dd/yyyy" : "dd/mm/yyyy";
}

export function defaultAccountantSettings(timeZone: string): AccountantSettings {
  return {
    incomeAccount: "Sales",
    item: "Services",
    xeroAccountCode: "200",
    dateOrder: defaultDateOrder(timeZone),
    taxCodes: [],
  };
}

/** The codes of one rate: the saved ones, else the defaults. */
export function taxCodesFor(settings: AccountantSettings, key: string): TaxCodes {
  const saved = settings.taxCodes.find((c) => c.rate === key);
  const defaults = defaultTaxCodes(key);
  if (!saved) return defaults;
  return { ...saved, iif: saved.iif || defaults.iif };
}

// ---------------------------------------------------------------------------
// The form

// IIF is tab-separated and every file is line-based: a tab, line break or other control
// character in a name would break the row it is written in.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

function name(what: string, max: number, opts: { optional?: boolean } = {}) {
  return z.unknown().transform((raw, ctx) => {
    const v = typeof raw === "string" ? raw.trim() : "";
    if (v === "") {
      if (opts.optional) return "";
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Enter ${what}.` });
      return z.NEVER;
    }
    if (v.length > max) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Use at most ${max} characters.` });
      return z.NEVER;
    }
    if (CONTROL.test(v)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Use letters, digits and punctuation only (no tabs)." });
      return z.NEVER;
    }
    return v;
  });
}

/** The field that tells the page's action which of its forms was posted. */
export const ACCOUNTANT_FORM_INTENT = "accountant-files";

// The lengths are the products' own limits: QuickBooks Desktop account and item names 31
// characters, QuickBooks Online names 100, Xero account codes 10 and tax rate names 50.
export const accountantSettingsSchema = z
  .object({
    intent: z.literal(ACCOUNTANT_FORM_INTENT),
    income_account: name("the income account", 31),
    item: name("the product or service", 31),
    xero_account_code: name("the Xero account code", 10),
    date_order: z.unknown().transform((raw, ctx): DateOrder => {
      const v = typeof raw === "string" ? raw.trim() : "";
      if ((DATE_ORDERS as readonly string[]).includes(v)) return v as DateOrder;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Choose one of: ${DATE_ORDERS.join(", ")}.` });
      return z.NEVER;
    }),
    tax_codes: z
      .array(
        z.object({
          rate: name("the tax rate", 100),
          qbo: name("the QuickBooks Online tax code", 100),
          xero: name("the Xero tax rate", 50),
          iif: name("the QuickBooks Desktop sales tax item", 31, { optional: true }),
        }),
      )
      .max(200, "At most 200 tax rates.")
      .optional()
      .default([]),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.tax_codes.forEach((row, i) => {
      const key = rateKey(row.rate);
      if (seen.has(key))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["tax_codes", i, "rate"],
          message: "This rate is listed twice.",
        });
      seen.add(key);
      if (!isNoTax(key) && !row.iif)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["tax_codes", i, "iif"],
          message: "Enter the QuickBooks Desktop sales tax item.",
        });
    });
  })
  .transform((f): AccountantSettings => ({
    incomeAccount: f.income_account,
    item: f.item,
    xeroAccountCode: f.xero_account_code,
    dateOrder: f.date_order,
    taxCodes: f.tax_codes.map((r) => ({
      rate: rateKey(r.rate),
      qbo: r.qbo,
      xero: r.xero,
      iif: isNoTax(rateKey(r.rate)) ? "" : r.iif,
    })),
  }));

/** A stored value read back leniently: a field that no longer parses falls back to its default. */
export function loadAccountantSettings(raw: unknown, timeZone: string): AccountantSettings {
  const d = defaultAccountantSettings(timeZone);
  const o = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const text = (v: unknown, fallback: string) => (typeof v === "string" && v.trim() && !CONTROL.test(v) ? v : fallback);
  const codes = Array.isArray(o.taxCodes) ? o.taxCodes : [];
  return {
    incomeAccount: text(o.incomeAccount, d.incomeAccount),
    item: text(o.item, d.item),
    xeroAccountCode: text(o.xeroAccountCode, d.xeroAccountCode),
    dateOrder: (DATE_ORDERS as readonly unknown[]).includes(o.dateOrder) ? (o.dateOrder as DateOrder) : d.dateOrder,
    taxCodes: codes.flatMap((c): TaxCodes[] => {
      if (c === null || typeof c !== "object") return [];
      const r = c as Record<string, unknown>;
      if (typeof r.rate !== "string" || !r.rate.trim()) return [];
      const key = rateKey(r.rate);
      const def = defaultTaxCodes(key);
      return [
        {
          rate: key,
          qbo: text(r.qbo, def.qbo),
          xero: text(r.xero, def.xero),
          iif: isNoTax(key) ? "" : text(r.iif, def.iif),
        },
      ];
    }),
  };
}

/** The form's values for a set of rates: each rate's saved codes or its defaults. */
export function accountantSettingsToForm(s: AccountantSettings, rates: readonly string[]) {
  return {
    intent: ACCOUNTANT_FORM_INTENT,
    income_account: s.incomeAccount,
    item: s.item,
    xero_account_code: s.xeroAccountCode,
    date_order: s.dateOrder,
    tax_codes: rates.map((key) => {
      const c = taxCodesFor(s, key);
      return { rate: key, qbo: c.qbo, xero: c.xero, iif: c.iif };
    }),
  };
}

export type AccountantSettingsForm = ReturnType<typeof accountantSettingsToForm>;
