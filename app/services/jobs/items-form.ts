// The forms of a job's line items and billing (/jobs/<id>/items): one schema each, for the
// browser and the action.
import { z } from "zod";
import { checked, maxLen, quantity } from "~/services/import/cells";
import { priceFields } from "~/services/documents/price-book-form";

export const JOB_BILLING = ["on_completion", "per_visit"] as const;

export const jobItemSchema = z.object({
  description: checked(maxLen(1000))
    .optional()
    .refine((v) => !!v, "Describe the item")
    .transform((v) => v!),
  quantity: checked(quantity)
    .optional()
    .transform((v) => v ?? 1000),
  ...priceFields,
  perVisit: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
});
export type JobItemValue = z.output<typeof jobItemSchema>;

export const jobBillingSchema = z.object({
  billing: z.enum(JOB_BILLING, { errorMap: () => ({ message: "Choose how the job is billed" }) }),
});

/** A line item named by a form (remove, billed per visit or once). */
export const jobItemIdSchema = z.object({ id: z.string().min(1), perVisit: z.string().optional() });
