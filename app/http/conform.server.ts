import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod, unstable_coerceFormValue as coerceFormValue } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { z } from "zod";
import type { AppError } from "~/utils/app-error";
import { assertNoNul, LIMITS, readForm } from "./body.server";
import { assertCsrf, CSRF_FIELD } from "./csrf.server";
import { toAppError } from "./envelope.server";
import { assertNotSpam } from "~/utils/honeypot.server";

// The server half of every conform form (the browser half is `useConformForm` in
// app/components/forms.tsx). One zod schema per form, shared by both:
//
//   export const action = ({ request }) =>
//     formAction(request, mySchema, async (value) => {
//       await doTheThing(actorOf(user), value);
//       return redirect("/somewhere", { status: 303 });
//     });
//
//   const [form, fields] = useConformForm(mySchema, { id: "my-form", lastResult: useActionData<FormReply>()?.result });
//
// A refused form answers `{ result: submission.reply() }` (422 for bad fields, or the
// AppError's status: 409 wrong state ...), which puts each message beside its field and keeps
// what was typed, with JavaScript on or off.

/** What a conform form action answers when the form is refused; pages read it with useActionData. */
export type FormReply = { result: SubmissionResult<string[]> };

/** A field error list keyed by field name ("" is the whole form), as AppError carries them. */
type Errors = Record<string, string[]>;

type ReplyOptions = {
  status?: number;
  formErrors?: string[];
  fieldErrors?: Errors;
  /** Fields never echoed back (passwords, anything secret); `_csrf` always is. */
  hideFields?: string[];
  headers?: HeadersInit;
};

/** The refused form's answer: errors beside the fields, the typed values kept, status 422 unless said. */
export function replyWith(submission: Submission<unknown>, opts: ReplyOptions = {}) {
  const result = submission.reply({
    ...(opts.formErrors || opts.fieldErrors
      ? { formErrors: opts.formErrors ?? [], fieldErrors: opts.fieldErrors ?? {} }
      : {}),
    hideFields: [CSRF_FIELD, ...(opts.hideFields ?? [])],
  });
  return json<FormReply>(
    { result },
    { status: opts.status ?? (submission.status === "error" ? 422 : 200), headers: opts.headers },
  );
}

/**
 * A service's AppError as the form's answer: its field messages beside the fields (`_form`
 * and fields with no input go to the form), its message on the form when it named no field,
 * its status (422, 409 ...).
 */
export function replyWithError(
  submission: Submission<unknown>,
  error: AppError,
  opts: Omit<ReplyOptions, "status" | "formErrors" | "fieldErrors"> = {},
) {
  const { _form = [], ...fieldErrors } = error.fields;
  const hasFields = Object.keys(fieldErrors).length > 0;
  return replyWith(submission, {
    ...opts,
    status: error.status,
    formErrors: [...(hasFields && error.code === "VALIDATION_FAILED" ? [] : [error.message]), ..._form],
    fieldErrors,
    headers: { ...error.headers, ...Object.fromEntries(new Headers(opts.headers)) },
  });
}

/** A form-level answer when there is no submission to reply to (the body could not be read). */
function replyUnread(error: AppError) {
  const fields = Object.keys(error.fields).length > 0;
  const result: SubmissionResult<string[]> = {
    status: "error",
    initialValue: {},
    error: fields ? { ...error.fields } : { "": [error.message] },
  };
  return json<FormReply>({ result }, { status: error.status, headers: error.headers });
}

/** The errors that are a page of their own, not a message on the form (nothing was changed). */
function throwIfPage(e: AppError) {
  if (e.code === "CSRF_INVALID" || e.code === "FORBIDDEN" || e.code === "NOT_FOUND") {
    throw json({ message: e.message }, { status: e.status, headers: e.headers });
  }
}

/** Reads a form body under the form limit and, for staff forms, checks `_csrf` (else the 403 page). */
export async function readStaffForm(
  request: Request,
  opts: { limit?: number; csrf?: boolean } = {},
): Promise<FormData> {
  const form = await readForm(request, opts.limit ?? LIMITS.form);
  if (opts.csrf !== false) await assertCsrf(request, form);
  assertNoNul(form);
  return form;
}

export type FormActionOptions = {
  limit?: number;
  /** Staff forms carry `_csrf` (default); the portal's signed token is its own credential. */
  csrf?: boolean;
  /** Fields never echoed back; a function when they depend on what was posted. */
  hideFields?: string[] | ((form: FormData) => string[]);
  /** A message above the fields when the schema refuses the form ("Nothing was saved ..."). */
  formMessage?: string;
  /** Forms anyone may post (signup, login, booking): a filled honeypot is 400, before anything. */
  honeypot?: boolean;
};

// conform builds a coerced copy of the schema (empty strings to undefined, text to numbers)
// on every parse, the whole form's schema anew: for a quote of 10 lines that was half the
// parse's CPU (docs/decisions/450). The copy depends only on the schema, so it is made once
// per schema object.
const COERCED = new WeakMap<z.ZodTypeAny, z.ZodTypeAny>();
export function coercedOnce<S extends z.ZodTypeAny>(schema: S): S {
  let coerced = COERCED.get(schema);
  if (!coerced) {
    coerced = coerceFormValue(schema) as unknown as z.ZodTypeAny;
    COERCED.set(schema, coerced);
  }
  return coerced as S;
}

/**
 * A conform form action: reads the body (limit, CSRF), parses it with the form's schema (the
 * same one the browser validates with), answers 422 with the errors beside the fields, or runs
 * `handle` with the parsed value. An AppError thrown by `handle` (the service said no) becomes
 * the form's answer with its status; a CSRF failure, 403 or 404 is the error page.
 * A conform intent (add / remove a line) answers the updated form with 200 and changes nothing.
 */
export async function formAction<S extends z.ZodTypeAny>(
  request: Request,
  schema: S | ((form: FormData) => S | Promise<S>),
  handle: (value: z.output<S>, ctx: { form: FormData; submission: Submission<z.output<S>> }) => Promise<Response>,
  opts: FormActionOptions = {},
): Promise<Response> {
  let form: FormData;
  try {
    form = await readStaffForm(request, opts);
    if (opts.honeypot) assertNotSpam(form);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    throwIfPage(e);
    return replyUnread(e);
  }
  const hideFields = typeof opts.hideFields === "function" ? opts.hideFields(form) : opts.hideFields;
  const resolved = typeof schema === "function" ? await schema(form) : schema;
  const submission = parseWithZod(form, { schema: coercedOnce(resolved), disableAutoCoercion: true });
  if (submission.status !== "success") {
    const formErrors =
      opts.formMessage && submission.status === "error"
        ? [opts.formMessage, ...(submission.error?.[""] ?? [])]
        : undefined;
    return replyWith(submission, { hideFields, ...(formErrors ? { formErrors, fieldErrors: {} } : {}) });
  }
  try {
    return await handle(submission.value, { form, submission });
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    throwIfPage(e);
    return replyWithError(submission, e, { hideFields });
  }
}
