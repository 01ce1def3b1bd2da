import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import type { BuilderContext } from "~/services/documents/quotes.server";
import { quoteFormSchema } from "~/services/documents/quote-form";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "./forms";
import { LineItemsEditor } from "./line-items-editor";
import { FormActions, TextAreaField } from "./record-forms";

/** The quote builder (/quotes/new, /quotes/<id>/edit): customer, details, lines, totals. */
export function QuoteForm({
  id, context, customer, defaultValue, submit, cancelTo, changeCustomerTo, action,
}: {
  /** Where the form posts (the new-quote page names its customer, so a refused form re-renders the builder). */
  action?: string;
  id: string;
  context: Pick<BuilderContext, "currency" | "taxRate" | "priceBook">;
  customer: { id: string; name: string };
  defaultValue: Record<string, unknown>;
  submit: string;
  cancelTo: string;
  changeCustomerTo?: string;
}) {
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(quoteFormSchema, { id, lastResult: reply?.result, defaultValue, shouldValidate: "onSubmit" });
  const currency = (typeof fields.currency.value === "string" && /^[A-Za-z]{3}$/.test(fields.currency.value) ? fields.currency.value.toUpperCase() : null) ?? context.currency;
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="stack record-form quote-form">
      <CsrfInput />
      <input type="hidden" name={fields.customerId.name} value={customer.id} />
      {fields.requestId.initialValue ? <input type="hidden" name={fields.requestId.name} value={String(fields.requestId.initialValue)} /> : null}
      <FormError errors={form.errors} />
      <div className="quote-customer">
        <span className="muted">Customer</span>
        <strong>{customer.name}</strong>
        {changeCustomerTo ? <Link to={changeCustomerTo} className="small">Change</Link> : null}
        {fields.customerId.errors?.length ? <span className="field-errors" id="field-customerId-error">{fields.customerId.errors.join(" ")}</span> : null}
      </div>
      <div className="form-grid">
        <Field label="Title" placeholder="e.g. Water heater replacement" autoComplete="off" {...fieldOf(fields.title)} />
        <Field label="Valid until" type="date" {...fieldOf(fields.validUntil)} />
        <Field label="Currency" maxLength={3} autoComplete="off" hint="A 3-letter code, like USD." {...fieldOf(fields.currency)} />
      </div>
      <LineItemsEditor form={form} items={fields.items} currency={currency} priceBook={context.priceBook} defaultTaxRate={context.taxRate} />
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
