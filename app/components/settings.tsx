import { Form } from "@remix-run/react";
import type { Requirement } from "~/services/integrations/accounting";
import { formatDateTime } from "~/utils/format";
import { CsrfInput, FieldErrors, FormError } from "./forms";

/** What a settings page's action answers on a refused save (see app/http/settings-form.server.ts). */
export type SettingsFailure = { ok: false; formErrors: string[]; fields: Record<string, string[]>; values?: Record<string, string> };

/**
 * The values a settings form shows: what was just posted when the save was refused, else
 * what is stored. `errorsFor` gives a field's messages.
 */
export function settingsFormState(stored: Record<string, string>, failure: SettingsFailure | undefined) {
  const values = failure?.values ?? stored;
  const fields = failure?.fields ?? {};
  return {
    values,
    checked: (name: string) => ["on", "true", "1", "yes"].includes((values[name] ?? "").toLowerCase()),
    errorsFor: (name: string) => fields[name],
  };
}

/**
 * The form-level alert of a refused save: the summary, plus messages for fields the page
 * does not render (a posted `client_secret` on the calendar page has no input to sit beside).
 */
export function SettingsFormErrors({ failure, placed }: { failure: SettingsFailure | undefined; placed: readonly string[] }) {
  if (!failure) return null;
  const unplaced = Object.entries(failure.fields)
    .filter(([name]) => !placed.includes(name))
    .flatMap(([name, messages]) => messages.map((m) => `${name}: ${m}`));
  return <FormError errors={[...failure.formErrors, ...unplaced]} />;
}

/** For roles that may look but not change (office on the calendar page). */
export function ReadOnlyNote() {
  return (
    <div className="alert alert-info" role="note">
      <p>You can view these settings, but only an owner or admin can change them.</p>
    </div>
  );
}

export function LastSaved({ updatedAt, by, timeZone }: { updatedAt: string | null; by: string | null; timeZone: string }) {
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
      <p id={reasonId} className="field-hint">{reason}</p>
    </div>
  );
}

export function Requirements({ items, title = "Needed before connecting" }: { items: readonly Requirement[]; title?: string }) {
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
  name, label, options, groups, value, errors, hint, id,
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
  const describedBy = [hint ? `${fieldId}-hint` : null, errors?.length ? `${fieldId}-error` : null].filter(Boolean).join(" ") || undefined;
  const render = (o: Option) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  );
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <select id={fieldId} name={name} defaultValue={value} aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy}>
        {options?.map(render)}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map(render)}
          </optgroup>
        ))}
      </select>
      {hint ? <p id={`${fieldId}-hint`} className="field-hint">{hint}</p> : null}
      <FieldErrors id={`${fieldId}-error`} errors={errors} />
    </div>
  );
}

export function CheckboxField({
  name, label, hint, checked, errors,
}: { name: string; label: string; hint?: string; checked: boolean; errors?: string[] }) {
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${errors?.length ? " field-invalid" : ""}`}>
      <label className="checkbox" htmlFor={id}>
        <input
          type="checkbox" id={id} name={name} defaultChecked={checked}
          aria-invalid={errors?.length ? true : undefined} aria-describedby={describedBy}
        />
        <span>
          {label}
          {hint ? <span id={`${id}-hint`} className="field-hint checkbox-hint">{hint}</span> : null}
        </span>
      </label>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function RadioGroup({
  name, legend, options, value, errors,
}: { name: string; legend: string; options: readonly Option[]; value?: string; errors?: string[] }) {
  // Each radio carries the group's error, so it is read out whichever option has focus.
  const errorId = errors?.length ? `field-${name}-error` : undefined;
  return (
    <fieldset className={`radio-group${errors?.length ? " field-invalid" : ""}`}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="checkbox">
          <input
            type="radio" name={name} value={o.value} defaultChecked={value === o.value}
            aria-invalid={errorId ? true : undefined} aria-describedby={errorId}
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
  title, data, failure, placed, busy, children, after,
}: {
  title: string;
  data: SettingsPageData;
  failure: SettingsFailure | undefined;
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
      <Form method="post" noValidate key={data.updatedAt ?? "defaults"}>
        <CsrfInput />
        <SettingsFormErrors failure={failure} placed={placed} />
        <fieldset className="settings-fieldset" disabled={!data.canManage}>
          <div className="settings-form-grid">{children}</div>
        </fieldset>
        {after}
        <SaveRow canManage={data.canManage} busy={busy} label="Save preferences" />
      </Form>
    </section>
  );
}
