// The figures of a stored quote or invoice (its counted lines, its discount, its exemption),
// labelled for the page, the PDF, the portal and the e-mails: every one shows the same numbers
// because every one calls this. Pure: the rate book comes from the caller.
import { decimalToMilli, percentToPpm } from "./line-items";
import {
  priceLines,
  storedDiscount,
  summaryOf,
  type PricedInput,
  type RateBook,
  type Summary,
} from "~/services/taxes/rate-book";
import type { DocumentFigures } from "~/services/money/prices";

/** A line as the tables hold it (model attributes or raw rows, both accepted). */
export type StoredLine = {
  quantity: string | number;
  unitPriceCents: number | string;
  taxRate: string | number;
  taxRateId: string | null;
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | string | null;
};
export type StoredDocument = {
  discountType: string | null;
  discountPercent: string | null;
  discountAmountCents: number | string | null;
  taxExemptReason: string | null;
};

export const pricedInputOf = (l: StoredLine): PricedInput => ({
  quantityMilli: decimalToMilli(String(l.quantity)),
  unitPriceCents: Number(l.unitPriceCents),
  discount: storedDiscount(l.discountType, l.discountPercent, l.discountAmountCents),
  taxRateId: l.taxRateId,
  taxRatePpm: percentToPpm(String(l.taxRate)),
});

/** Every figure of the document's counted lines, and the summary every document shows. */
export function documentFigures(
  doc: StoredDocument,
  counted: readonly StoredLine[],
  book: RateBook,
): { figures: DocumentFigures; summary: Summary } {
  const discount = storedDiscount(doc.discountType, doc.discountPercent, doc.discountAmountCents);
  const figures = priceLines(counted.map(pricedInputOf), book, { discount, exempt: !!doc.taxExemptReason });
  return { figures, summary: summaryOf(figures, { discount, exemptReason: doc.taxExemptReason }) };
}

/** snake_case rows (raw SQL) to the stored line shape. */
export const lineFromRow = (r: {
  quantity: string;
  unit_price_cents: number | string;
  tax_rate: string;
  tax_rate_id: string | null;
  discount_type: string | null;
  discount_percent: string | null;
  discount_amount_cents: number | string | null;
}): StoredLine => ({
  quantity: r.quantity,
  unitPriceCents: r.unit_price_cents,
  taxRate: r.tax_rate,
  taxRateId: r.tax_rate_id,
  discountType: r.discount_type,
  discountPercent: r.discount_percent,
  discountAmountCents: r.discount_amount_cents,
});
export const documentFromRow = (r: {
  discount_type: string | null;
  discount_percent: string | null;
  discount_amount_cents: number | string | null;
  tax_exempt_reason: string | null;
}): StoredDocument => ({
  discountType: r.discount_type,
  discountPercent: r.discount_percent,
  discountAmountCents: r.discount_amount_cents,
  taxExemptReason: r.tax_exempt_reason,
});
