import { getFormProps } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import type { z } from "zod";
import type { FormReply } from "~/http/conform.server";
import type { Requirement } from "~/services/integrations/accounting";
import { formatDateTime } from "~/utils/format";
import { CsrfInput, FieldErrors, FormError, useConformForm } from "./forms";

/**
 * A settings page's conform form: the area's schema (shared with the action), the stored
 * preferences as defaults, the action's answer as the last result. `values`, `checked` and
 * `errorsFor` read conform's state: what was typed when a save was refused, else what is stored.
 */
export function useSettingsForm(
  schema: z.ZodTypeAny,
  data: SettingsPageData & { form: Record<string, string> },
  area: string,
  /** A page with a second form tells its answers apart: replies this returns false for are not this form's. */
  isOwnReply: (reply: FormReply) => boolean = () => true,
) {
  const answer = useActionData<FormReply>();
  const reply = answer && isOwnReply(answer) ? answer : undefined;
  // A new id after each save resets the form to what was stored.
  const [form] = useConformForm(schema, {
    id: `${area}-settings-${data.updatedAt ?? "defaults"}`,
    lastResult: reply?.result,
    defaultValue: data.form,
  });
  const values = (form.initialValue ?? {}) as Record<string, string | undefined>;
  return {
    form,
    values,
    checked: (name: string) => ["on", "true", "1", "yes"].includes((values[name] ?? "").toLowerCase()),
    errorsFor: (name: string) => form.allErrors[name],
  };
}

export type SettingsForm = ReturnType<typeof useSettingsForm>;

/**
 * The form-level alert of a refused save: the summary, plus messages for fields the page
 * does not render (a posted `client_secret` on the calendar page has no input to sit beside).
 */
export function SettingsFormErrors({ form, placed }: { form: SettingsForm["form"]; placed: readonly string[] }) {
  const unplaced = Object.entries(form.allErrors)
    .filter(([name]) => name !== "" && !placed.includes(name))
    .flatMap(([name, messages]) => messages.map((m) => `${name}: ${m}`));
  return <FormError errors={[...(form.errors ?? []), ...unplaced]} />;
}

/** For roles that may look but not change (office on the calendar page). */
export function ReadOnlyNote() {
  return (
    <div className="alert alert-info" role="note">
      <p>You can view these settings, but only an owner or admin can change them.</p>
    </div>
  );
}

export function LastSaved({
  updatedAt,
  by,
  timeZone,
}: {
  updatedAt: string | null;
  by: string | null;
  timeZone: string;
}) {
  if (!updatedAt) return <p className="muted small">Using the default settings: nothing has been saved yet.</p>;
  return (
    <p className="muted small">
      Last saved {formatDateTime(updatedAt, timeZone)}
      {by ? ` by ${by}` : ""}.
    </p>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className="badge badge-muted status-badge">{status}</span>;
}

/** A connect button that cannot be used yet, with the reason tied to it for screen readers. */
export function ConnectControl({ id, name, reason }: { id: string; name: string; reason: string }) {
  const reasonId = `${id}-connect-reason`;
  return (
    <div className="connect-control">
      <button type="button" className="btn btn-secondary btn-sm" disabled aria-describedby={reasonId}>
        Connect {name}
      </button>
      <p id={reasonId} className="field-hint">
        {reason}
      </p>
    </div>
  );
}

export function Requirements({
  items,
  title = "Needed before connecting",
}: {
  items: readonly Requirement[];
  title?: string;
}) {
  return (
    <div className="requirements">
      <h4>{title}</h4>
      <ul>
        {items.map((r) => (
          <li key={r.kind + r.text}>{r.text}</li>
        ))}
      </ul>
    </div>
  );
}

export type Option = { value: string; label: string };

export function SelectField({
  name,
  label,
  options,
  groups,
  value,
  errors,
  hint,
  id,
}: {
  name: string;
  label: string;
  options?: readonly Option[];
  groups?: ReadonlyArray<{ label: string; options: readonly Option[] }>;
  value?: string;
  errors?: string[];
  hint?: React.ReactNode;
  id?: string;
}) {
  const fieldId = id ?? `field-${name}`;
  const describedBy =
    [hint ? `${fieldId}-hint` : null, errors?.length ? `${fieldId}-error` : null].filter(Boolean).join(" ") ||
    undefined;
  const render = (o: Option) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  );
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <select
        id={fieldId}
        name={name}
        defaultValue={value}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
      >
        {options?.map(render)}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map(render)}
          </optgroup>
        ))}
      </select>
      {hint ? (
        <p id={`${fieldId}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${fieldId}-error`} errors={errors} />
    </div>
  );
}

