import { z } from "zod";
import { isLocalDateTime } from "~/services/jobs/local-time";
import { checkRepeat, repeatFields, repeats } from "./repeat";

// The visit edit form (/visits/<id>/edit), one schema for the server and the browser.

const localDateTime = z.string().refine(isLocalDateTime, "Enter a date and time, e.g. 2026-06-16 09:30.");

export const VISIT_SCOPES = ["this", "following"] as const;
export type VisitScope = (typeof VISIT_SCOPES)[number];

export const visitEditSchema = z
  .object({
    intent: z.enum(["save", "cancel"], { errorMap: () => ({ message: "Choose Save visit or Cancel visit." }) }),
    start: localDateTime.optional(),
    end: localDateTime.optional(),
    assigneeIds: z.array(z.string().uuid("Choose members of your team.")).max(50, "At most 50 people.").optional(),
    note: z.string().max(2000, "Keep the note to 2,000 characters.").optional(),
    /** For a visit of a recurring job: this visit only, or it and the visits after it. */
    scope: z
      .enum(VISIT_SCOPES, { errorMap: () => ({ message: "Choose this visit only or this and following." }) })
      .optional(),
    /** A new rule from this visit on ("this and following" only); `none` or absent keeps the rule. */
    ...repeatFields,
  })
  .superRefine((v, ctx) => {
    if (v.intent !== "save") return;
    if (!v.start) ctx.addIssue({ code: "custom", path: ["start"], message: "Enter the visit's start." });
    if (!v.end) ctx.addIssue({ code: "custom", path: ["end"], message: "Enter the visit's end." });
    // Same format: the strings compare like the times they name.
    if (v.start && v.end && v.end <= v.start)
      ctx.addIssue({ code: "custom", path: ["end"], message: "The end must be after the start." });
    if (!repeats(v)) return;
    if (v.scope !== "following")
      ctx.addIssue({
        code: "custom",
        path: ["repeat"],
        message: "To change how the job repeats, choose “this and following visits”.",
      });
    checkRepeat({ ...v, scheduledStart: v.start }, (path, message) =>
      ctx.addIssue({ code: "custom", path: [path === "scheduledStart" ? "start" : path], message }),
    );
  });
export type VisitEditInput = z.infer<typeof visitEditSchema>;
