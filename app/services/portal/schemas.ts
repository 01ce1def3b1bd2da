import { z } from "zod";
import { amountField, isCalendarDate } from "~/services/money/amount";
import { TIME_WINDOWS } from "./types";

// The fields of the three portal forms. A blank field is the same as a
// missing one; ids are checked by the services, where an unknown id and another customer's
// id get the same answer.

const text = (max: number, message: string) => z.string().trim().max(max, message).optional().default("");
const ACCEPTED = new Set(["on", "true", "yes", "1"]);
const STALE_FORM = "This form is out of date. Reload the page and try again.";
const formKey = z.string({ required_error: STALE_FORM }).regex(/^[A-Za-z0-9_-]{16,100}$/, STALE_FORM);

/** Repeated form fields (optionalItems=a&optionalItems=b) arrive as a string or a list. */
const idList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(
      z
        .string({ invalid_type_error: "That item is not on this quote." })
        .trim()
        .max(100, "That item is not on this quote."),
    )
    .max(200, "Too many items."),
);

/**
 * A decision on a quote: approve (signed; with the option and the optional items chosen), decline (an optional reason), or ask for changes (a message). The
 * option and the item ids are checked against the quote by the service.
 */
export const quoteDecisionSchema = z
  .object({
    quoteId: z.string().optional().default(""),
    decision: z.enum(["approve", "decline", "changes"], {
      errorMap: () => ({ message: "Choose to approve or decline the quote." }),
    }),
    signatureName: text(100, "Your name can be at most 100 characters."),
    acceptTerms: z.string().optional(),
    reason: text(1000, "Please keep the reason under 1,000 characters."),
    option: z
      .string()
      .trim()
      .max(100, "That option is not on this quote.")
      .optional()
      .transform((v) => v || null),
    optionalItems: idList.optional().transform((v) => [...new Set(v ?? [])]),
    /**
     * The total the acceptance sentence stated when the customer ticked it (the approval form
     * sends it): an approval whose choice comes to another total is refused (docs/decisions/241).
     */
    acceptedTotalCents: z
      .string()
      .trim()
      .regex(/^\d{1,12}$/, STALE_FORM)
      .optional()
      .transform((v) => (v ? Number(v) : null)),
    message: text(2000, "Please keep your message under 2,000 characters."),
  })
  .superRefine((v, ctx) => {
    if (v.decision === "changes" && !v.message) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["message"], message: "Tell us what you would like changed." });
    }
    if (v.decision !== "approve") return;
    if (!v.signatureName)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["signatureName"],
        message: "Type your full name to sign the quote.",
      });
    if (!ACCEPTED.has(String(v.acceptTerms ?? "").toLowerCase())) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["acceptTerms"],
        message: "Tick the box to accept the quote and its terms.",
      });
    }
  });
export type QuoteDecisionInput = z.output<typeof quoteDecisionSchema>;

export const paymentSchema = z.object({
  invoiceId: z.string().optional().default(""),
  amount: amountField(),
  idempotencyKey: formKey,
});
export type PaymentInput = z.output<typeof paymentSchema>;

/**
 * The booking form; the preferred date must fall within today..lastDate of the business's
 * calendar. Built once per pair of dates and kept (a schema is immutable): every portal page
 * renders the form, and building it was more than half of the form's render (decision 114).
 */
export const bookingRequestSchema = (today: string, lastDate: string) => {
  const key = `${today}|${lastDate}`;
  let schema = bookingSchemas.get(key);
  if (!schema) {
    if (bookingSchemas.size >= 32) bookingSchemas.clear();
    schema = buildBookingRequestSchema(today, lastDate);
    bookingSchemas.set(key, schema);
  }
  return schema;
};
const bookingSchemas = new Map<string, ReturnType<typeof buildBookingRequestSchema>>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const buildBookingRequestSchema = (today: string, lastDate: string) =>
  z.object({
    service: z
      .string({ required_error: "Tell us what you need done." })
      .trim()
      .min(1, "Tell us what you need done.")
      .max(200, "Please keep this under 200 characters."),
    description: text(2000, "Please keep the details under 2,000 characters."),
    preferredDate: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine((s) => !s || isCalendarDate(s), "Pick a date from the calendar (YYYY-MM-DD).")
      .refine(
        (s) => !s || !isCalendarDate(s) || (s >= today && s <= lastDate),
        "Pick a date between today and one year from now.",
      ),
    timeWindow: z.preprocess(
      (v) => (v === "" || v === undefined ? "any" : v),
      z.enum(TIME_WINDOWS, { errorMap: () => ({ message: "Choose a time of day from the list." }) }),
    ),
    address: text(500, "Please keep the address under 500 characters."),
    /** One of the customer's service properties, or empty for the address typed. */
    propertyId: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine((s) => !s || UUID.test(s), "Choose one of your properties from the list."),
    phone: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine((s) => s.length <= 40, "Please keep the phone number under 40 characters.")
      .refine((s) => !s || /^[0-9+().\-\s/xXext]+$/.test(s), "Enter a phone number using digits, spaces and + ( ) -."),
    idempotencyKey: formKey.optional(),
  });
export type BookingRequestInput = z.output<ReturnType<typeof bookingRequestSchema>>;

// Only text (a form field) is read as a number: z.coerce would call Number() on anything, and
// Number() throws on an object without a prototype instead of answering a validation error.
export const portalLinkDaysSchema = z
  .preprocess(
    (v) => (typeof v === "string" ? Number(v) : v),
    z
      .number({ invalid_type_error: "Enter a number of days." })
      .int("Enter a whole number of days.")
      .min(1, "A link lasts at least 1 day.")
      .max(90, "A link lasts at most 90 days."),
  )
  .default(30);

/** The "new portal link" form (customer, quote and invoice pages, and its own page). */
export const portalLinkFormSchema = z.object({
  days: portalLinkDaysSchema,
  returnTo: z.string().optional(),
});

/** The revoke button's form: where to go back to. */
export const portalLinkRevokeSchema = z.object({ returnTo: z.string().optional() });
