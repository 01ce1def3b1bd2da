// The price book's form (/settings/price-book): one schema for the browser and the action.
import { z } from "zod";
import { PRICE_BOOK_KINDS } from "../../../db/models/price-book-kinds";
import { checked, maxLen, money, optionalChecked, taxRate } from "~/services/import/cells";

/** A line's price: a unit price in cents (required, 0 for free) and a tax rate in ppm (empty: none). */
export const priceFields = {
  unitPrice: checked(money)
    .optional()
    .refine((v) => v !== undefined, "Enter a unit price (0 for free)")
    .transform((v) => v!),
  taxRate: checked(taxRate)
    .optional()
    .transform((v) => v ?? 0),
};

export const priceBookItemSchema = z.object({
  id: z.string().uuid().optional(),
  kind: z.enum(PRICE_BOOK_KINDS).default("service"),
  name: z.string({ required_error: "Name the service or product" }).trim().min(1).max(200, "At most 200 characters"),
  description: optionalChecked(maxLen(1000)),
  ...priceFields,
});
export type PriceBookItemValue = z.output<typeof priceBookItemSchema>;
