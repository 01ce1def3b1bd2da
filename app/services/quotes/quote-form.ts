// The quote builder's form: one schema for the browser and the action.
import { z } from "zod";
import {
  checked,
  optionalChecked,
  isoDate,
  maxLen,
  currency,
  money,
  Invalid,
  type Check,
} from "~/services/import/cells";
import { discountFields, lineItemsSchema, withDiscount } from "../documents/line-items";

export type DepositInput = { percent: string | null; cents: number | null };

/**
 * The deposit asked on approval (docs/decisions/156), typed as "25%" (a percent of the chosen
 * total, up to 2 decimals, over 0 and at most 100) or as an amount like 150.00; blank = none.
 */
export const depositCell: Check<DepositInput> = (s) => {
  if (!s) return { percent: null, cents: null };
  const pct = /^(\d{1,3}(?:\.\d{1,2})?)\s*%$/.exec(s);
  if (pct) {
    const n = Number(pct[1]);
    if (n <= 0 || n > 100) return new Invalid("A percent deposit is more than 0% and at most 100%");
    return { percent: pct[1], cents: null };
  }
  if (s.includes("%")) return new Invalid("Type a percent like 25% (up to 2 decimals)");
  const cents = money(s);
  if (cents instanceof Invalid) return new Invalid("Type a percent like 25% or an amount like 150.00");
  if (cents === 0) return { percent: null, cents: null };
  return { percent: null, cents };
};

export const quoteFormSchema = z
  .object({
    customerId: z.string({ required_error: "Choose a customer" }).uuid("Choose a customer"),
    title: optionalChecked(maxLen(200)),
    validUntil: optionalChecked(isoDate),
    currency: optionalChecked(currency),
    notes: optionalChecked(maxLen(5000)),
    /** One of the customer's service properties (the service checks it is theirs). */
    propertyId: z.string().uuid("Choose one of the customer's properties.").optional(),
    /** The booking request the quote answers (from /quotes/new?requestId=). */
    requestId: z.string().uuid().optional(),
    items: lineItemsSchema,
    deposit: checked(depositCell)
      .optional()
      .transform((v) => v ?? { percent: null, cents: null }),
    /** The document discount, before tax, spread over the counted lines. */
    ...discountFields,
  })
  .transform(withDiscount);
export type QuoteFormValue = z.output<typeof quoteFormSchema>;
