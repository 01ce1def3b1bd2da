import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import type { FormReply } from "~/http/conform.server";
import {
  ACCOUNTANT_FORM_INTENT,
  DATE_ORDER_LABELS,
  DATE_ORDERS,
  accountantSettingsSchema,
  isNoTax,
  rateLabel,
  type AccountantSettingsForm,
} from "~/services/integrations/accountant-settings";
import { CsrfInput, Field, FormError, fieldOf, useConformForm } from "./forms";
import { LastSaved, SaveRow, SelectField } from "./settings";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/** True for the answer of the accountant files' settings form (the page's other form has no `intent`). */
export const isAccountantReply = (reply: FormReply) =>
  (reply.result.initialValue as Record<string, unknown> | undefined)?.intent === ACCOUNTANT_FORM_INTENT;

export type AccountantFilesData = {
  form: AccountantSettingsForm;
  rates: string[];
  range: { from: string; to: string };
  savedAt: string | null;
  savedByName: string | null;
  canManage: boolean;
  timeZone: string;
};

const FILES = [
  {
    format: "qbo",
    button: "QuickBooks Online (CSV)",
    text: "Invoices in QuickBooks Online's invoice import columns. Import with Settings → Import data → Invoices.",
  },
  {
    format: "xero",
    button: "Xero (CSV)",
    text: "Invoices in Xero's sales invoice template, at most 500 invoices a file (a ZIP of numbered files beyond that). Import with Invoices → Import, amounts tax exclusive.",
  },
  {
    format: "iif",
    button: "QuickBooks Desktop (IIF)",
    text: "Invoices and the payments received in the range. Import with File → Utilities → Import → IIF Files.",
  },
] as const;

/** The page's section: download a file for a date range, and the accounts and tax codes it uses. */
export function AccountantFilesSection({ data, busy }: { data: AccountantFilesData; busy: boolean }) {
  return (
    <section id="accountant-files" aria-labelledby="accountant-files-title" className="accountant-files">
      <h2 id="accountant-files-title" className="section-title">
        Files for your accountant
      </h2>
      <p className="muted">
        No connection needed: download the invoices of a date range in the file your accountant's software imports.
        Draft and voided invoices are left out, invoice numbers are exported as they are, and the same range always
        gives the same file.
      </p>
      <div className="accountant-grid">
        <DownloadCard data={data} />
        <AccountantSettingsCard data={data} busy={busy} />
      </div>
    </section>
  );
}

function DownloadCard({ data }: { data: AccountantFilesData }) {
  return (
    <section className="card" aria-labelledby="accountant-download-title">
      <h3 id="accountant-download-title">Download</h3>
      {/* A plain GET form: the browser downloads the file, with or without JavaScript. */}
      <form method="get" action="/settings/accounting/files" className="accountant-download">
        <div className="accountant-range">
          <Field name="from" id="files-from" label="First day" type="date" required defaultValue={data.range.from} />
          <Field name="to" id="files-to" label="Last day" type="date" required defaultValue={data.range.to} />
        </div>
        <p className="field-hint">
          At most a year per file. Invoices count by their issue date, payments by the day received.
        </p>
        <ul className="accountant-formats">
          {FILES.map((f) => (
            <li key={f.format}>
              <button
                type="submit"
                name="format"
                value={f.format}
                className="btn btn-secondary"
                aria-describedby={`files-${f.format}-what`}
              >
                {f.button}
              </button>
              <p id={`files-${f.format}-what`} className="small muted">
                {f.text}
              </p>
            </li>
          ))}
        </ul>
      </form>
    </section>
  );
}

function AccountantSettingsCard({ data, busy }: { data: AccountantFilesData; busy: boolean }) {
  const answer = useActionData<FormReply>();
  const reply = answer && isAccountantReply(answer) ? answer : undefined;
  const [form, fields] = useConformForm(accountantSettingsSchema, {
    id: `accountant-files-${data.savedAt ?? "defaults"}`,
    lastResult: reply?.result,
    defaultValue: data.form,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rows = (fields.tax_codes as any).getFieldList() as Meta[];
  const f = (m: unknown) => fieldOf(m as Meta);
  const order = f(fields.date_order);
  return (
    <section className="card" aria-labelledby="accountant-settings-title">
      <div className="card-header">
        <h3 id="accountant-settings-title">Accounts and tax codes</h3>
        <LastSaved updatedAt={data.savedAt} by={data.savedByName} timeZone={data.timeZone} />
      </div>
      <Form
        method="post"
        action="/settings/accounting?form=accountant-files#accountant-files"
        {...getFormProps(form)}
        key={form.id}
      >
        <CsrfInput />
        <input type="hidden" name="intent" value={ACCOUNTANT_FORM_INTENT} />
        <FormError errors={form.errors} />
        <fieldset className="settings-fieldset" disabled={!data.canManage}>
          <div className="settings-form-grid">
            <Field
              {...f(fields.income_account)}
              label="Income account (QuickBooks Desktop)"
              hint="The account the invoice lines are booked to, as named in QuickBooks."
              maxLength={31}
            />
            <Field
              {...f(fields.item)}
              label="Product or service (QuickBooks)"
              hint="The item each line is booked as in QuickBooks Online and Desktop."
              maxLength={31}
            />
            <Field
              {...f(fields.xero_account_code)}
              label="Xero account code"
              hint="The sales account's code in Xero, such as 200."
              maxLength={10}
            />
            <SelectField
              name={order.name}
              label="Date order (QuickBooks Online and Xero)"
              value={order.defaultValue}
              errors={order.errors ?? undefined}
              hint="Your organisation's regional format. The IIF file is always MM/DD/YYYY."
              options={DATE_ORDERS.map((o) => ({ value: o, label: DATE_ORDER_LABELS[o] }))}
            />
          </div>
          <h4 className="accountant-tax-title">Tax code of each tax rate</h4>
          <div className="accountant-tax-list">
            {rows.map((row) => {
              // eslint-disable-next-line @typescript-eslint/no-explicit-any
              const r = (row as any).getFieldset() as Record<"rate" | "qbo" | "xero" | "iif", Meta>;
              const rate = String(r.rate.initialValue ?? "");
              const id = (k: string) => `field-${row.name}.${k}`.replace(/[[\].]/g, "-");
              return (
                <fieldset key={row.key} className="accountant-tax-rate">
                  <legend>{rateLabel(rate)}</legend>
                  <input type="hidden" name={r.rate.name} value={rate} />
                  <Field {...f(r.qbo)} id={id("qbo")} label="QuickBooks Online tax code" maxLength={100} />
                  <Field {...f(r.xero)} id={id("xero")} label="Xero tax rate" maxLength={50} />
                  {isNoTax(rate) ? (
                    <input type="hidden" name={r.iif.name} value="" />
                  ) : (
                    <Field {...f(r.iif)} id={id("iif")} label="QuickBooks Desktop sales tax item" maxLength={31} />
                  )}
                </fieldset>
              );
            })}
          </div>
        </fieldset>
        <SaveRow canManage={data.canManage} busy={busy} label="Save accounts and tax codes" />
      </Form>
    </section>
  );
}
