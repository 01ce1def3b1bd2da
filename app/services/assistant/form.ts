// The assistant form's schema and limits, shared by the page (conform, in the browser) and the
// route; no rule data here, so the page's bundle stays small.
import { z } from "zod";

export const ASSISTANT_MODES = ["quote", "schedule", "general"] as const;
export type AssistantMode = (typeof ASSISTANT_MODES)[number];

export const JOB_TITLE_MAX = 200;
export const DETAILS_MAX = 5000;

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

const optionalText = (label: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ invalid_type_error: `${label} must be text.` })
      .trim()
      .max(max, `${label} must be at most ${max} characters.`)
      .optional(),
  );

/** The assistant form (`mode`, `job_title`, `details`); other fields such as `_csrf` are stripped. */
export const assistantInputSchema = z.object({
  mode: z.preprocess(
    blankToUndefined,
    z.enum(ASSISTANT_MODES, {
      errorMap: (issue) => ({
        message:
          issue.code === "invalid_type" && issue.received === "undefined"
            ? "Choose a mode: quote, schedule or general."
            : "Mode must be quote, schedule or general.",
      }),
    }),
  ),
  job_title: optionalText("Job title", JOB_TITLE_MAX),
  details: optionalText("Details", DETAILS_MAX),
});

