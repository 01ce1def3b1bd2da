// The company settings form (/settings/company).
// Shared with the browser (conform validates with the same schemas): no server imports here.
import { z } from "zod";
import { emailSchema } from "~/services/accounts/schemas";
import { checked, taxRate } from "~/services/import/cells";
import { ppmToPercent, trimDecimal } from "~/services/documents/line-items";
import { WEEKDAYS } from "~/services/visits/repeat";
import { timeZoneField } from "./time-zones";

/** ISO 4217 currency codes the runtime knows (a quote or invoice is written in one of them). */
export function currencies(): string[] {
  return Intl.supportedValuesOf("currency");
}

export const DEFAULT_BRAND_COLOR = "#1d4ed8";

/** WCAG contrast ratio between white and a #rrggbb colour (4.5 or more reads well). */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : null));

const days = (min: number, max: number, what: string) =>
  z
    .string({ required_error: `Enter ${what}.` })
    .trim()
    .regex(/^\d{1,4}$/, `A whole number of days from ${min} to ${max}.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `A whole number of days from ${min} to ${max}.`);

/** Blank for off, else a whole number of days in range (the automatic reminders). */
const optionalDays = (min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .refine(
      (v) => !v || (/^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max),
      `Leave it empty for none, or a whole number of days from ${min} to ${max}.`,
    )
    .transform((v) => (v ? Number(v) : null));

const HOURS = /^\d{1,3}(\.\d{1,2})?$/;
/** Hours as a decimal ("40", "7.5") within a range; blank is `fallback` (whole minutes, or null for none). */
const optionalHours = (min: number, max: number, fallback: number | null) =>
  z
    .string()
    .trim()
    .optional()
    .refine(
      (v) => !v || (HOURS.test(v) && Number(v) >= min && Number(v) <= max),
      `Hours from ${min} to ${max}, like ${max >= 40 ? 40 : 8} or 7.5.`,
    )
    .transform((v) => (v ? Math.round(Number(v) * 60) : fallback));

export const companySettingsSchema = z.object({
  businessName: z
    .string({ required_error: "Enter your business name." })
    .trim()
    .min(1, "Enter your business name.")
    .max(200, "At most 200 characters."),
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
  defaultTaxRate: checked(taxRate)
    .optional()
    .transform((ppm) => trimDecimal(ppmToPercent(ppm ?? 0))),
  paymentTermsDays: days(0, 365, "the payment terms in days"),
  quoteValidityDays: days(1, 365, "how many days a quote is valid"),
  // Automatic reminders (docs/decisions/143): blank (unchecked) is off.
  reminderQuoteDays: optionalDays(1, 365),
  reminderInvoiceBeforeDays: optionalDays(0, 365),
  reminderInvoiceAfterDays: optionalDays(1, 365),
  reminderVisit: z
    .enum(["on"])
    .optional()
    .transform((v) => v === "on"),
  /** Completing a job needs every checklist item ticked (docs/decisions/213). */
  checklistRequired: z
    .enum(["on"])
    .optional()
    .transform((v) => v === "on"),
  // Timesheets (docs/decisions/385): the week's first day and the overtime rules.
  weekStartsOn: z
    .enum(WEEKDAYS, { errorMap: () => ({ message: "Choose a day of the week." }) })
    .optional()
    .transform((v) => (v ? WEEKDAYS.indexOf(v) + 1 : 1)),
  overtimeWeeklyHours: optionalHours(1, 168, 2400),
  overtimeDailyHours: optionalHours(1, 24, null),
  // The e-mails' colour: white text sits on it, so it must be dark enough to read.
  brandColor: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((v) => v || DEFAULT_BRAND_COLOR)
    .refine((v) => /^#[0-9a-f]{6}$/.test(v), "A colour written like #1d4ed8.")
    .refine(
      (v) => !/^#[0-9a-f]{6}$/.test(v) || contrastWithWhite(v) >= 4.5,
      "Too light: white text on it would be hard to read. Choose a darker colour.",
    ),
});
export type CompanySettingsValue = z.output<typeof companySettingsSchema>;
