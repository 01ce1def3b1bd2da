import { z } from "zod";

// The job form's repeat section (docs/decisions/315-recurring-visits.md), one schema for the
// server and the browser. Empty fields arrive as undefined (conform strips them).

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];
export const REPEATS = ["none", "daily", "weekly", "monthly", "yearly"] as const;
export const MONTHLY_BY = ["day_of_month", "weekday_of_month"] as const;
/** At most this many visits in a series with an end (it is made in full when saved). */
export const MAX_ENDS_AFTER = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string) => {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

export const repeatFields = {
  repeat: z.enum(REPEATS, { errorMap: () => ({ message: "Choose how the job repeats." }) }).optional(),
  interval: z
    .number({ invalid_type_error: "Enter a whole number, e.g. 2." })
    .int("Enter a whole number, e.g. 2.")
    .min(1, "Every 1 or more.")
    .max(99, "At most every 99.")
    .optional(),
  weekdays: z.array(z.enum(WEEKDAYS, { errorMap: () => ({ message: "Choose days of the week." }) })).optional(),
  monthlyBy: z
    .enum(MONTHLY_BY, { errorMap: () => ({ message: "Choose by day of the month or by weekday." }) })
    .optional(),
  endsAfter: z
    .number({ invalid_type_error: "Enter a number of visits, e.g. 5." })
    .int("Enter a whole number of visits.")
    .min(1, "At least 1 visit.")
    .max(MAX_ENDS_AFTER, `At most ${MAX_ENDS_AFTER} visits.`)
    .optional(),
  endsOn: z.string().refine(isDate, "Enter a date, e.g. 2027-12-31.").optional(),
};

export type RepeatInput = {
  repeat?: (typeof REPEATS)[number];
  interval?: number;
  weekdays?: WeekdayName[];
  monthlyBy?: (typeof MONTHLY_BY)[number];
  endsAfter?: number;
  endsOn?: string;
};

/** Whether the form asks for a series. */
export const repeats = (v: RepeatInput) => Boolean(v.repeat && v.repeat !== "none");

/** The repeat section's cross-field checks (the first visit is the form's start). */
export function checkRepeat(
  v: RepeatInput & { scheduledStart?: string },
  issue: (path: string, message: string) => void,
) {
  if (!repeats(v)) return;
  if (!v.scheduledStart) issue("scheduledStart", "Enter the first visit's start to repeat the job.");
  if (v.endsAfter && v.endsOn) issue("endsOn", "Choose one end: after a number of visits or on a date.");
  if (v.endsOn && v.scheduledStart && v.endsOn < v.scheduledStart.slice(0, 10))
    issue("endsOn", "The end date is before the first visit.");
}
