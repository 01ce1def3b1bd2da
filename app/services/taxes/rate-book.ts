// A tenant's named rates and groups as plain data (the browser's builder gets the same), and the
// mapping from a line as stored or typed to the priced line of app/services/money/prices.ts.
// Pure: no database.
import type { Discount, DocumentFigures, PriceLine, Rate } from "~/services/money/prices";
import { ppmToPercentText, priceDocument, rateLabel } from "~/services/money/prices";

/** One named rate or group; `members` is the rate itself for a rate, its member rates for a group. */
export type TaxChoice = {
  id: string;
  name: string;
  isGroup: boolean;
  archived: boolean;
  isDefault: boolean;
  /** The sum of the members' percents, as text ("8.25"). */
  percent: string;
  members: Rate[];
};
export type RateBook = Record<string, TaxChoice>;

/** A line's tax as it is stored: a named rate or group, else a percent typed (ppm), else none. */
export type LineTax = { taxRateId: string | null; taxRatePpm: number };

/** The line's rates: the named rate's or group's members, or the typed percent as an unnamed rate. */
export function ratesOf(line: LineTax, book: RateBook): Rate[] {
  const named = line.taxRateId ? book[line.taxRateId] : undefined;
  if (named) return named.members;
  return line.taxRatePpm > 0 ? [{ key: `pct:${line.taxRatePpm}`, name: null, ppm: line.taxRatePpm }] : [];
}

/** A discount as stored (type, NUMERIC percent text, cents), or null. */
export function storedDiscount(
  type: string | null | undefined,
  percent: string | null | undefined,
  amountCents: number | string | null | undefined,
): Discount | null {
  if (type === "percent" && percent !== null && percent !== undefined) {
    const [int, frac = ""] = String(percent).split(".");
    const milliPercent = Number(int) * 1000 + Number(frac.padEnd(3, "0").slice(0, 3));
    return milliPercent > 0 ? { type: "percent", milliPercent } : null;
  }
  if (type === "amount" && amountCents !== null && amountCents !== undefined && Number(amountCents) > 0)
    return { type: "amount", cents: Number(amountCents) };
  return null;
}

/** A discount for the form's fields: type and value ("10" or "25.00"). */
export function discountInput(d: Discount | null): { discountType: string; discountValue: string } {
  if (!d) return { discountType: "", discountValue: "" };
  if (d.type === "percent") return { discountType: "percent", discountValue: ppmToPercentText(d.milliPercent * 10) };
  return { discountType: "amount", discountValue: (d.cents / 100).toFixed(2) };
}

/** The columns a discount is stored in. */
export function discountColumns(d: Discount | null) {
  return {
    discountType: d?.type ?? null,
    discountPercent:
      d?.type === "percent"
        ? `${Math.trunc(d.milliPercent / 1000)}.${String(d.milliPercent % 1000).padStart(3, "0")}`
        : null,
    discountAmountCents: d?.type === "amount" ? d.cents : null,
  };
}

export type PricedInput = LineTax & {
  quantityMilli: number;
  unitPriceCents: number;
  discount: Discount | null;
};

/** Every figure of a document from its counted lines, with the rates of `book`. */
export function priceLines(
  lines: readonly PricedInput[],
  book: RateBook,
  opts: { discount: Discount | null; exempt: boolean },
): DocumentFigures {
  const priced: PriceLine[] = lines.map((l) => ({
    quantityMilli: l.quantityMilli,
    unitPriceCents: l.unitPriceCents,
    discount: l.discount,
    rates: ratesOf(l, book),
  }));
  return priceDocument({ lines: priced, discount: opts.discount, exempt: opts.exempt });
}

/** What every document shows under its lines: the same figures, labelled. */
export type Summary = {
  subtotal: number;
  discount: number;
  /** "Discount (10%)" or "Discount" */
  discountLabel: string;
  lineDiscounts: number;
  documentDiscount: number;
  taxes: Array<{ label: string; cents: number }>;
  tax: number;
  total: number;
  exemptReason: string | null;
};

export function summaryOf(
  f: DocumentFigures,
  doc: { discount: Discount | null; exemptReason: string | null },
): Summary {
  const pct = doc.discount?.type === "percent" ? ppmToPercentText(doc.discount.milliPercent * 10) : null;
  return {
    subtotal: f.subtotal,
    discount: f.discount,
    discountLabel: pct && f.lineDiscounts === 0 ? `Discount (${pct}%)` : "Discount",
    lineDiscounts: f.lineDiscounts,
    documentDiscount: f.documentDiscount,
    taxes: doc.exemptReason ? [] : f.taxes.map((t) => ({ label: rateLabel(t), cents: t.cents })),
    tax: f.tax,
    total: f.total,
    exemptReason: doc.exemptReason,
  };
}

/** "Tax exempt: <reason>" as every document says it. */
export const exemptLine = (reason: string) => `Tax exempt: ${reason}`;
