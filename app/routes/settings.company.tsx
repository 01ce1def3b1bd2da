import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { toAppError } from "~/http/envelope.server";
import { readImageForm } from "~/http/photo-form.server";
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE } from "~/services/company/logo-rules";
import { logoMeta, logoPath, logoTooLarge, removeLogo, saveLogo } from "~/services/company/logo.server";
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
// The logo has its own small form on the page: a multipart upload (or "Remove logo") posted to
// the same address, which answers 303 back, or this page with the message beside the file field
// (422 not a PNG or JPEG, 413 over 1 MiB), nothing changed.

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
  const actor = actorOf(user);
  const logo = await logoMeta(actor);
  return json({
    settings: await getCompanySettings(actor),
    logo: logo ? { url: logoPath(actor.tenantId, logo.id), width: logo.width, height: logo.height } : null,
    timeZones: timeZones().map((z) => ({ value: z, label: z.replace(/_/g, " ") })),
    currencies: currencyOptions(),
  });
}

/** What the logo form answers when refused: the message beside its file field. */
type LogoReply = { logoErrors: string[] };

async function logoAction(request: Request, user: Parameters<typeof actorOf>[0]): Promise<Response> {
  try {
    const { form, file } = await readImageForm(request, {
      field: "logo",
      limit: LOGO_MAX_BYTES,
      what: "logo",
      tooLarge: logoTooLarge,
    });
    if (form.get("intent") === "remove-logo") {
      const had = await removeLogo(actorOf(user));
      await setFlash(user, { message: had ? "Logo removed." : "There was no logo to remove.", tone: "success" });
      return redirect("/settings/company", 303);
    }
    await saveLogo(actorOf(user), file?.bytes ?? Buffer.alloc(0));
    await setFlash(user, {
      message: "Logo saved. It shows on your quotes, invoices, receipts, e-mails and customer portal.",
      tone: "success",
    });
    return redirect("/settings/company", 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    const e = toAppError(error, request);
    // A wrong CSRF token is the 403 page, as for every staff form.
    if (e.code === "CSRF_INVALID" || e.code === "FORBIDDEN") throw json({ message: e.message }, { status: e.status });
    if (e.status >= 500) throw error;
    return json<LogoReply>({ logoErrors: e.fields.logo ?? [e.message] }, { status: e.status, headers: e.headers });
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) return logoAction(request, user);
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
  const { settings, logo, timeZones: zones, currencies: codes } = useLoaderData<typeof loader>();
  const answer = useActionData<FormReply | LogoReply>();
  const reply = answer && "result" in answer ? answer : undefined;
  const logoErrors = answer && "logoErrors" in answer ? answer.logoErrors : undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formEncType !== "multipart/form-data";
  const logoBusy = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
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
      <section className="card stack record-form" aria-labelledby="company-logo">
        <h2 id="company-logo">Logo</h2>
        <div className="company-logo">
          {logo ? (
            <img
              className="company-logo-preview"
              src={logo.url}
              width={logo.width}
              height={logo.height}
              alt={`Your logo as it is now (${logo.width} × ${logo.height} pixels)`}
            />
          ) : (
            <p className="muted small">
              No logo yet: your quotes, invoices, e-mails and portal show your business name.
            </p>
          )}
        </div>
        <Form
          method="post"
          encType="multipart/form-data"
          id="company-logo-form"
          className="stack"
          // A new form after each upload or removal: the file chosen before is not kept.
          key={logo?.url ?? "none"}
        >
          <CsrfInput />
          <input type="hidden" name="intent" value="upload-logo" />
          <Field
            label={logo ? "Replace the logo" : "Logo image"}
            name="logo"
            id="field-logo"
            type="file"
            accept="image/png,image/jpeg"
            required
            hint={`PNG or JPEG, at most ${LOGO_MAX_BYTES / 1024 / 1024} MiB and ${LOGO_MAX_SIDE} pixels a side. It prints at the top left of your quotes, invoices and receipts, and heads your e-mails and customer portal. A wide logo on a white or transparent background prints best.`}
            errors={logoErrors}
          />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={logoBusy}>
              {logoBusy ? "Uploading…" : "Upload logo"}
            </button>
          </div>
        </Form>
        {logo ? (
          <Form method="post" encType="multipart/form-data" id="company-logo-remove">
            <CsrfInput />
            <input type="hidden" name="intent" value="remove-logo" />
            <button type="submit" className="btn btn-secondary">
              Remove logo
            </button>
          </Form>
        ) : null}
      </section>
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
