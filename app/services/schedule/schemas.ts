import { z } from "zod";
import { isLocalDateTime } from "~/services/jobs/local-time";
import { withCrossChecks } from "~/utils/cross-checks";
import { minutesBetween } from "./days";

// In days.ts (no schema library) so the board's script does not carry zod; kept importable here.
export { minutesBetween };

// The schedule action's form, one schema for the server and the browser:
// the no-JavaScript form of /jobs/<id>/schedule and the board's drag and drop post it alike.
// Times are wall clock in the tenant's time zone; empty fields arrive as undefined (conform).

const localDateTime = z.string().refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30.");

/** The longest a job may be booked in one go: a week (a longer job is several visits). */
export const MAX_JOB_MINUTES = 7 * 24 * 60;

export const scheduleFormSchema = withCrossChecks(
  z.object({
    assigneeId: z.string().uuid("Choose a member of your team.").optional(),
    scheduledStart: localDateTime.optional(),
    scheduledEnd: localDateTime.optional(),
    /** Where the no-JavaScript form goes back to (the board it was opened from). */
    returnTo: z.string().max(500).optional(),
    /** "board": the board's fetcher, answered with JSON instead of a redirect. */
    via: z.enum(["board"]).optional(),
  }),
  (v, ctx) => {
    if (v.scheduledEnd && !v.scheduledStart)
      ctx.addIssue({ code: "custom", path: ["scheduledStart"], message: "Enter a start, or clear the end." });
    if (v.scheduledStart && !v.scheduledEnd)
      ctx.addIssue({ code: "custom", path: ["scheduledEnd"], message: "Enter an end, or clear the start." });
    // Same zone, same format: the strings compare like the times they name.
    if (v.scheduledStart && v.scheduledEnd) {
      if (v.scheduledEnd <= v.scheduledStart)
        ctx.addIssue({ code: "custom", path: ["scheduledEnd"], message: "The end must be after the start." });
      else if (minutesBetween(v.scheduledStart, v.scheduledEnd) > MAX_JOB_MINUTES) {
        ctx.addIssue({
          code: "custom",
          path: ["scheduledEnd"],
          message: "A visit lasts at most 7 days. Book a longer job as several visits.",
        });
      }
    }
  },
);
export type ScheduleFormInput = z.infer<typeof scheduleFormSchema>;

/** Board navigation: `view` day or week, `date` any day inside it (default today). */
export const BOARD_VIEWS = ["day", "week"] as const;
export type BoardView = (typeof BOARD_VIEWS)[number];

/** Calendar settings' "make a link" button: whose feed (an owner or admin may pick any member). */
export const calendarFeedFormSchema = z.object({ userId: z.string().default("") });
/** Calendar settings' "turn off" button: no fields (the feed is in the path). */
export const calendarFeedRevokeSchema = z.object({});
