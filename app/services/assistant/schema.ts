// The assistant's public shapes and its form schema, shared by the route, the page and the tests.

import { z } from "zod";

export const ASSISTANT_MODES = ["quote", "schedule", "general"] as const;
export type AssistantMode = (typeof ASSISTANT_MODES)[number];

export interface GuidanceSection {
  heading: string;
  items: string[];
}

export interface Guidance {
  title: string;
  summary: string;
  sections: GuidanceSection[];
}

export interface AssistantData {
  mode: AssistantMode;
  engine: "local-rules";
  engineVersion: string;
  guidance: Guidance;
}

export interface GuidanceInput {
  mode: AssistantMode;
  jobTitle?: string;
  details?: string;
}

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

export type AssistantFormInput = z.infer<typeof assistantInputSchema>;

/** Maps the parsed form to the engine's input. */
export function toGuidanceInput(form: AssistantFormInput): GuidanceInput {
  return { mode: form.mode, jobTitle: form.job_title, details: form.details };
}
