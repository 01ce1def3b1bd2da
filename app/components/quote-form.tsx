import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import type { BuilderContext } from "~/services/quotes/quotes.server";
import { quoteFormSchema } from "~/services/quotes/quote-form";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "./forms";
import { LineItemsEditor } from "./line-items-editor";
import { SelectField } from "./conform-fields";
import { DocumentCustomer, FormActions, formCurrency, TextAreaField, type DocumentFormProps } from "./record-forms";

/** The quote builder (/quotes/new, /quotes/<id>/edit): customer, details, lines, totals. */
export function QuoteForm({
  id,
  context,
  customer,
  defaultValue,
  submit,
  cancelTo,
  changeCustomerTo,
  action,
  properties = [],
}: DocumentFormProps<
  Pick<BuilderContext, "currency" | "taxRate" | "priceBook" | "taxRateId" | "rateBook" | "taxChoices">
> & {
  /** The customer's service properties: where the work is, carried to the job. */
  properties?: Array<{ id: string; label: string }>;
}) {
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(quoteFormSchema, {
    id,
    lastResult: reply?.result,
    defaultValue,
    shouldValidate: "onSubmit",
  });
  const currency = formCurrency(fields.currency.value, context.currency);
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="stack record-form quote-form">
      <CsrfInput />
      {fields.requestId.initialValue ? (
        <input type="hidden" name={fields.requestId.name} value={String(fields.requestId.initialValue)} />
      ) : null}
      <FormError errors={form.errors} />
      <DocumentCustomer
        name={fields.customerId.name}
        customer={customer}
        changeCustomerTo={changeCustomerTo}
        errors={fields.customerId.errors}
      />
      <div className="form-grid">
        <Field
          label="Title"
          placeholder="e.g. Water heater replacement"
          autoComplete="off"
          {...fieldOf(fields.title)}
        />
        <Field label="Valid until" type="date" {...fieldOf(fields.validUntil)} />
        <Field
          label="Currency"
          maxLength={3}
          autoComplete="off"
          hint="A 3-letter code, like USD."
          {...fieldOf(fields.currency)}
        />
      </div>
      {properties.length || fields.propertyId.initialValue ? (
        <SelectField
          meta={fields.propertyId}
          label="Service property"
          placeholder="None: the customer's own address"
          options={properties.map((p) => ({ value: p.id, label: p.label }))}
          hint="Where the work happens; the job made from this quote names it too."
        />
      ) : null}
      <LineItemsEditor
        form={form}
        items={fields.items}
        currency={currency}
        priceBook={context.priceBook}
        defaultTaxRate={context.taxRate}
        taxes={{ book: context.rateBook, choices: context.taxChoices, defaultId: context.taxRateId }}
        discount={{ type: fields.discountType, value: fields.discountValue }}
      />
      <TextAreaField label="Notes for the customer" rows={3} {...fieldOf(fields.notes)} />
      <Field
        label="Deposit on approval"
        placeholder="e.g. 25% or 150.00"
        autoComplete="off"
        hint="Optional. A percent of the total the customer chooses, or an amount. The customer pays it when approving in the portal (sandbox: no money moves)."
        {...fieldOf(fields.deposit)}
      />
      <FormActions submit={submit} cancelTo={cancelTo} busy={busy} />
    </Form>
  );
}
