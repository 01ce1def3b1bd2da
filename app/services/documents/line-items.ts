// Line items of quotes and invoices: the form schema (browser and server), and the money
// arithmetic (integer cents; quantity in thousandths, tax in parts per million of the amount;
// each line and each line's tax rounded half up to the cent). The import's cell checks give
// the rules, so a line typed in the builder and a line imported from CSV accept the same text.
import { z } from "zod";
import { checked as cell, Invalid, money, quantity, taxRate } from "~/services/import/cells";
import type { Discount } from "~/services/money/prices";

/** A discount's value as typed: a percent (0..100, up to 3 decimals) or an amount (up to 2 decimals). */
export function parseDiscount(type: "percent" | "amount" | null, value: string | null): Discount | null | Invalid {
  if (!value) return type ? new Invalid("Enter the discount, like 10 (percent) or 25.00 (amount)") : null;
  if (type === "percent" || (!type && value.trim().endsWith("%"))) {
    const ppm = taxRate(value.trim());
    if (ppm instanceof Invalid)
      return new Invalid("A percent discount is from 0 to 100 with up to 3 decimals, like 10");
    return ppm > 0 ? { type: "percent", milliPercent: ppm / 10 } : null;
  }
  if (!type) return new Invalid("Choose percent or amount for the discount");
  const cents = money(value.trim().replace(/^\$/, ""));
  if (cents instanceof Invalid) return new Invalid("An amount discount is like 25.00: up to 2 decimals");
  return cents > 0 ? { type: "amount", cents } : null;
}

/** The two fields of a discount (a line's or a document's): `discountType` and `discountValue`. */
export const discountFields = {
  discountType: z
    .enum(["percent", "amount"], { message: "Choose percent or amount" })
    .optional()
    .transform((v) => v ?? null),
  discountValue: z
    .string()
    .trim()
    .max(30, "At most 30 characters")
    .optional()
    .transform((v) => v || null),
};

/** Adds `discount` (parsed from the two fields) to a form value, or the field's error. */
export function withDiscount<T extends { discountType: "percent" | "amount" | null; discountValue: string | null }>(
  v: T,
  ctx: z.RefinementCtx,
): T & { discount: Discount | null } {
  const d = parseDiscount(v.discountType, v.discountValue);
  if (d instanceof Invalid) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["discountValue"], message: d.message });
    return { ...v, discount: null };
  }
  return { ...v, discount: d };
}

/**
 * One line as the form posts it: items[i].description, .quantity, .unitPrice, .taxRateId (a named
 * rate or group) or .taxRate (a percent), .discountType and .discountValue, .optional, .option.
 */
export const lineItemFields = z.object({
  description: z
    .string({ required_error: "Describe the work or the part" })
    .trim()
    .min(1, "Describe the work or the part")
    .max(1000, "At most 1,000 characters"),
  quantity: cell(quantity)
    .optional()
    .transform((v) => v ?? 1000),
  unitPrice: cell(money)
    .optional()
    .refine((v) => v !== undefined, "Enter a unit price (0 for free)")
    .transform((v) => v!),
  taxRate: cell(taxRate)
    .optional()
    .transform((v) => v ?? 0),
  taxRateId: z
    .string()
    .uuid("Choose a tax rate from the list")
    .optional()
    .transform((v) => v ?? null),
  ...discountFields,
  optional: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  option: z
    .string()
    .trim()
    .max(100, "At most 100 characters")
    .optional()
    .transform((v) => v || null),
});
export const lineItemSchema = lineItemFields.transform(withDiscount);
export type LineItemInput = z.output<typeof lineItemSchema>;

export const lineItemsSchema = z
  .array(lineItemSchema, { required_error: "Add at least one line" })
  .min(1, "Add at least one line")
  .max(200, "At most 200 lines");

/** The button that adds the chosen price-book item with JavaScript off, and its select (applyPriceBookPick). */
export const PICK_BUTTON = "pickFromPriceBook";
export const PICK_SELECT = "priceBookItem";

/** An empty row, as "Add line" inserts it. */
export const emptyLine = (taxRate = "", taxRateId = "") => ({
  description: "",
  quantity: "1",
  unitPrice: "",
  taxRate,
  taxRateId,
  discountType: "",
  discountValue: "",
  optional: "",
  option: "",
});

