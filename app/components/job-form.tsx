import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { jobFormSchema } from "~/services/jobs/schemas";
import { ROLE_LABELS, type Role } from "~/utils/permissions";
import { SelectField, TextareaField, TextField } from "./conform-fields";
import { CsrfInput, FormError } from "./forms";
import { RepeatFields } from "./repeat-fields";

type PropertyChoice = { id: string; label: string };

export type JobFormChoices = {
  customers: Array<{ id: string; label: string }>;
  members: Array<{ id: string; name: string; role: Role }>;
  /** The service properties of `propertiesOf`, the customer chosen in advance (docs/decisions/221). */
  properties: PropertyChoice[];
  propertiesOf: string | null;
};

/**
 * The chosen customer's service properties. The page lists those of the customer chosen in
 * advance (the job's, or the one the page was opened for), with JavaScript off too; with it on,
 * choosing another customer loads that customer's list (the new-job page's loader, which the
 * same permission guards). Another customer's list is never shown for the chosen one.
 */
function useCustomerProperties(
  customerId: string,
  choices: JobFormChoices,
): { list: PropertyChoice[]; known: boolean } {
  const fetcher = useFetcher<{ choices: Pick<JobFormChoices, "properties" | "propertiesOf"> }>();
  const own = customerId !== "" && customerId === choices.propertiesOf;
  const loaded = fetcher.data?.choices.propertiesOf === customerId ? fetcher.data.choices.properties : null;
  const { load } = fetcher;
  useEffect(() => {
    if (customerId && !own) load(`/jobs/new?customerId=${encodeURIComponent(customerId)}`);
  }, [customerId, own, load]);
  if (!customerId) return { list: [], known: false };
  return own ? { list: choices.properties, known: true } : { list: loaded ?? [], known: loaded !== null };
}

/** The job form of /jobs/new and /jobs/<id>/edit: works without JavaScript; checks as you type with it. */
export function JobForm({
  lastResult,
  defaultValue,
  choices,
  timeZone,
  submitLabel,
  cancelTo,
  series,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: Record<string, string>;
  choices: JobFormChoices;
  timeZone: string;
  submitLabel: string;
  cancelTo: string;
  /** The job's series, described, when it repeats (its visits are changed one by one). */
  series?: string | null;
}) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "job-form",
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: jobFormSchema }),
  });
  const properties = useCustomerProperties(String(fields.customerId.value ?? ""), choices);
  return (
    <Form method="post" {...getFormProps(form)} className="card narrow stack-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <SelectField
        meta={fields.customerId}
        label="Customer"
        placeholder="Choose a customer"
        options={choices.customers.map((c) => ({ value: c.id, label: c.label }))}
      />
      <TextField meta={fields.title} label="Title" hint="What the technician will do, e.g. “Replace water heater”." />
      <TextareaField
        meta={fields.description}
        label="Description"
        hint="Optional. Shown to the technician in the field app."
      />
      <TextareaField
        meta={fields.checklist}
        label="Checklist"
        rows={4}
        hint="Optional. One item per line; the technician ticks them in the field app. Whether every item must be ticked before completing is a company setting."
      />
      <SelectField
        key={`property-${String(fields.customerId.value ?? "")}`}
        meta={fields.propertyId}
        label="Service property"
        placeholder="None: the customer's own address"
        options={properties.list.map((p) => ({ value: p.id, label: p.label }))}
        hint={
          properties.known
            ? properties.list.length
              ? "Where the work happens, if the customer has several places."
              : "This customer has no service properties (add them on the customer's page)."
            : "The customer's properties are listed once the customer is chosen (without JavaScript: save the job, then edit it to choose one)."
        }
      />
      <TextField
        meta={fields.address}
        label="Address"
        hint="Leave empty to use the property's or the customer's address."
      />
      <div className="form-row">
        <TextField meta={fields.scheduledStart} type="datetime-local" label="Start" className="grow" />
        <TextField meta={fields.scheduledEnd} type="datetime-local" label="End" className="grow" />
      </div>
      <p className="field-hint">
        Times are in the business's time zone ({timeZone}). With a start, the job is scheduled; without one it waits in
        the unscheduled list.
      </p>
      <SelectField
        meta={fields.assigneeId}
        label="Technician"
        placeholder="Unassigned"
        options={choices.members.map((m) => ({ value: m.id, label: `${m.name} (${ROLE_LABELS[m.role]})` }))}
      />
      <RepeatFields fields={fields} start={String(fields.scheduledStart.value ?? "")} series={series} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submitLabel}
        </button>
        <Link to={cancelTo} className="btn btn-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
