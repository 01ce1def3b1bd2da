// The quote builder's form (CONTRACT section 12): one schema for the browser and the action.
import { z } from "zod";
import { checked, isoDate, maxLen, currency } from "~/services/import/cells";
import { lineItemsSchema } from "./line-items";


export const quoteFormSchema = z.object({
  customerId: z.string({ required_error: "Choose a customer" }).uuid("Choose a customer"),
  title: checked(maxLen(200)).optional().transform((v) => v ?? null),
  validUntil: checked(isoDate).optional().transform((v) => v ?? null),
  currency: checked(currency).optional().transform((v) => v ?? null),
  notes: checked(maxLen(5000)).optional().transform((v) => v ?? null),
  /** The booking request the quote answers (from /quotes/new?requestId=). */
  requestId: z.string().uuid().optional(),
  items: lineItemsSchema,
});
export type QuoteFormValue = z.output<typeof quoteFormSchema>;
