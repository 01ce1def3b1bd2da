/**
 * Calendar integration catalogue (spec item 4 / §4.3).
 *
 * Pure data for `/settings/calendar`: two providers, both two-way. Nothing
 * connects yet: live OAuth waits for provider credentials, redirect URLs,
 * encryption keys and HTTPS callbacks, so both are "Not connected".
 */

import type { ConnectionStatus, Requirement } from "./accounting";
import { NOT_CONNECTED } from "./accounting";

export const CALENDAR_PROVIDER_IDS = ["google", "microsoft"] as const;
export type CalendarProviderId = (typeof CALENDAR_PROVIDER_IDS)[number];

export interface CalendarScope {
  readonly scope: string;
  readonly purpose: string;
}

export interface SyncFlow {
  readonly from: string;
  readonly to: string;
  readonly carries: string;
}

export interface CalendarProvider {
  readonly id: CalendarProviderId;
  readonly name: string;
  readonly vendor: string;
  readonly auth: { readonly method: "oauth2"; readonly label: string; readonly detail: string };
  readonly api: string;
  readonly sync: "two-way";
  /** Two directions, two different payloads: jobs go out as events, busy time comes back as availability. */
  readonly directions: { readonly outbound: SyncFlow; readonly inbound: SyncFlow };
  readonly scopes: readonly CalendarScope[];
  readonly status: ConnectionStatus;
  readonly requirements: readonly Requirement[];
  readonly disabledReason: string;
  readonly docsUrl: string;
}

const OUTBOUND: SyncFlow = {
  from: "this app",
  to: "calendar",
  carries:
    "Scheduled jobs become calendar events (created, moved and cancelled with the job); customer details only if the setting allows.",
};
const INBOUND: SyncFlow = {
  from: "calendar",
  to: "this app",
  carries:
    "Busy time (free/busy only, no event titles) becomes unavailability for scheduling and, if the setting allows, blocks online booking.",
};

const ENCRYPTION_KEY: Requirement = {
  kind: "encryption_key",
  text: "Server encryption key configured, so access/refresh tokens are stored encrypted (none is stored until then).",
};

export const CALENDAR_PROVIDERS: readonly CalendarProvider[] = [
  {
    id: "google",
    name: "Google Calendar",
    vendor: "Google",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Google Identity)",
      detail:
        "Authorization-code flow with offline access for a refresh token; the calendar.events scope is sensitive, so a public app needs Google's OAuth verification.",
    },
    api: "Google Calendar API v3",
    sync: "two-way",
    directions: { outbound: OUTBOUND, inbound: INBOUND },
    scopes: [
      { scope: "https://www.googleapis.com/auth/calendar.events", purpose: "Read and write events (jobs → events)." },
      {
        scope: "https://www.googleapis.com/auth/calendar.freebusy",
        purpose: "Read free/busy (busy time → availability).",
      },
      { scope: "openid email", purpose: "Identify which Google account was connected." },
    ],
    status: NOT_CONNECTED,
    requirements: [
      {
        kind: "client_credentials",
        text: "Google Cloud project with the Calendar API enabled and an OAuth client (client ID and client secret).",
      },
      { kind: "redirect_url", text: "Authorised redirect URI over HTTPS on the OAuth client." },
      ENCRYPTION_KEY,
      { kind: "https_callback", text: "HTTPS push-notification (watch) endpoint for event changes." },
      { kind: "sandbox", text: "Test Google account listed as a test user on the OAuth consent screen." },
    ],
    disabledReason:
      "Connecting Google Calendar is disabled: live OAuth waits for Google client credentials, a registered HTTPS redirect URL, a token encryption key and an HTTPS callback.",
    docsUrl: "https://developers.google.com/workspace/calendar/api/guides/overview",
  },
  {
    id: "microsoft",
    name: "Microsoft Outlook (Microsoft 365)",
    vendor: "Microsoft",
    auth: {
      method: "oauth2",
      label: "OAuth 2.0 (Microsoft identity platform)",
      detail:
        "Authorization-code flow through a Microsoft Entra app registration with delegated Microsoft Graph permissions; works for work/school and personal accounts.",
    },
    api: "Microsoft Graph v1.0 (calendar, events, getSchedule)",
    sync: "two-way",
    directions: { outbound: OUTBOUND, inbound: INBOUND },
    scopes: [
      {
        scope: "Calendars.ReadWrite",
        purpose:
          "Read and write events (jobs → events); also covers getSchedule free/busy, as Graph has no free/busy-only permission.",
      },
      { scope: "offline_access", purpose: "Refresh token for background sync." },
      { scope: "User.Read", purpose: "Identify which Microsoft account was connected." },
    ],
    status: NOT_CONNECTED,
    requirements: [
      {
        kind: "client_credentials",
        text: "Microsoft Entra app registration (application ID and client secret or certificate).",
      },
      { kind: "redirect_url", text: "Web redirect URI over HTTPS on the app registration." },
      ENCRYPTION_KEY,
      { kind: "https_callback", text: "HTTPS change-notification (subscription) endpoint for event changes." },
      { kind: "sandbox", text: "Microsoft 365 developer tenant or test mailbox." },
    ],
    disabledReason:
      "Connecting Microsoft Outlook is disabled: live OAuth waits for Microsoft app credentials, a registered HTTPS redirect URL, a token encryption key and an HTTPS callback.",
    docsUrl: "https://learn.microsoft.com/en-us/graph/outlook-calendar-concept-overview",
  },
];

const BY_ID: ReadonlyMap<string, CalendarProvider> = new Map(CALENDAR_PROVIDERS.map((p) => [p.id, p]));

export function isCalendarProviderId(value: unknown): value is CalendarProviderId {
  return typeof value === "string" && BY_ID.has(value);
}

export function getCalendarProvider(id: string): CalendarProvider | undefined {
  return BY_ID.get(id);
}

export const CALENDAR_JOB_SCOPES = ["mine", "all"] as const;
export type CalendarJobScope = (typeof CALENDAR_JOB_SCOPES)[number];

export const CALENDAR_JOB_SCOPE_LABELS: Readonly<Record<CalendarJobScope, string>> = {
  mine: "Only jobs assigned to me",
  all: "All jobs in this account",
};
