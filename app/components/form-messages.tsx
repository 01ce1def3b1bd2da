/** A labelled field and the messages of a form, without the form library (app/components/forms.tsx has it). */

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
