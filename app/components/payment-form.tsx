import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { OFFICE_PAYMENT_METHODS, officePaymentSchema, PAYMENT_METHOD_LABELS } from "~/services/invoices/schemas";
import { formatMoney } from "~/utils/format";
import { SelectField, TextField } from "./conform-fields";
import { CsrfInput, FormError } from "./forms";

/**
 * "Record payment" for the office: amount (the balance by default), method, reference and the
 * day it was received. The hidden key, made when the page renders, makes a double submit
 * record one payment.
 */
export function PaymentForm({
  invoiceId,
  balanceCents,
  currency,
  today,
  idempotencyKey,
  lastResult,
}: {
  invoiceId: string;
  balanceCents: number;
  currency: string;
  today: string;
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "payment-form",
    lastResult,
    defaultValue: {
      amount: (balanceCents / 100).toFixed(2),
      method: "check",
      receivedOn: today,
      idempotencyKey,
      reference: "",
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: officePaymentSchema }),
  });
  return (
    <Form method="post" action={`/invoices/${invoiceId}/payments`} {...getFormProps(form)} className="stack-form">
      <CsrfInput />
      <input {...getInputProps(fields.idempotencyKey, { type: "hidden" })} />
      <FormError errors={form.errors} />
      <div className="form-row">
        <TextField
          meta={fields.amount}
          label="Amount"
          className="grow"
          hint={`Balance due ${formatMoney(balanceCents, currency)}.`}
          input={{ inputMode: "decimal" }}
        />
        <SelectField
          meta={fields.method}
          label="Method"
          className="grow"
          options={OFFICE_PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
        />
      </div>
      <div className="form-row">
        <TextField
          meta={fields.reference}
          label="Reference"
          className="grow"
          hint="Check number, card slip or transfer id (optional)."
        />
        <TextField meta={fields.receivedOn} type="date" label="Received on" className="grow" />
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Record payment
        </button>
      </div>
    </Form>
  );
}
