import { z } from "zod";

// Money and dates typed by a person into a payment form: the portal's "Pay" and the office's
// "Record payment" read them with the same rules (one helper, not one copy per form).

/** Money typed by a person ("1,250.50", "$80") to integer cents, or the message saying what is wrong. */
export function parseAmountCents(raw: string): number | string {
  let s = raw.trim().replace(/^[$€£]\s*/, "");
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(s)) s = s.replace(/,/g, "");
  if (!s) return "Enter the amount you want to pay.";
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return "Enter an amount in numbers, such as 120.50.";
  if (Number(s) <= 0) return "Enter an amount greater than zero.";
  const m = /^\+?(\d*)(?:\.(\d*))?$/.exec(s)!;
  if ((m[2] ?? "").length > 2) return "Use at most two decimal places.";
  if ((m[1] ?? "").replace(/^0+/, "").length > 10) return "That amount is too large.";
  return Number(m[1] || "0") * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/**
 * A form's amount field: text in, integer cents out (> 0), or the field's message.
 * `reword` adapts the messages to the form ("the amount you want to pay" -> "the amount received").
 */
export function amountField(reword: (message: string) => string = (m) => m) {
  return z
    .string()
    .optional()
    .default("")
    .transform((raw, ctx) => {
      const cents = parseAmountCents(raw);
      if (typeof cents === "string") {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: reword(cents) });
        return z.NEVER;
      }
      return cents;
    });
}

/** A real calendar date, `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}
