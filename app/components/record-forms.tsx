import { FieldErrors } from "./forms";

// Pieces the record forms (customer, quote, invoice, job) share beside forms.tsx's Field.

/** A labelled textarea whose errors are tied to it, ids `field-<name>` like Field. */
export function TextAreaField({
  name, label, errors, hint, defaultValue, rows = 4, id,
}: { name: string; label: string; errors?: string[] | null; hint?: React.ReactNode; defaultValue?: string; rows?: number; id?: string }) {
  const fieldId = id ?? `field-${name}`;
  const describedBy = [hint ? `${fieldId}-hint` : null, errors?.length ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <textarea id={fieldId} name={name} rows={rows} defaultValue={defaultValue} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy} />
      {hint ? <p id={`${fieldId}-hint`} className="field-hint">{hint}</p> : null}
      <FieldErrors id={`${fieldId}-error`} errors={errors} />
    </div>
  );
}

/** The Save / Cancel row at the foot of a record form. */
export function FormActions({ submit, cancelTo, busy }: { submit: string; cancelTo: string; busy?: boolean }) {
  return (
    <div className="form-actions">
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? "Saving…" : submit}</button>
      <a href={cancelTo} className="btn btn-secondary">Cancel</a>
    </div>
  );
}
