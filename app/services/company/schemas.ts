// The company settings form (/settings/company).
// Shared with the browser (conform validates with the same schemas): no server imports here.
import { z } from "zod";
import { emailSchema } from "~/services/accounts/schemas";
import { checked, taxRate } from "~/services/import/cells";
import { ppmToPercent, trimDecimal } from "~/services/documents/line-items";
import { timeZoneField } from "./time-zones";

/** ISO 4217 currency codes the runtime knows (a quote or invoice is written in one of them). */
export function currencies(): string[] {
  return Intl.supportedValuesOf("currency");
}

const optionalText = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters.`).optional().transform((v) => (v ? v : null));

const days = (min: number, max: number, what: string) =>
  z
    .string({ required_error: `Enter ${what}.` })
    .trim()
    .regex(/^\d{1,4}$/, `A whole number of days from ${min} to ${max}.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `A whole number of days from ${min} to ${max}.`);

/** Blank for off, else a whole number of days in range (the automatic reminders, issue 18). */
const optionalDays = (min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || (/^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max), `Leave it empty for none, or a whole number of days from ${min} to ${max}.`)
    .transform((v) => (v ? Number(v) : null));

export const companySettingsSchema = z.object({
  businessName: z.string({ required_error: "Enter your business name." }).trim().min(1, "Enter your business name.").max(200, "At most 200 characters."),
  phone: optionalText(50),
  email: emailSchema.optional().transform((v) => v ?? null),
  address: optionalText(500),
  timeZone: timeZoneField,
  currency: z
    .string({ required_error: "Choose a currency." })
    .trim()
    .toUpperCase()
    .refine((c) => /^[A-Z]{3}$/.test(c) && currencies().includes(c), "Choose a currency from the list."),
  /** A percent with up to 3 decimals, stored as written ("8.25"); empty is 0. */
  defaultTaxRate: checked(taxRate).optional().transform((ppm) => trimDecimal(ppmToPercent(ppm ?? 0))),
  paymentTermsDays: days(0, 365, "the payment terms in days"),
  quoteValidityDays: days(1, 365, "how many days a quote is valid"),
  // Automatic reminders (docs/decisions/143): blank (unchecked) is off.
  reminderQuoteDays: optionalDays(1, 365),
  reminderInvoiceBeforeDays: optionalDays(0, 365),
  reminderInvoiceAfterDays: optionalDays(1, 365),
  reminderVisit: z.enum(["on"]).optional().transform((v) => v === "on"),
});
export type CompanySettingsValue = z.output<typeof companySettingsSchema>;
