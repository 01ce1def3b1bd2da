import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CsrfInput, Field, fieldOf, FormError, useConformForm } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { FormActions, TextAreaField } from "~/components/record-forms";
import { CheckboxField, SelectField } from "~/components/settings";
import { formAction, type FormReply } from "~/http/conform.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { getCompanySettings, saveCompanySettings } from "~/services/company/company.server";
import { companySettingsSchema, currencies } from "~/services/company/schemas";
import { timeZones } from "~/services/company/time-zones";
import { WEEKDAYS } from "~/services/visits/repeat";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// /settings/company: the business's name, contact details, time zone, currency and the
// defaults new quotes and invoices start from. Owner and admin (`manage_team`); others 403.

export const meta: MetaFunction = () => [{ title: "Company · Fieldwork" }];

function currencyOptions() {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames(["en"], { type: "currency" });
  } catch {
    names = undefined;
  }
  return currencies().map((c) => ({ value: c, label: names ? `${c} · ${names.of(c)}` : c }));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  return json({
    settings: await getCompanySettings(actorOf(user)),
    timeZones: timeZones().map((z) => ({ value: z, label: z.replace(/_/g, " ") })),
    currencies: currencyOptions(),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  return formAction(request, companySettingsSchema, async (value) => {
    await saveCompanySettings(actorOf(user), value);
    await setFlash(user, {
      message: "Company settings saved. New quotes and invoices start from them.",
      tone: "success",
    });
    return redirect("/settings/company", 303);
  });
}

export default function CompanySettingsPage() {
  const { settings, timeZones: zones, currencies: codes } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { updatedAt: _updatedAt, ...defaultValue } = settings;
  const [form, fields] = useConformForm(companySettingsSchema, {
    id: "company-settings",
    lastResult: reply?.result,
    defaultValue,
  });
  const value = (f: { initialValue?: unknown }, fallback: string) =>
    typeof f.initialValue === "string" ? f.initialValue : fallback;
  return (
    <>
      <PageHeader
        title="Company"
        description="Your business as customers see it on quotes, invoices and the portal, and the defaults new documents start from."
      />
      <Form method="post" {...getFormProps(form)} className="stack record-form">
        <CsrfInput />
        <FormError errors={form.errors} />
        <section className="card stack" aria-labelledby="company-business">
          <h2 id="company-business">Business</h2>
          <div className="form-grid">
            <Field
              label="Business name"
              autoComplete="organization"
              maxLength={200}
              {...fieldOf(fields.businessName)}
            />
            <Field label="Phone" type="tel" autoComplete="tel" maxLength={50} {...fieldOf(fields.phone)} />
            <Field label="Email" type="email" autoComplete="email" maxLength={254} {...fieldOf(fields.email)} />
          </div>
          <TextAreaField
            label="Address"
            rows={3}
            hint="As it should print on quotes and invoices."
            name={fields.address.name}
            defaultValue={value(fields.address, "")}
            errors={fields.address.errors}
          />
        </section>
        <section className="card stack" aria-labelledby="company-defaults">
          <h2 id="company-defaults">Time, money and defaults</h2>
          <div className="form-grid">
            <SelectField
              name={fields.timeZone.name}
              label="Time zone"
              options={zones}
              value={value(fields.timeZone, settings.timeZone)}
              errors={fields.timeZone.errors}
              hint="Dates and times on every page, the schedule and the field app show in it."
            />
            <SelectField
              name={fields.currency.name}
              label="Currency"
              options={codes}
              value={value(fields.currency, settings.currency)}
              errors={fields.currency.errors}
              hint="New quotes and invoices are written in it; existing ones keep theirs."
            />
            <Field
              label="Default tax rate (%)"
              inputMode="decimal"
              autoComplete="off"
              hint="Like 8.25; 0 for none. New lines start with it."
              {...fieldOf(fields.defaultTaxRate)}
            />
            <Field
              label="Payment terms (days)"
              inputMode="numeric"
              autoComplete="off"
              hint="An invoice is due this many days after its issue date (0 = on receipt)."
              {...fieldOf(fields.paymentTermsDays)}
            />
            <Field
              label="Quote validity (days)"
              inputMode="numeric"
              autoComplete="off"
              hint="A new quote is valid until this many days from today."
              {...fieldOf(fields.quoteValidityDays)}
            />
          </div>
        </section>
        <section className="card stack" aria-labelledby="company-reminders">
          <h2 id="company-reminders">Automatic reminders</h2>
          <p className="muted small">
            E-mailed to customers in your name, each once, with their portal link; a customer can turn them off with the
            link in each reminder. Leave a field empty to send none. The company e-mail above also gets a message for
            each new booking request, quote answer and portal payment.
          </p>
          <div className="form-grid">
            <Field
              label="Quote follow-up after (days)"
              inputMode="numeric"
              autoComplete="off"
              hint="When a sent quote has no answer after this many days."
              {...fieldOf(fields.reminderQuoteDays)}
            />
            <Field
              label="Invoice reminder before the due date (days)"
              inputMode="numeric"
              autoComplete="off"
              hint="0 = on the due date."
              {...fieldOf(fields.reminderInvoiceBeforeDays)}
            />
            <Field
              label="Overdue reminder after the due date (days)"
              inputMode="numeric"
              autoComplete="off"
              hint="When an invoice still has a balance this many days after it was due."
              {...fieldOf(fields.reminderInvoiceAfterDays)}
            />
          </div>
          <CheckboxField
            name={fields.reminderVisit.name}
            label="Remind customers of a visit the day before"
            checked={value(fields.reminderVisit, settings.reminderVisit) === "on"}
            errors={fields.reminderVisit.errors}
          />
          <div className="form-grid">
            <Field
              label="Brand colour"
              type="color"
              hint="The e-mails' heading, button and links; white text sits on it, so choose a dark enough colour."
              {...fieldOf(fields.brandColor)}
            />
          </div>
        </section>
        <section className="card stack" aria-labelledby="company-field">
          <h2 id="company-field">In the field</h2>
          <p className="muted small">
            Jobs carry a checklist (typed on the job form, or a quote's items) that technicians tick in the field app.
          </p>
          <CheckboxField
            name={fields.checklistRequired.name}
            label="A job can be completed only when every checklist item is ticked"
            checked={value(fields.checklistRequired, settings.checklistRequired) === "on"}
            errors={fields.checklistRequired.errors}
          />
        </section>
        <section className="card stack" aria-labelledby="company-timesheets">
          <h2 id="company-timesheets">Timesheets and overtime</h2>
          <p className="muted small">
            A week&apos;s hours over the weekly threshold are overtime, in time order; with a daily threshold, a
            day&apos;s hours over it are overtime too, and never counted twice.
          </p>
          <div className="form-grid">
            <SelectField
              name={fields.weekStartsOn.name}
              label="Week starts on"
              options={WEEKDAYS.map((d) => ({ value: d, label: d[0].toUpperCase() + d.slice(1) }))}
              value={value(fields.weekStartsOn, settings.weekStartsOn)}
              errors={fields.weekStartsOn.errors}
            />
            <Field
              label="Weekly overtime after (hours)"
              inputMode="decimal"
              autoComplete="off"
              hint="Like 40."
              {...fieldOf(fields.overtimeWeeklyHours)}
            />
            <Field
              label="Daily overtime after (hours)"
              inputMode="decimal"
              autoComplete="off"
              hint="Like 8; leave it empty for no daily rule."
              {...fieldOf(fields.overtimeDailyHours)}
            />
          </div>
        </section>
        <FormActions submit="Save company settings" cancelTo="/settings/company" busy={busy} />
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
