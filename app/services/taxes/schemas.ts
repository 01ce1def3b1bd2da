// The forms of /settings/taxes: one schema each for the browser and the action.
import { z } from "zod";
import { checked, taxRate } from "~/services/import/cells";

const name = z
  .string({ required_error: "Name the rate, like “State 6.25%” or “Austin city”" })
  .trim()
  .min(1, "Name the rate, like “State 6.25%” or “Austin city”")
  .max(100, "At most 100 characters");

/** A named rate: a name and a percent with up to 3 decimals (ppm out). */
export const taxRateSchema = z.object({
  id: z.string().uuid().optional(),
  name,
  rate: checked(taxRate)
    .optional()
    .refine((v) => v !== undefined, "Enter the percent, like 6.25")
    .transform((v) => v!),
  isDefault: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});
export type TaxRateValue = z.output<typeof taxRateSchema>;

/** A tax group: a name and two or more rates (their ids, repeated field `rateIds`). */
export const taxGroupSchema = z.object({
  id: z.string().uuid().optional(),
  name,
  rateIds: z
    .array(z.string().uuid("Choose rates from the list"), { required_error: "Choose two or more rates" })
    .min(2, "Choose two or more rates")
    .max(10, "At most 10 rates")
    .refine((ids) => new Set(ids).size === ids.length, "Choose each rate once"),
  isDefault: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});
export type TaxGroupValue = z.output<typeof taxGroupSchema>;
