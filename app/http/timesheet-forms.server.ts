import { parseWithZod } from "@conform-to/zod";
import { redirect } from "@remix-run/node";
import type { z } from "zod";
import { validationFailed } from "~/utils/app-error";
import { setFlash } from "~/services/accounts/sessions.server";
import { weekActionSchema } from "~/services/timesheets/schemas";
import { actorOf, requireUserWithPermission, type Actor } from "./auth.server";
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

/** A timesheet action's GET: back to the timesheets. */
export async function backToTimesheets(request: Request) {
  await requireUserWithPermission(request, "manage_timesheets");
  return redirect("/timesheets");
}

/** A POST (`userId`, `week`) that changes a person's week by `change`, then lands on that week. */
export async function changeWeek(
  request: Request,
  change: (actor: Actor, value: z.output<typeof weekActionSchema>) => Promise<{ userId: string; week: string }>,
  message: string,
) {
  const user = await requireUserWithPermission(request, "manage_timesheets");
  const value = await readTimesheetForm(request, weekActionSchema);
  const done = await change(actorOf(user), value);
  await setFlash(user, { message, tone: "success" });
  return redirect(weekPage(done.userId, done.week), 303);
}