export function CheckboxField({
  name,
  label,
  hint,
  checked,
  errors,
}: {
  name: string;
  label: string;
  hint?: string;
  checked: boolean;
  errors?: string[];
}) {
  const id = `field-${name}`;
  const describedBy =
    [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label className="checkbox" htmlFor={id}>
        <input
          type="checkbox"
          id={id}
          name={name}
          defaultChecked={checked}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy}
        />
        <span>
          {label}
          {hint ? (
            <span id={`${id}-hint`} className="field-hint checkbox-hint">
              {hint}
            </span>
          ) : null}
        </span>
      </label>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function RadioGroup({
  name,
  legend,
  options,
  value,
  errors,
}: {
  name: string;
  legend: string;
  options: readonly Option[];
  value?: string;
  errors?: string[];
}) {
  // Each radio carries the group's error, so it is read out whichever option has focus.
  const errorId = errors?.length ? `field-${name}-error` : undefined;
  return (
    <fieldset
      className={`radio-group${errors?.length ? " field-invalid" : ""}`}
      role="radiogroup"
      aria-invalid={errorId ? true : undefined}
    >
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="checkbox">
          <input
            type="radio"
            name={name}
            value={o.value}
            defaultChecked={value === o.value}
            aria-describedby={errorId}
          />
          <span>{o.label}</span>
        </label>
      ))}
      <FieldErrors id={`field-${name}-error`} errors={errors} />
    </fieldset>
  );
}

/** The save row: a button for those who may save, nothing for read-only viewers. */
export function SaveRow({ canManage, busy, label }: { canManage: boolean; busy: boolean; label: string }) {
  if (!canManage) return null;
  return (
    <div className="save-row">
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? "Saving…" : label}
      </button>
    </div>
  );
}

/** What settingsPageLoader (app/http/settings-form.server.ts) gives every settings page. */
export type SettingsPageData = {
  updatedAt: string | null;
  updatedByName: string | null;
  canManage: boolean;
  timeZone: string;
};

/**
 * The card of a settings page's preferences form: title with when it was last saved, the
 * read-only note for roles that cannot change it, the form (CSRF, the errors of fields not
 * placed beside a field, a fieldset disabled for them) and its save button. `children` go in
 * the form's grid; `after` below it, outside the fieldset.
 */
export function PrefsCard({
  title,
  data,
  form,
  placed,
  busy,
  children,
  after,
}: {
  title: string;
  data: SettingsPageData;
  form: SettingsForm["form"];
  placed: readonly string[];
  busy: boolean;
  children: React.ReactNode;
  after?: React.ReactNode;
}) {
  return (
    <section className="card" aria-labelledby="prefs-title">
      <div className="card-header">
        <h2 id="prefs-title">{title}</h2>
        <LastSaved updatedAt={data.updatedAt} by={data.updatedByName} timeZone={data.timeZone} />
      </div>
      {data.canManage ? null : <ReadOnlyNote />}
      <Form method="post" {...getFormProps(form)} key={form.id}>
        <CsrfInput />
        <SettingsFormErrors form={form} placed={placed} />
        <fieldset className="settings-fieldset" disabled={!data.canManage}>
          <div className="settings-form-grid">{children}</div>
        </fieldset>
        {after}
        <SaveRow canManage={data.canManage} busy={busy} label="Save preferences" />
      </Form>
    </section>
  );
}
