import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import { jobFormSchema } from "~/services/jobs/schemas";
import { ROLE_LABELS, type Role } from "~/utils/permissions";
import { SelectField, TextareaField, TextField } from "./conform-fields";
import { CsrfInput, FormError } from "./forms";

export type JobFormChoices = {
  customers: Array<{ id: string; label: string }>;
  members: Array<{ id: string; name: string; role: Role }>;
};

/** The job form of /jobs/new and /jobs/<id>/edit: works without JavaScript; checks as you type with it. */
export function JobForm({ lastResult, defaultValue, choices, timeZone, submitLabel, cancelTo }: {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
  choices: JobFormChoices;
  timeZone: string;
  submitLabel: string;
  cancelTo: string;
}) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "job-form",
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: jobFormSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="card narrow stack-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <SelectField meta={fields.customerId} label="Customer" placeholder="Choose a customer"
        options={choices.customers.map((c) => ({ value: c.id, label: c.label }))} />
      <TextField meta={fields.title} label="Title" hint="What the technician will do, e.g. “Replace water heater”." />
      <TextareaField meta={fields.description} label="Description" hint="Optional. Shown to the technician in the field app." />
      <TextField meta={fields.address} label="Address" hint="Leave empty to use the customer's address." />
      <div className="form-row">
        <TextField meta={fields.scheduledStart} type="datetime-local" label="Start" className="grow" />
        <TextField meta={fields.scheduledEnd} type="datetime-local" label="End" className="grow" />
      </div>
      <p className="field-hint">Times are in the business's time zone ({timeZone}). With a start, the job is scheduled; without one it waits in the unscheduled list.</p>
      <SelectField meta={fields.assigneeId} label="Technician" placeholder="Unassigned"
        options={choices.members.map((m) => ({ value: m.id, label: `${m.name} (${ROLE_LABELS[m.role]})` }))} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>{submitLabel}</button>
        <Link to={cancelTo} className="btn btn-secondary">Cancel</Link>
      </div>
    </Form>
  );
}
