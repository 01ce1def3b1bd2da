import { z } from "zod";
import { checkRepeat, repeatFields } from "~/services/visits/repeat";
import { withCrossChecks } from "~/utils/cross-checks";
import { isLocalDateTime } from "./local-time";

// The job form, one schema for the server and the browser (conform).
// Empty fields arrive as undefined (conform's parseWithZod strips them).

const localDateTime = z.string().refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30.");

/** A job's checklist (docs/decisions/213): at most this many items of at most this many characters. */
export const CHECKLIST_MAX_ITEMS = 100;
export const CHECKLIST_LABEL_MAX = 200;

/** Checklist lines typed one per line (a leading "-", "*", "•" or "[ ]" dropped; empty lines skipped). */
export function checklistLines(text: string | undefined | null): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\[[ xX]?\])\s*/, "").trim())
    .filter(Boolean)
    .map((l) => l.slice(0, CHECKLIST_LABEL_MAX));
}

export const jobFormSchema = withCrossChecks(
  z.object({
    customerId: z.string({ required_error: "Choose a customer." }).uuid("Choose a customer."),
    title: z
      .string({ required_error: "Enter a title, e.g. “Replace water heater”." })
      .trim()
      .min(1, "Enter a title.")
      .max(200, "Keep the title to 200 characters."),
    description: z.string().max(5000, "Keep the description to 5,000 characters.").optional(),
    address: z.string().max(500, "Keep the address to 500 characters.").optional(),
    scheduledStart: localDateTime.optional(),
    scheduledEnd: localDateTime.optional(),
    assigneeId: z.string().uuid("Choose a team member.").optional(),
    // One of the chosen customer's service properties (section 14); the service checks it is theirs.
    propertyId: z.string().uuid("Choose one of the customer's properties.").optional(),
    /** What the technician ticks on site, one item per line. */
    checklist: z
      .string()
      .max(CHECKLIST_MAX_ITEMS * (CHECKLIST_LABEL_MAX + 2), "The checklist is too long.")
      .optional(),
    // A recurring job (the repeat section): the start above is its first visit.
    ...repeatFields,
  }),
  (v, ctx) => {
    checkRepeat(v, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }));
    const raw = (v.checklist ?? "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (raw.length > CHECKLIST_MAX_ITEMS)
      ctx.addIssue({ code: "custom", path: ["checklist"], message: `At most ${CHECKLIST_MAX_ITEMS} items.` });
    else if (raw.some((l) => l.length > CHECKLIST_LABEL_MAX))
      ctx.addIssue({
        code: "custom",
        path: ["checklist"],
        message: `Keep each item to ${CHECKLIST_LABEL_MAX} characters.`,
      });
    if (v.scheduledEnd && !v.scheduledStart)
      ctx.addIssue({ code: "custom", path: ["scheduledStart"], message: "Enter a start, or clear the end." });
    // Same zone, same format: the strings compare like the times they name.
    if (v.scheduledStart && v.scheduledEnd && v.scheduledEnd < v.scheduledStart) {
      ctx.addIssue({ code: "custom", path: ["scheduledEnd"], message: "The end is before the start." });
    }
  },
);
export type JobFormInput = z.infer<typeof jobFormSchema>;

/** The job page's office buttons: cancel the job, or put a cancelled one back. */
export const jobActionSchema = z.object({
  intent: z.enum(["cancel", "reopen"], {
    required_error: "Choose Cancel job or Reopen.",
    invalid_type_error: "Choose Cancel job or Reopen.",
  }),
});
