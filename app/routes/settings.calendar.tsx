import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfInput } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import {
  CheckboxField,
  ConnectControl,
  LastSaved,
  RadioGroup,
  ReadOnlyNote,
  Requirements,
  SaveRow,
  SettingsFormErrors,
  StatusBadge,
  useSettingsForm,
  type SettingsForm,
} from "~/components/settings";
import { settingsFormAction, settingsPageLoader } from "~/http/settings-form.server";
import {
  CALENDAR_JOB_SCOPES,
  CALENDAR_JOB_SCOPE_LABELS,
  CALENDAR_PROVIDERS,
  type CalendarProvider,
} from "~/services/integrations/calendar";
import { calendarFieldNames, calendarPrefsToForm, SETTINGS_FORMS } from "~/services/integrations/preferences";
import settingsStyles from "~/styles/settings.css";
import feedStyles from "~/styles/calendar-feed.css";
import { CalendarFeedsSection } from "~/components/schedule/calendar-feeds";
import { feedsFor } from "~/services/schedule/calendar-feeds.server";
import { actorOf, requireUser } from "~/http/auth.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Calendar integrations · Fieldwork" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: settingsStyles },
  { rel: "stylesheet", href: feedStyles },
];

// Every member opens this page for their own calendar feed; only those
// with view_calendar_integrations see the integration preferences.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const feeds = await feedsFor(actorOf(user));
  if (!can(user.role, "view_calendar_integrations")) return json({ integrations: false as const, feeds });
  const settings = await settingsPageLoader(request, "view_calendar_integrations", "calendar", calendarPrefsToForm);
  return json({ integrations: true as const, feeds, ...(await settings.json()) });
}

export async function action({ request }: ActionFunctionArgs) {
  return settingsFormAction(request, "calendar", {
    redirectTo: "/settings/calendar",
    saved: "Calendar preferences saved.",
  });
}

const FIELDS = CALENDAR_PROVIDERS.flatMap((p) => Object.values(calendarFieldNames(p.id)));
const JOB_OPTIONS = CALENDAR_JOB_SCOPES.map((s) => ({ value: s, label: CALENDAR_JOB_SCOPE_LABELS[s] }));
// Both providers share the flows; show them once, above the cards.
const FLOWS = CALENDAR_PROVIDERS[0].directions;

export default function CalendarSettings() {
  const data = useLoaderData<typeof loader>();
  if (!data.integrations) {
    return (
      <>
        <PageHeader title="Calendar feed" description="Your jobs in the calendar on your phone." />
        <CalendarFeedsSection {...data.feeds} />
      </>
    );
  }
  return <CalendarIntegrations data={data} />;
}

function CalendarIntegrations({
  data,
}: {
  data: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { integrations: true }>;
}) {
  const busy = useNavigation().state === "submitting";
  const form = useSettingsForm(SETTINGS_FORMS.calendar, data, "calendar");
  return (
    <>
      <PageHeader
        title="Calendar integrations"
        description="Two-way sync with Google Calendar and Microsoft Outlook (Microsoft 365)."
      />
      <CalendarFeedsSection {...data.feeds} />
      <section className="card sync-explainer" aria-labelledby="two-way-title">
        <h2 id="two-way-title">How two-way sync works</h2>
        <div className="grid grid-2">
          <div className="flow">
            <p className="flow-route">
              <span className="badge">Fieldwork → calendar</span>
            </p>
            <p>{FLOWS.outbound.carries}</p>
          </div>
          <div className="flow">
            <p className="flow-route">
              <span className="badge">Calendar → Fieldwork</span>
            </p>
            <p>{FLOWS.inbound.carries}</p>
          </div>
        </div>
        <p className="muted small">
          Neither calendar is connected yet: live OAuth waits for provider credentials, registered redirect URLs, an
          encryption key for tokens and HTTPS callbacks. Preferences saved now apply once a calendar is connected.
        </p>
      </section>

      {data.canManage ? null : <ReadOnlyNote />}
      <Form method="post" noValidate key={data.updatedAt ?? "defaults"}>
        <CsrfInput />
        <SettingsFormErrors form={form.form} placed={FIELDS} />
        <div className="provider-grid">
          {CALENDAR_PROVIDERS.map((p) => (
            <CalendarProviderCard key={p.id} provider={p} form={form} canManage={data.canManage} />
          ))}
        </div>
        <div className="save-bar">
          <LastSaved updatedAt={data.updatedAt} by={data.updatedByName} timeZone={data.timeZone} />
          <SaveRow canManage={data.canManage} busy={busy} label="Save calendar preferences" />
        </div>
      </Form>
    </>
  );
}

function CalendarProviderCard({
  provider: p,
  form,
  canManage,
}: {
  provider: CalendarProvider;
  form: SettingsForm;
  canManage: boolean;
}) {
  const names = calendarFieldNames(p.id);
  const titleId = `provider-${p.id}`;
  return (
    <article className="card provider-card" aria-labelledby={titleId}>
      <header className="provider-head">
        <div>
          <h3 id={titleId}>{p.name}</h3>
          <p className="muted small">
            {p.api} · <span className="badge badge-success">Two-way sync</span>
          </p>
        </div>
        <StatusBadge status={p.status} />
      </header>

      <fieldset className="settings-fieldset provider-prefs" disabled={!canManage}>
        <legend className="visually-hidden">{p.name} preferences</legend>
        <CheckboxField
          name={names.enabled}
          label={`Sync with ${p.name}`}
          hint="Turns sync on for this calendar once it is connected."
          checked={form.checked(names.enabled)}
          errors={form.errorsFor(names.enabled)}
        />
        <RadioGroup
          name={names.jobs}
          legend="Which jobs sync"
          options={JOB_OPTIONS}
          value={form.values[names.jobs]}
          errors={form.errorsFor(names.jobs)}
        />
        <CheckboxField
          name={names.busyBlocksBooking}
          label="Busy time blocks online booking"
          hint="Customers cannot request a slot when the calendar shows you busy."
          checked={form.checked(names.busyBlocksBooking)}
          errors={form.errorsFor(names.busyBlocksBooking)}
        />
        <CheckboxField
          name={names.includeCustomerDetails}
          label="Put customer details in events"
          hint="Name, address and phone in the event. Off by default: calendars are often shared widely."
          checked={form.checked(names.includeCustomerDetails)}
          errors={form.errorsFor(names.includeCustomerDetails)}
        />
      </fieldset>

      <dl className="details provider-details">
        <dt>Authentication</dt>
        <dd>
          {p.auth.label}
          <span className="detail-note">{p.auth.detail}</span>
        </dd>
        <dt>Permissions</dt>
        <dd>
          <ul className="plain-list">
            {p.scopes.map((s) => (
              <li key={s.scope}>
                <code>{s.scope}</code>
                <span className="detail-note">{s.purpose}</span>
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <Requirements items={p.requirements} />
      <div className="provider-foot">
        <ConnectControl id={p.id} name={p.name} reason={p.disabledReason} />
        <a href={p.docsUrl} className="small" rel="noopener noreferrer" target="_blank">
          Developer documentation
        </a>
      </div>
    </article>
  );
}
