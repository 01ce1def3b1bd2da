import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import { validationFailed } from "~/utils/app-error";
import { readStaffForm } from "./conform.server";

/**
 * The timesheet forms' body (limit, CSRF) parsed with their schema. A refusal is an AppError
 * (422 with each field's messages), which the page's error boundary shows with a way back.
 */
export async function readTimesheetForm<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.output<S>> {
  const form = await readStaffForm(request);
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") {
    const fields: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(submission.error ?? {})) if (v?.length) fields[k || "_form"] = v;
    const first = Object.values(fields)[0]?.[0];
    throw validationFailed(fields, first ? `Not saved: ${first}` : "Some fields are not valid.");
  }
  return submission.value as z.output<S>;
}

/** Where a timesheet action lands: the person's week. */
export const weekPage = (userId: string, week: string) =>
  `/timesheets?userId=${encodeURIComponent(userId)}&week=${encodeURIComponent(week)}`;
