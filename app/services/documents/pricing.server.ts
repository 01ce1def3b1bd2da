// A quote's or an invoice's lines and discount as the form gives them, priced with the tenant's
// named rates and the customer's exemption (docs/decisions/380-prices.md): the rows to store and
// the document's totals, from the one function of app/services/money/prices.ts.
import { Customer } from "../../../db/models/index";
import type { Tx } from "../../../db/index";
import type { Discount, DocumentFigures } from "~/services/money/prices";
import { loadRateBook, resolveLineTax } from "~/services/taxes/taxes.server";
import { discountColumns, priceLines, type PricedInput, type RateBook } from "~/services/taxes/rate-book";
import { validationFailed } from "~/utils/app-error";
import { countedLines, milliToDecimal, ppmToPercent, type LineItemInput } from "./line-items";

/** The reason a customer's new documents carry no tax, or null when they pay tax. */
export async function exemptReasonOf(t: Tx, tenantId: string, customerId: string): Promise<string | null> {
  const c = await Customer.findOne({
    where: { tenantId, id: customerId },
    attributes: ["taxExempt", "taxExemptReason"],
    transaction: t,
  });
  return c ? exemptReason(c) : null;
}

/** The reason a customer (read with its exemption columns) pays no tax, or null. */
export const exemptReason = (c: { taxExempt: boolean; taxExemptReason: string | null }) =>
  c.taxExempt ? c.taxExemptReason || "Tax-exempt customer" : null;

export type PricedForm = {
  book: RateBook;
  rows: Array<{
    position: number;
    description: string;
    quantity: string;
    unitPriceCents: number;
    taxRate: string;
    taxRateId: string | null;
    lineTotalCents: number;
    taxCents: number;
    discountCents: number;
    discountType: "percent" | "amount" | null;
    discountPercent: string | null;
    discountAmountCents: number | null;
    optionName: string | null;
    optional: boolean;
  }>;
  figures: DocumentFigures;
  exemptReason: string | null;
  /** The columns of the document itself. */
  totals: {
    subtotalCents: number;
    discountCents: number;
    taxCents: number;
    totalCents: number;
    taxExemptReason: string | null;
    discountType: "percent" | "amount" | null;
    discountPercent: string | null;
    discountAmountCents: number | null;
  };
};

/**
 * Prices a form's lines. `keep`: rate ids the document already carries (an archived rate stays
 * on a line that had it). Quotes count the default choice's lines (options, optional items);
 * the other lines are priced on their own, without the document discount.
 */
export async function priceForm(
  t: Tx,
  tenantId: string,
  o: {
    customerId: string;
    items: LineItemInput[];
    discount: Discount | null;
    keep?: ReadonlySet<string>;
    /** The customer's exemption when the caller has read it already (undefined: read here). */
    exemptReason?: string | null;
  },
): Promise<PricedForm> {
  const book = await loadRateBook(t, tenantId);
  const exemptReason = o.exemptReason !== undefined ? o.exemptReason : await exemptReasonOf(t, tenantId, o.customerId);
  const errors: Record<string, string[]> = {};
  const lines = o.items.map((l, i) => {
    const tax = resolveLineTax(book, { taxRateId: l.taxRateId, taxRate: l.taxRate }, o.keep);
    if ("error" in tax) {
      errors[`items[${i}].taxRateId`] = [tax.error];
      return { ...l, line: null };
    }
    const line: PricedInput = {
      quantityMilli: l.quantity,
      unitPriceCents: l.unitPrice,
      discount: l.discount,
      taxRateId: tax.taxRateId,
      taxRatePpm: tax.taxRatePpm,
    };
    return { ...l, line };
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
  const counted = new Set(countedLines(lines));
  const countedList = lines.filter((l) => counted.has(l));
  const figures = priceLines(
    countedList.map((l) => l.line!),
    book,
    { discount: o.discount, exempt: !!exemptReason },
  );
  const byLine = new Map(countedList.map((l, i) => [l, figures.lines[i]!]));
  const rows = lines.map((l, i) => {
    const f = byLine.get(l) ?? priceLines([l.line!], book, { discount: null, exempt: !!exemptReason }).lines[0]!;
    return {
      position: i + 1,
      description: l.description,
      quantity: milliToDecimal(l.quantity),
      unitPriceCents: l.unitPrice,
      taxRate: ppmToPercent(l.line!.taxRatePpm),
      taxRateId: l.line!.taxRateId,
      lineTotalCents: f.amount,
      taxCents: f.tax,
      discountCents: f.lineDiscount,
      ...discountColumns(l.discount),
      optionName: l.option,
      optional: l.optional,
    };
  });
  return {
    book,
    rows,
    figures,
    exemptReason,
    totals: {
      subtotalCents: figures.subtotal,
      discountCents: figures.discount,
      taxCents: figures.tax,
      totalCents: figures.total,
      taxExemptReason: exemptReason,
      ...discountColumns(o.discount),
    },
  };
}
