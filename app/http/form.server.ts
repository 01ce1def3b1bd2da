import { json } from "@remix-run/node";
import type { z } from "zod";
import { validationFailed, type FieldErrors } from "~/utils/app-error";
import { assertNoNul, LIMITS, readForm } from "./body.server";
import { assertCsrf } from "./csrf.server";
import { toAppError, zodFields } from "./envelope.server";

/** What an HTML form action answers on failure; pages read it with useActionData. */
export type FormFailure = { ok: false; formErrors: string[]; fields: FieldErrors; values?: Record<string, string> };

/** The form's text values, echoed back so a failed form keeps what was typed (never passwords). */
export function echoValues(form: FormData, omit: string[] = ["password", "_csrf"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === "string" && !omit.includes(k)) out[k] = v;
  return out;
}

/** Parses with a zod schema or throws VALIDATION_FAILED with per-field messages. */
export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(zodFields(result.error));
  return result.data;
}

export const formObject = (form: FormData) => Object.fromEntries([...form].filter(([, v]) => typeof v === "string"));

/**
 * A staff form action: reads the body under the form limit, checks CSRF (403 page, nothing
 * changed), runs `fn`, and turns AppErrors into a form failure with the right status.
 */
export async function staffFormAction(
  request: Request,
  fn: (form: FormData) => Promise<Response>,
  opts: { limit?: number; csrf?: boolean } = {},
): Promise<Response> {
  let form: FormData | undefined;
  try {
    form = await readForm(request, opts.limit ?? LIMITS.form);
    if (opts.csrf !== false) await assertCsrf(request, form);
    assertNoNul(form);
    return await fn(form);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    if (e.code === "CSRF_INVALID" || e.code === "FORBIDDEN" || e.code === "NOT_FOUND") {
      throw json({ message: e.message }, { status: e.status, headers: e.headers });
    }
    const body: FormFailure = {
      ok: false,
      formErrors: e.code === "VALIDATION_FAILED" && Object.keys(e.fields).length ? [] : [e.message],
      fields: e.fields,
      values: form ? echoValues(form) : undefined,
    };
    return json(body, { status: e.status, headers: e.headers });
  }
}
