import { z } from "zod";
import { parseAmountCents } from "~/services/portal/schemas";

// Forms of the invoice pages (CONTRACT section 12), shared by the server and the browser.

export const OFFICE_PAYMENT_METHODS = ["cash", "check", "card", "bank_transfer", "other"] as const;
export type OfficePaymentMethod = (typeof OFFICE_PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  cash: "Cash", check: "Check", card: "Card", bank_transfer: "Bank transfer", other: "Other", sandbox: "Portal (sandbox)", import: "Imported",
};

/** A real calendar date, `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

const STALE_FORM = "This form is out of date. Reload the page and try again.";

/** A payment the office records: cash, a check, a card on the counter, a bank transfer. */
export const officePaymentSchema = z.object({
  amount: z
    .string()
    .optional()
    .default("")
    .transform((raw, ctx) => {
      const cents = parseAmountCents(raw);
      if (typeof cents === "string") {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: cents.replace("you want to pay", "received") });
        return z.NEVER;
      }
      return cents;
    }),
  method: z.enum(OFFICE_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose how the customer paid." }) }),
  reference: z.string().trim().max(200, "Keep the reference to 200 characters.").optional(),
  receivedOn: z.string({ required_error: "Enter the day the payment was received." }).refine(isCalendarDate, "Enter a date, e.g. 2026-06-16."),
  idempotencyKey: z.string({ required_error: STALE_FORM }).regex(/^[A-Za-z0-9_-]{16,100}$/, STALE_FORM),
});
export type OfficePaymentInput = z.output<typeof officePaymentSchema>;
