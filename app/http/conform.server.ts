import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import { LIMITS, readForm } from "./body.server";
import { assertCsrf } from "./csrf.server";
import { toAppError } from "./envelope.server";

/**
 * A staff form on conform: reads the body under the form limit, checks CSRF, parses with the
 * form's zod schema and runs `fn` with the value. Bad fields answer conform's reply (422, the
 * typed values kept, each message beside its field); a service's AppError becomes the same
 * reply with its field errors (422) or a message above the form (409 and the rest). A missing
 * or foreign id, a missing permission and a bad CSRF token answer their error page.
 */
export async function conformAction<S extends z.ZodTypeAny>(
  request: Request,
  schema: S,
  fn: (value: z.output<S>, form: FormData) => Promise<Response>,
): Promise<Response> {
  let form: FormData;
  try {
    form = await readForm(request, LIMITS.form);
    await assertCsrf(request, form);
  } catch (error) {
    const e = toAppError(error, request);
    throw json({ message: e.message }, { status: e.status, headers: e.headers });
  }
  const submission = parseWithZod(form, { schema });
  // An intent (add or remove a line without JavaScript) re-renders the form, nothing saved.
  if (submission.status !== "success") return json(submission.reply(), { status: submission.status === "error" ? 422 : 200 });
  try {
    return await fn(submission.value, form);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    if (e.code === "CSRF_INVALID" || e.code === "FORBIDDEN" || e.code === "NOT_FOUND" || e.status >= 500) {
      throw json({ message: e.message }, { status: e.status, headers: e.headers });
    }
    const fields = Object.keys(e.fields).length ? e.fields : undefined;
    return json(submission.reply({ fieldErrors: fields, formErrors: fields ? undefined : [e.message] }), { status: e.status, headers: e.headers });
  }
}
