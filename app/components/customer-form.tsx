import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import { CUSTOMER_FIELDS, type CustomerField } from "~/services/customers/fields";
import { customerSchema } from "~/services/customers/schema";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "./forms";
import { FormActions, TextAreaField } from "./record-forms";
import { CheckboxField } from "./settings";

/** Each field's label and whether it is required, by form name (the field list's CSV name). */
const FIELDS = new Map<string, { label: string; required?: boolean }>(CUSTOMER_FIELDS.map((f) => [f.csv, f]));

/**
 * New and edit customer: the customer field list's fields, laid out here, validated by the
 * customer schema (the import's) in the browser and on the server.
 */
export function CustomerForm({
  id,
  defaultValue,
  submit,
  cancelTo,
}: {
  id: string;
  defaultValue?: Record<string, string>;
  submit: string;
  cancelTo: string;
}) {
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(customerSchema, { id, lastResult: reply?.result, defaultValue });
  const f = (name: CustomerField["csv"]) => ({
    label: FIELDS.get(name)!.label,
    required: FIELDS.get(name)!.required,
    ...fieldOf(fields[name]),
  });
  const exempt = f("tax_exempt");
  return (
    <Form method="post" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <fieldset>
        <legend>Contact</legend>
        <div className="form-grid">
          <Field autoComplete="off" {...f("name")} />
          <Field autoComplete="off" {...f("company")} />
          <Field type="email" autoComplete="off" {...f("email")} />
          <Field type="tel" autoComplete="off" {...f("phone")} />
        </div>
      </fieldset>
      <fieldset>
        <legend>Address</legend>
        <div className="form-grid">
          <Field autoComplete="off" {...f("address_line1")} />
          <Field autoComplete="off" {...f("address_line2")} />
          <Field autoComplete="off" {...f("city")} />
          <Field autoComplete="off" {...f("region")} />
          <Field autoComplete="off" {...f("postal_code")} />
          <Field autoComplete="off" {...f("country")} />
        </div>
      </fieldset>
      <fieldset>
        <legend>More</legend>
        <TextAreaField hint="Gate codes, pets, preferred times: anything the team should know." {...f("notes")} />
        <Field
          hint="The customer's id in another system, if you keep one. Unique among your customers."
          autoComplete="off"
          {...f("external_id")}
        />
      </fieldset>
      <fieldset>
        <legend>Sales tax</legend>
        <CheckboxField
          name={exempt.name}
          label={exempt.label}
          hint="Their new quotes and invoices carry no tax and say why."
          checked={["on", "true", "yes"].includes(String(fields.tax_exempt.initialValue ?? ""))}
          errors={exempt.errors}
        />
        <Field
          hint="Shown on their documents, like “Church (certificate 12-345)”."
          autoComplete="off"
          {...f("tax_exempt_reason")}
        />
      </fieldset>
      <FormActions submit={submit} cancelTo={cancelTo} busy={busy} />
    </Form>
  );
}
