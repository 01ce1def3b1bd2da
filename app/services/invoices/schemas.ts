import { z } from "zod";
import { discountFields, lineItemsSchema, withDiscount } from "~/services/documents/line-items";
import { currency, isoDate, maxLen, optionalChecked } from "~/services/import/cells";
import { amountField, isCalendarDate } from "~/services/money/amount";

// Forms of the invoice pages, shared by the server and the browser.

export const OFFICE_PAYMENT_METHODS = ["cash", "check", "card", "bank_transfer", "other"] as const;
export type OfficePaymentMethod = (typeof OFFICE_PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  cash: "Cash",
  check: "Check",
  card: "Card",
  bank_transfer: "Bank transfer",
  other: "Other",
  sandbox: "Portal (sandbox)",
  import: "Imported",
};

const STALE_FORM = "This form is out of date. Reload the page and try again.";

/** A payment the office records: cash, a check, a card on the counter, a bank transfer. */
export const officePaymentSchema = z.object({
  amount: amountField((m) => m.replace("you want to pay", "received")),
  method: z.enum(OFFICE_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose how the customer paid." }) }),
  reference: z.string().trim().max(200, "Keep the reference to 200 characters.").optional(),
  receivedOn: z
    .string({ required_error: "Enter the day the payment was received." })
    .refine(isCalendarDate, "Enter a date, e.g. 2026-06-16."),
  idempotencyKey: z.string({ required_error: STALE_FORM }).regex(/^[A-Za-z0-9_-]{16,100}$/, STALE_FORM),
});
export type OfficePaymentInput = z.output<typeof officePaymentSchema>;

/**
 * The invoice form (/invoices/new, /invoices/<id>/edit): the quote builder's fields and lines,
 * with an issue date and a due date instead of "valid until" (blank = today, and today + the
 * tenant's payment terms). An invoice's lines all count: it has no options or optional items.
 */
export const invoiceFormSchema = z
  .object({
    customerId: z.string({ required_error: "Choose a customer" }).uuid("Choose a customer"),
    issueDate: optionalChecked(isoDate),
    dueDate: optionalChecked(isoDate),
    currency: optionalChecked(currency),
    notes: optionalChecked(maxLen(5000)),
    items: lineItemsSchema,
    ...discountFields,
  })
  .transform(withDiscount);
export type InvoiceFormValue = z.output<typeof invoiceFormSchema>;

/** The void page's confirm button: no fields (the invoice is in the path). */
export const voidInvoiceFormSchema = z.object({});
