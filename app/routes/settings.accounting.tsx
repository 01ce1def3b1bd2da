import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/layout";
import {
  CheckboxField,
  ConnectControl,
  PrefsCard,
  RadioGroup,
  Requirements,
  SelectField,
  StatusBadge,
  useSettingsForm,
} from "~/components/settings";
import { json, redirect } from "@remix-run/node";
import { AccountantFilesSection, isAccountantReply } from "~/components/accountant-files";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";
import { formAction } from "~/http/conform.server";
import { settingsFormAction, settingsPageData } from "~/http/settings-form.server";
import { setFlash } from "~/services/accounts/sessions.server";
import { accountantFilesPage, saveAccountantSettings } from "~/services/integrations/accountant-files.server";
import {
  ACCOUNTANT_FORM_INTENT,
  accountantSettingsSchema,
  accountantSettingsToForm,
} from "~/services/integrations/accountant-settings";
import {
  ACCOUNTING_OBJECT_LABELS,
  ACCOUNTING_PROVIDERS,
  SYNC_DIRECTION_LABELS,
  type AccountingProvider,
} from "~/services/integrations/accounting";
import { NO_ACCOUNTING_PROVIDER, accountingPrefsToForm, SETTINGS_FORMS } from "~/services/integrations/preferences";
import settingsStyles from "~/styles/settings.css";

export const meta: MetaFunction = () => [{ title: "Accounting integrations · Fieldwork" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: settingsStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "view_accounting_integrations");
  const page = await settingsPageData(user, "accounting", accountingPrefsToForm);
  const files = await accountantFilesPage(actorOf(user));
  return json({
    ...page,
    files: {
      form: accountantSettingsToForm(files.settings, files.rates),
      rates: files.rates,
      range: files.range,
      savedAt: files.savedAt,
      savedByName: files.savedByName,
      canManage: page.canManage,
      timeZone: page.timeZone,
    },
  });
}

// Two forms post here: the sync preferences, and (`?form=accountant-files`) the accounts and
// tax codes of the files for the accountant.
export async function action({ request }: ActionFunctionArgs) {
  if (new URL(request.url).searchParams.get("form") === ACCOUNTANT_FORM_INTENT) {
    const user = await requireUserWithPermission(request, "manage_integrations");
    return formAction(
      request,
      accountantSettingsSchema,
      async (value) => {
        await saveAccountantSettings(actorOf(user), value);
        await setFlash(user, { message: "Accounts and tax codes saved.", tone: "success" });
        return redirect("/settings/accounting#accountant-files", { status: 303 });
      },
      { formMessage: "Nothing was saved: fix the fields marked below." },
    );
  }
  return settingsFormAction(request, "accounting", {
    redirectTo: "/settings/accounting",
    saved: "Accounting preferences saved.",
  });
}

const FIELDS = ["preferred_provider", "push_invoices", "push_payments"] as const;

const PUSH_INVOICE_OPTIONS = [
  { value: "on_sent", label: "When the invoice is sent to the customer" },
  { value: "on_paid", label: "Only once the invoice is paid" },
];

export default function AccountingSettings() {
  const data = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const form = useSettingsForm(SETTINGS_FORMS.accounting, data, "accounting", (r) => !isAccountantReply(r));
  return (
    <>
      <PageHeader
        title="Accounting integrations"
        description="Send customers, items, invoices and payments from Fieldwork to your accounting system."
      />
      <div className="alert alert-info">
        <p>
          <strong>No accounting system is connected yet.</strong> Live connections wait for provider credentials,
          registered redirect URLs, an encryption key for tokens and HTTPS callbacks. Your preferences below are saved
          now and apply once a connection is made.
        </p>
      </div>

      <PrefsCard title="Sync preferences" data={data} form={form.form} placed={FIELDS} busy={busy}>
        <SelectField
          name="preferred_provider"
          label="Preferred accounting system"
          value={form.values.preferred_provider}
          errors={form.errorsFor("preferred_provider")}
          hint="The system you plan to connect. Nothing is sent until it is connected."
          options={[
            { value: NO_ACCOUNTING_PROVIDER, label: "No preference yet" },
            ...ACCOUNTING_PROVIDERS.map((p) => ({ value: p.id, label: p.name })),
          ]}
        />
        <RadioGroup
          name="push_invoices"
          legend="Push invoices to the ledger"
          options={PUSH_INVOICE_OPTIONS}
          value={form.values.push_invoices}
          errors={form.errorsFor("push_invoices")}
        />
        <CheckboxField
          name="push_payments"
          label="Push payments recorded in Fieldwork"
          hint="Marks the invoice paid in the ledger so your books match."
          checked={form.checked("push_payments")}
          errors={form.errorsFor("push_payments")}
        />
      </PrefsCard>

      <AccountantFilesSection data={data.files} busy={busy} />

      <h2 className="section-title">Supported accounting systems</h2>
      <p className="muted">
        Ten systems, each synced one way by default: Fieldwork creates and updates records in the ledger and never
        overwrites it from two sides, so your accountant's books stay the system of record.
      </p>
      <div className="provider-grid">
        {ACCOUNTING_PROVIDERS.map((p) => (
          <AccountingProviderCard key={p.id} provider={p} />
        ))}
      </div>
    </>
  );
}

function AccountingProviderCard({ provider: p }: { provider: AccountingProvider }) {
  const titleId = `provider-${p.id}`;
  return (
    <article className="card provider-card" aria-labelledby={titleId}>
      <header className="provider-head">
        <div>
          <h3 id={titleId}>{p.name}</h3>
          <p className="muted small">{p.vendor}</p>
        </div>
        <StatusBadge status={p.status} />
      </header>
      <dl className="details provider-details">
        <dt>Authentication</dt>
        <dd>{p.auth.label}</dd>
        <dt>Regions</dt>
        <dd>{p.regions.map((r) => r.name).join(", ")}</dd>
        <dt>Default sync</dt>
        <dd>{SYNC_DIRECTION_LABELS[p.defaultDirection]}</dd>
        <dt>Objects synced</dt>
        <dd>
          <ul className="object-list">
            {p.objects.map((o) => (
              <li key={o.object}>
                <span className="object-name">{ACCOUNTING_OBJECT_LABELS[o.object]}</span>
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> as </span>
                {o.providerName}
                {o.direction === p.defaultDirection ? null : (
                  <span className="badge badge-warning">{SYNC_DIRECTION_LABELS[o.direction]}</span>
                )}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <Requirements items={p.requirements} />
      <details className="tech-details">
        <summary>How {p.name} connects</summary>
        <p>{p.auth.detail}</p>
        <p>{p.regionNote}</p>
        {p.regions.some((r) => r.host) ? (
          <ul className="plain-list">
            {p.regions
              .filter((r) => r.host)
              .map((r) => (
                <li key={r.code}>
                  {r.name}: <code>{r.host}</code>
                </li>
              ))}
          </ul>
        ) : null}
      </details>
      <div className="provider-foot">
        <ConnectControl id={p.id} name={p.name} reason={p.disabledReason} />
        <a href={p.docsUrl} className="small" rel="noopener noreferrer" target="_blank">
          Developer documentation
        </a>
      </div>
    </article>
  );
}
