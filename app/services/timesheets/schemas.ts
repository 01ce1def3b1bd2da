// The timesheet forms: add an entry, change one (update, delete, accept, discard), approve or
// reopen a week. Shared with the browser: no server imports here.
import { z } from "zod";
import { TIME_ENTRY_KINDS } from "../../../db/enums";
import { isLocalDateTime } from "~/services/jobs/local-time";
import { isDate } from "./hours";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const id = (what: string) =>
  z
    .string({ required_error: `Choose ${what}.` })
    .trim()
    .toLowerCase()
    .refine((v) => UUID.test(v), `Choose ${what}.`);

/** `YYYY-MM-DD`: the week that contains this date. */
export const weekField = z
  .string({ required_error: "Choose a week." })
  .trim()
  .refine(isDate, "A date written YYYY-MM-DD.");

const localTime = (label: string) =>
  z
    .string({ required_error: `Enter the ${label}.` })
    .trim()
    .refine(isLocalDateTime, `Enter the ${label} as a date and time.`);

const reason = z.string().trim().max(500, "At most 500 characters.");

const entryFields = {
  userId: id("the person"),
  kind: z.enum(TIME_ENTRY_KINDS, { errorMap: () => ({ message: "Choose work, travel or break." }) }),
  start: localTime("start"),
  end: localTime("end"),
  visitId: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => !v || UUID.test(v), "Choose a visit from the list.")
    .transform((v) => v || null),
};

const endAfterStart = (v: { start?: string; end?: string }) => !v.start || !v.end || v.end > v.start;
const endMessage = { message: "The end must be after the start.", path: ["end"] };

/** POST /timesheets/entries: a new entry; the reason is optional. */
export const addEntrySchema = z
  .object({
    ...entryFields,
    reason: reason.optional().transform((v) => v || null),
  })
  .refine(endAfterStart, endMessage);
export type AddEntryValue = z.output<typeof addEntrySchema>;

const requiredReason = reason.min(1, "Say why (it is kept in the history).");

/** POST /timesheets/entries/<id>: update (the entry's fields), delete, accept or discard; a reason for each but accept. */
export const changeEntrySchema = z
  .discriminatedUnion("intent", [
    z.object({ intent: z.literal("update"), ...entryFields, reason: requiredReason }),
    z.object({ intent: z.literal("delete"), reason: requiredReason }),
    z.object({ intent: z.literal("accept"), reason: reason.optional().transform((v) => v || null) }),
    z.object({ intent: z.literal("discard"), reason: requiredReason }),
  ])
  .superRefine((v, ctx) => {
    if (v.intent === "update" && !endAfterStart(v)) ctx.addIssue({ code: "custom", ...endMessage });
  });
export type ChangeEntryValue = z.output<typeof changeEntrySchema>;

/** POST /timesheets/approve and /timesheets/reopen. */
export const weekActionSchema = z.object({
  userId: id("the person"),
  week: weekField,
  reason: reason.optional().transform((v) => v || null),
});
export type WeekActionValue = z.output<typeof weekActionSchema>;
