import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import { customerSchema } from "~/services/import/cells";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "./forms";
import { FormActions, TextAreaField } from "./record-forms";

/**
 * New and edit customer: the customer import's columns as fields, validated by the import's
 * own customer schema in the browser and on the server.
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
  const f = (name: string) => fieldOf(fields[name]);
  return (
    <Form method="post" {...getFormProps(form)} className="stack record-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <fieldset>
        <legend>Contact</legend>
        <div className="form-grid">
          <Field label="Name" required autoComplete="off" {...f("name")} />
          <Field label="Company" autoComplete="off" {...f("company")} />
          <Field label="Email" type="email" autoComplete="off" {...f("email")} />
          <Field label="Phone" type="tel" autoComplete="off" {...f("phone")} />
        </div>
      </fieldset>
      <fieldset>
        <legend>Address</legend>
        <div className="form-grid">
          <Field label="Street address" autoComplete="off" {...f("address_line1")} />
          <Field label="Apartment, suite, unit" autoComplete="off" {...f("address_line2")} />
          <Field label="City" autoComplete="off" {...f("city")} />
          <Field label="State or region" autoComplete="off" {...f("region")} />
          <Field label="Postal code" autoComplete="off" {...f("postal_code")} />
          <Field label="Country" autoComplete="off" {...f("country")} />
        </div>
      </fieldset>
      <fieldset>
        <legend>More</legend>
        <TextAreaField
          label="Notes"
          hint="Gate codes, pets, preferred times: anything the team should know."
          {...f("notes")}
        />
        <Field
          label="External id"
          hint="The customer's id in another system, if you keep one. Unique among your customers."
          autoComplete="off"
          {...f("external_id")}
        />
      </fieldset>
      <FormActions submit={submit} cancelTo={cancelTo} busy={busy} />
    </Form>
  );
}
