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

export type FieldProps = {
  name: string;
  label: string;
  errors?: string[] | null;
  hint?: React.ReactNode;
  id?: string;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name" | "id">;

/** A labelled input whose errors are tied to it (aria-invalid, aria-describedby) and shown beside it. */
export function Field({ name, label, errors, hint, id, ...input }: FieldProps) {
  const fieldId = id ?? `field-${name}`;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/**
 * A field's messages, shown beside it. The list keeps its list semantics (an `alert` role on
 * the <ul> itself would hide them); the wrapper is the live region that announces a message
 * that appears without a page load. The field names the list's id in aria-describedby.
 */
export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <div role="alert">
      <ul id={id} className="field-errors">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

/** A message for the whole form (shown above the fields). */
export function FormError({ errors }: { errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <div className="alert alert-error" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
