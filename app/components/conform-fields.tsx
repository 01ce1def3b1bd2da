import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { FieldErrors } from "./forms";

// Labelled controls for conform forms: the error list sits beside its field and is named by the
// control's aria-describedby (conform's errorId), with a hint when there is one.

type Common = { meta: FieldMetadata<string | undefined>; label: string; hint?: React.ReactNode; className?: string };

/** The hint's id; conform adds the error list's id itself when the field has errors. */
function describedBy(meta: FieldMetadata<string | undefined>, hint: boolean) {
  return hint ? `${meta.id}-hint` : undefined;
}

function Wrap({ meta, label, hint, className, children }: Common & { children: React.ReactNode }) {
  return (
    <div className={`field${meta.errors?.length ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${meta.id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function TextField({
  type = "text",
  input,
  ...p
}: Common & {
  type?: "text" | "email" | "tel" | "date" | "datetime-local" | "number";
  input?: React.InputHTMLAttributes<HTMLInputElement>;
}) {
  return (
    <Wrap {...p}>
      <input {...getInputProps(p.meta, { type, ariaDescribedBy: describedBy(p.meta, !!p.hint) })} {...input} />
    </Wrap>
  );
}

export function TextareaField({ rows = 4, ...p }: Common & { rows?: number }) {
  return (
    <Wrap {...p}>
      <textarea {...getTextareaProps(p.meta, { ariaDescribedBy: describedBy(p.meta, !!p.hint) })} rows={rows} />
    </Wrap>
  );
}

export function SelectField({
  options,
  placeholder,
  ...p
}: Common & { options: Array<{ value: string; label: string }>; placeholder?: string }) {
  return (
    <Wrap {...p}>
      <select {...getSelectProps(p.meta, { ariaDescribedBy: describedBy(p.meta, !!p.hint) })}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Wrap>
  );
}
