import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import type { z } from "zod";
import { actorOf, requireUserWithPermission, type Actor } from "~/http/auth.server";
import { LIMITS, readForm } from "~/http/body.server";
import { assertCsrf } from "~/http/csrf.server";
import { toAppError } from "~/http/envelope.server";
import { setFlash } from "~/services/accounts/sessions.server";
import type { Permission } from "~/utils/permissions";
import { listPageOf, recordPageOf } from "~/utils/return-to";

// The one action shape behind the board's drag and drop and its no-JavaScript forms (a job's
// or a visit's time and people): the board's fetcher (`via=board`) is answered with JSON, the
// page's form with a 303 back to the board or the job it was opened from.

/** Back to the board the form was opened from, or to the job. */
export const boardOrJobPage = (value: FormDataEntryValue | string | null | undefined, jobId: string) =>
  typeof value === "string" && value.startsWith("/schedule")
    ? listPageOf(value, "/schedule")
    : recordPageOf(value, `/jobs/${jobId}`);

/** The form's reply: its errors, or (to the board) the move's message and the record moved. */
export type BoardReply<Id extends string> =
  { result: SubmissionResult<string[]>; ok?: false } | ({ ok: true; message: string } & Record<Id, string>);

type Moved = { message: string; jobId: string };
type BoardFields = { via?: "board"; returnTo?: string };

export async function boardScheduleAction<S extends z.ZodType<BoardFields>, R extends Moved, Id extends string>(
  request: Request,
  options: {
    permission: Permission;
    schema: S;
    /** The name of the moved record's id in the board's JSON reply (`jobId`, `visitId`). */
    idKey: Id;
    move: (actor: Actor, values: Omit<z.output<S>, "via" | "returnTo">) => Promise<R & Record<Id, string>>;
  },
) {
  const user = await requireUserWithPermission(request, options.permission);
  let form: FormData;
  try {
    form = await readForm(request, LIMITS.form);
    await assertCsrf(request, form);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    throw json({ message: e.message }, { status: e.status, headers: e.headers });
  }
  const submission = parseWithZod(form, { schema: options.schema });
  if (submission.status !== "success") return json<BoardReply<Id>>({ result: submission.reply() }, { status: 422 });
  const { via, returnTo, ...schedule } = submission.value as z.output<S> & BoardFields;
  try {
    const moved = await options.move(actorOf(user), schedule as Omit<z.output<S>, "via" | "returnTo">);
    if (via === "board")
      return json<BoardReply<Id>>({
        ok: true,
        message: moved.message,
        [options.idKey]: moved[options.idKey],
      } as BoardReply<Id>);
    await setFlash(user, { message: moved.message, tone: "success" });
    return redirect(boardOrJobPage(returnTo, moved.jobId), 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    // The board's fetcher shows every refusal on the board; a page shows 403/404 as its page.
    if ((e.code === "NOT_FOUND" || e.code === "FORBIDDEN") && via !== "board")
      throw json({ message: e.message }, { status: e.status });
    const fields = e.code === "VALIDATION_FAILED" && Object.keys(e.fields).length ? e.fields : undefined;
    return json<BoardReply<Id>>(
      { result: submission.reply({ fieldErrors: fields, formErrors: fields ? undefined : [e.message] }) },
      { status: e.status },
    );
  }
}