// --- Money ------------------------------------------------------------------------------

const roundHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

/** A line's amount and tax in cents: quantity (thousandths) x unit price, then the tax on it. */
export function lineAmounts(l: { quantityMilli: number; unitPriceCents: number; taxRatePpm: number }): {
  amount: number;
  tax: number;
} {
  const amount = roundHalfUp(BigInt(l.quantityMilli) * BigInt(l.unitPriceCents), 1000n);
  const tax = roundHalfUp(amount * BigInt(l.taxRatePpm), 1_000_000n);
  return { amount: Number(amount), tax: Number(tax) };
}

export type PricedLine = {
  quantityMilli: number;
  unitPriceCents: number;
  taxRatePpm: number;
  optional: boolean;
  option: string | null;
};

/** The option groups of a document's lines, in the order they first appear. */
export const optionGroups = (lines: ReadonlyArray<{ option: string | null }>) => [
  ...new Set(lines.map((l) => l.option).filter((o): o is string => !!o)),
];

/**
 * Which lines count, absent a customer's choice: every line that is neither optional nor in an
 * option group, plus the first option group's non-optional lines (docs/decisions/122).
 * `selected` (the customer's recorded choice), when any line has it, decides instead.
 */
export function countedLines<L extends { optional: boolean; option: string | null; selected?: boolean | null }>(
  lines: readonly L[],
): L[] {
  if (lines.some((l) => l.selected !== null && l.selected !== undefined)) return lines.filter((l) => l.selected);
  const first = optionGroups(lines)[0];
  return lines.filter((l) => !l.optional && (!l.option || l.option === first));
}

export type Totals = { subtotal: number; tax: number; total: number };

/** Totals of the counted lines, in cents: each line rounded on its own, then summed. */
export function documentTotals(lines: readonly PricedLine[]): Totals {
  let subtotal = 0;
  let tax = 0;
  for (const l of countedLines(lines)) {
    const a = lineAmounts(l);
    subtotal += a.amount;
    tax += a.tax;
  }
  return { subtotal, tax, total: subtotal + tax };
}

/** Stored forms: quantity NUMERIC(12,3) and tax rate NUMERIC(6,3) as exact strings. */
export const milliToDecimal = (milli: number) => `${Math.trunc(milli / 1000)}.${String(milli % 1000).padStart(3, "0")}`;
export const ppmToPercent = (ppm: number) => milliToDecimal(Math.round(ppm / 10));
/** "2.500" -> 2500 (exact, no float). */
export const decimalToMilli = (s: string) => {
  const [int, frac = ""] = String(s).split(".");
  return Number(int) * 1000 + Number(frac.padEnd(3, "0").slice(0, 3));
};
export const percentToPpm = (s: string) => decimalToMilli(s) * 10;
/** A decimal for a form field: "2.500" -> "2.5", "1.000" -> "1". */
export const trimDecimal = (s: string) =>
  String(s).includes(".") ? String(s).replace(/0+$/, "").replace(/\.$/, "") : String(s);
export const centsToInput = (cents: number) => (Number(cents) / 100).toFixed(2);

/**
 * Lenient reading of a row as it is being typed (the live totals with JavaScript on, and the
 * totals beside a refused form): a cell that does not parse counts as nothing.
 */
export function draftLine(raw: {
  quantity?: unknown;
  unitPrice?: unknown;
  taxRate?: unknown;
  optional?: unknown;
  option?: unknown;
}): PricedLine {
  const num = <T>(check: (s: string) => T | Invalid, v: unknown, fallback: T): T => {
    if (typeof v !== "string" || v.trim() === "") return fallback;
    const r = check(v.trim());
    return r instanceof Invalid ? fallback : r;
  };
  return {
    quantityMilli: num(quantity, raw.quantity, 1000),
    unitPriceCents: num(money, raw.unitPrice, 0),
    taxRatePpm: num(taxRate, raw.taxRate, 0),
    optional: raw.optional === true || (typeof raw.optional === "string" && ["on", "true"].includes(raw.optional)),
    option: typeof raw.option === "string" && raw.option.trim() ? raw.option.trim() : null,
  };
}
