import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import type { InvoiceFormContext } from "~/services/invoices/invoices.server";
import { invoiceFormSchema } from "~/services/invoices/schemas";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "./forms";
import { LineItemsEditor } from "./line-items-editor";
import { DocumentCustomer, FormActions, formCurrency, TextAreaField, type DocumentFormProps } from "./record-forms";

/** The invoice form (/invoices/new, /invoices/<id>/edit): the quote builder's shape, with issue and due dates. */
export function InvoiceForm({
  id,
  context,
  customer,
  defaultValue,
  submit,
  cancelTo,
  changeCustomerTo,
  action,
}: DocumentFormProps<
  Pick<
    InvoiceFormContext,
    "currency" | "taxRate" | "priceBook" | "taxRateId" | "rateBook" | "taxChoices" | "paymentTermsDays"
  >
>) {
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(invoiceFormSchema, {
    id,
    lastResult: reply?.result,
    defaultValue,
    shouldValidate: "onSubmit",
  });
  const currency = formCurrency(fields.currency.value, context.currency);
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="stack record-form quote-form invoice-form">
      <CsrfInput />
      <FormError errors={form.errors} />
      <DocumentCustomer
        name={fields.customerId.name}
        customer={customer}
        changeCustomerTo={changeCustomerTo}
        errors={fields.customerId.errors}
      />
      <div className="form-grid">
        <Field label="Issue date" type="date" {...fieldOf(fields.issueDate)} />
        <Field
          label="Due date"
          type="date"
          hint={`Blank: ${context.paymentTermsDays} days after the issue date.`}
          {...fieldOf(fields.dueDate)}
        />
        <Field
          label="Currency"
          maxLength={3}
          autoComplete="off"
          hint="A 3-letter code, like USD."
          {...fieldOf(fields.currency)}
        />
      </div>
      <LineItemsEditor
        form={form}
        items={fields.items}
        currency={currency}
        priceBook={context.priceBook}
        defaultTaxRate={context.taxRate}
        taxes={{ book: context.rateBook, choices: context.taxChoices, defaultId: context.taxRateId }}
        discount={{ type: fields.discountType, value: fields.discountValue }}
        allowOptions={false}
      />
      <TextAreaField label="Notes for the customer" rows={3} {...fieldOf(fields.notes)} />
      <FormActions submit={submit} cancelTo={cancelTo} busy={busy} />
    </Form>
  );
}
