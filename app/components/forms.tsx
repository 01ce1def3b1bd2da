import { useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";

/**
 * The browser half of a conform form (the server half is `formAction` in
 * app/http/conform.server.ts): the same zod schema validates on blur and on submit, and the
 * server's answer (`lastResult`, from useActionData) puts its errors beside the fields and keeps
 * what was typed. Spread `getFormProps(form)` on a plain `<Form method="post">`, so the form
 * posts the same way with JavaScript off.
 */
export function useConformForm<S extends z.ZodTypeAny>(
  schema: S,
  opts: {
    id: string;
    lastResult?: SubmissionResult<string[]> | null;
    defaultValue?: Record<string, unknown>;
    /** Browser-side validation off: for forms whose schema needs server state. */
    serverOnly?: boolean;
    /**
     * When a field is first checked: on submit (then again as it is typed). Not on blur: the
     * message appearing as the last field loses focus moves the submit button away from under
     * the pointer before the click lands, so the first click only showed that field's error
     * (docs/decisions/350-every-error-on-the-first-submit.md).
     */
    shouldValidate?: "onBlur" | "onSubmit";
  },
) {
  return useForm<z.input<S> & Record<string, unknown>, z.output<S>>({
    id: opts.id,
    lastResult: opts.lastResult ?? undefined,
    defaultValue: opts.defaultValue as never,
    shouldValidate: opts.shouldValidate ?? "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: opts.serverOnly ? undefined : ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/**
 * What our labelled inputs need from a conform field: its name, the value to show (what was
 * typed when the form came back refused, else the default) and its messages. Ids stay
 * `field-<name>` so labels, hints and errors are tied the same way on every page.
 */
export function fieldOf(meta: FieldMetadata<unknown, Record<string, unknown>, string[]>) {
  const initial = meta.initialValue;
  return {
    name: meta.name,
    defaultValue: typeof initial === "string" ? initial : undefined,
    errors: meta.errors,
  };
}

/** A checkbox's state from its conform field. */
export const checkedOf = (meta: FieldMetadata<unknown, Record<string, unknown>, string[]>) =>
  typeof meta.initialValue === "string" && ["on", "true", "1", "yes"].includes(meta.initialValue.toLowerCase());

export { CsrfInput } from "./csrf-input";

// The messages and the plain field have their own module (no form library): a page that only shows
// them, such as the field app, does not download conform.
export { Field, FieldErrors, FormError, type FieldProps } from "./form-messages";
