import { z } from "zod";
import { isLocalDateTime } from "~/services/jobs/local-time";
import { MAX_JOB_MINUTES, minutesBetween } from "~/services/schedule/schemas";
import { withCrossChecks } from "~/utils/cross-checks";

// The forms of a job's visits, one schema each for the server and the browser. Times are wall
// clock in the tenant's time zone ("YYYY-MM-DDTHH:MM"); the crew is the repeated `assigneeIds`
// field (one checkbox per member); empty fields arrive as undefined (conform).

const localDateTime = z.string().refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30.");
const crew = z
  .array(z.string().uuid("Choose members of your team."))
  .max(50, "A crew has at most 50 members.")
  .default([]);

type Times = { start?: string; end?: string };

/** End after start, and a visit lasts at most a week (a longer job is several visits). */
function checkTimes(v: Times, ctx: z.RefinementCtx) {
  if (!v.start || !v.end) return;
  if (v.end <= v.start) ctx.addIssue({ code: "custom", path: ["end"], message: "The end must be after the start." });
  else if (minutesBetween(v.start, v.end) > MAX_JOB_MINUTES)
    ctx.addIssue({
      code: "custom",
      path: ["end"],
      message: "A visit lasts at most 7 days. Book a longer job as several visits.",
    });
}

/**
 * POST /jobs/<id>/visits: a new visit of the job. Checks across fields run with the fields' own
 * errors, on the first submit (docs/decisions/350-every-error-on-the-first-submit.md).
 */
export const addVisitSchema = withCrossChecks(
  z.object({
    start: z
      .string({ required_error: "Enter when the visit starts." })
      .refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30."),
    end: z
      .string({ required_error: "Enter when the visit ends." })
      .refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30."),
    assigneeIds: crew,
    note: z.string().trim().max(2000, "At most 2,000 characters.").optional(),
  }),
  (v, ctx) => checkTimes(v, ctx),
);
export type AddVisitInput = z.infer<typeof addVisitSchema>;

/**
 * POST /visits/<id>/schedule: a visit's time and crew, the one action behind the board's card
 * form and its drag and drop. All empty = take the visit off the schedule.
 */
export const visitScheduleSchema = withCrossChecks(
  z.object({
    start: localDateTime.optional(),
    end: localDateTime.optional(),
    assigneeIds: crew,
    /** Where the no-JavaScript form goes back to (the board or the job it was opened from). */
    returnTo: z.string().max(500).optional(),
    /** "board": the board's fetcher, answered with JSON instead of a redirect. */
    via: z.enum(["board"]).optional(),
  }),
  (v, ctx) => {
    if (v.end && !v.start)
      ctx.addIssue({ code: "custom", path: ["start"], message: "Enter a start, or clear every field." });
    if (v.start && !v.end)
      ctx.addIssue({ code: "custom", path: ["end"], message: "Enter an end, or clear every field." });
    if (!v.start && !v.end && v.assigneeIds?.length)
      ctx.addIssue({
        code: "custom",
        path: ["start"],
        message: "Enter a start and an end, or clear the crew too to take the visit off the schedule.",
      });
    checkTimes(v, ctx);
  },
);
export type VisitScheduleInput = z.infer<typeof visitScheduleSchema>;
