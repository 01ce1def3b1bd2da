/**
 * Zod schemas for the three integration settings forms.
 *
 * Forms post snake_case string fields (no JavaScript needed); the parsed
 * values are the tenant's non-secret preferences in camelCase. Any field that
 * looks like a credential is refused on every form: no route may accept or
 * store an API key, token or OAuth secret until an encryption key exists.
 */

import { z } from "zod";

import { ACCOUNTING_PROVIDER_IDS, type AccountingProviderId } from "./accounting";
import { CALENDAR_JOB_SCOPES, CALENDAR_PROVIDER_IDS, type CalendarJobScope, type CalendarProviderId } from "./calendar";
import {
  DEFAULT_LLM_PROVIDER_ID,
  LLM_PROVIDER_IDS,
  LOCAL_MODEL,
  getLlmProvider,
  isLlmProviderId,
  isModelOfProvider,
  type LlmProviderId,
} from "./llm";

// ---------------------------------------------------------------------------
// Shared types

/** Form fields as posted; `undefined` is tolerated so partial records type-check. */
export type FormEntries = Readonly<Record<string, string | undefined>>;

export type FieldErrors = Record<string, string[]>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors };

// ---------------------------------------------------------------------------
// Stored preference shapes

export const NO_ACCOUNTING_PROVIDER = "none";
export const PUSH_INVOICE_TRIGGERS = ["on_sent", "on_paid"] as const;
export type PushInvoiceTrigger = (typeof PUSH_INVOICE_TRIGGERS)[number];

export interface AccountingPrefs {
  preferredProvider: AccountingProviderId | typeof NO_ACCOUNTING_PROVIDER;
  /** When an invoice is pushed to the ledger: once sent to the customer, or only once paid. */
  pushInvoices: PushInvoiceTrigger;
  pushPayments: boolean;
}

export interface CalendarProviderPrefs {
  enabled: boolean;
  jobs: CalendarJobScope;
  busyBlocksBooking: boolean;
  includeCustomerDetails: boolean;
}

export interface CalendarPrefs {
  google: CalendarProviderPrefs;
  microsoft: CalendarProviderPrefs;
}

export interface LlmPrefs {
  provider: LlmProviderId;
  model: string;
}

export const defaultAccountingPrefs: Readonly<AccountingPrefs> = Object.freeze({
  preferredProvider: NO_ACCOUNTING_PROVIDER,
  pushInvoices: "on_sent",
  pushPayments: true,
});

// Customer details stay out of calendar events by default: calendars are often
// shared more widely than the job records themselves.
const defaultCalendarProvider: Readonly<CalendarProviderPrefs> = Object.freeze({
  enabled: false,
  jobs: "mine",
  busyBlocksBooking: true,
  includeCustomerDetails: false,
});

export const defaultCalendarPrefs: Readonly<CalendarPrefs> = Object.freeze({
  google: defaultCalendarProvider,
  microsoft: defaultCalendarProvider,
});

export const defaultLlmPrefs: Readonly<LlmPrefs> = Object.freeze({
  provider: DEFAULT_LLM_PROVIDER_ID,
  model: LOCAL_MODEL,
});

// ---------------------------------------------------------------------------
// Secret guard

export const SECRET_FIELD_MESSAGE =
  "Secrets are not accepted here: API keys, tokens, passwords and OAuth secrets are never stored until an encryption key is configured.";

// Matched against the snake_cased, lower-cased field name, so apiKey, API-KEY,
// x_api_key, clientSecret and access_token are all caught.
const SECRET_NAME =
  /(api_?key|secret|token|passw(or)?d|passphrase|private_?key|credential|bearer|authorization|auth_?code|client_?key|consumer_?key|signing_?key|encryption_?key|session_?id|cookie|(^|_)key$)/;
// The CSRF field is a per-session form token the route checks and drops, not a stored secret.
const CSRF_NAME = /^_*csrf(_token)?$/;

function normaliseFieldName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_");
}

export function isSecretFieldName(name: string): boolean {
  const n = normaliseFieldName(name);
  if (CSRF_NAME.test(n) || CSRF_NAME.test(name)) return false;
  return SECRET_NAME.test(n);
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string") return value.trim() !== "";
  return true; // a File or anything else non-empty-by-construction
}

type EntrySource = Readonly<Record<string, unknown>> | Iterable<readonly [string, unknown]>;

function toPairs(source: EntrySource): Array<readonly [string, unknown]> {
  if (typeof (source as Iterable<unknown>)[Symbol.iterator] === "function") {
    return Array.from(source as Iterable<readonly [string, unknown]>);
  }
  return Object.entries(source);
}

/**
 * Field errors for every present, non-empty field whose name looks like a
 * credential. Empty object when there are none. Accepts a plain record or any
 * iterable of entries (FormData, URLSearchParams), so duplicates are all seen.
 */
export function rejectSecretFields(entries: EntrySource): FieldErrors {
  const fields: FieldErrors = {};
  for (const [name, value] of toPairs(entries)) {
    if (isSecretFieldName(name) && isPresent(value)) {
      Object.defineProperty(fields, name, {
        value: [SECRET_FIELD_MESSAGE],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return fields;
}

/**
 * Collapse FormData/URLSearchParams into the record the parsers take. A later
 * non-empty value wins but an empty one never hides an earlier value, so the
 * hidden-"off" + checkbox-"on" pattern works and a secret cannot be masked by
 * a trailing empty duplicate.
 */
export function formDataToEntries(
  form: Iterable<readonly [string, FormDataEntryValue | string]>,
): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, raw] of form) {
    const value = typeof raw === "string" ? raw : raw.name || (raw.size > 0 ? "[file]" : "");
    if (value.trim() !== "" || !out.has(name)) out.set(name, value);
  }
  return Object.fromEntries(out);
}

// ---------------------------------------------------------------------------
// Field helpers

const TRUE_VALUES = new Set(["on", "true", "1", "yes"]);
const FALSE_VALUES = new Set(["off", "false", "0", "no", ""]);

/** HTML checkbox: "on" when ticked, absent when not. Absent means false. */
export const checkbox = z.preprocess(
  (v) => (v === undefined || v === null ? "" : typeof v === "string" ? v.trim().toLowerCase() : v),
  z.string().transform((v, ctx) => {
    if (TRUE_VALUES.has(v)) return true;
    if (FALSE_VALUES.has(v)) return false;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Expected a checkbox value ("on") or nothing.' });
    return z.NEVER;
  }),
);

function shown(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}

/** A required select/radio value with a message that names the bad option and the valid ones. */
function choice<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  const allowed: readonly string[] = values;
  return z.unknown().transform((raw, ctx): T[number] => {
    const v = typeof raw === "string" ? raw.trim() : "";
    if (v === "") {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Choose ${what}.` });
      return z.NEVER;
    }
    if (!allowed.includes(v)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `Unknown ${what} "${shown(v)}". Choose one of: ${allowed.join(", ")}.`,
      });
      return z.NEVER;
    }
    return v;
  });
}

// ---------------------------------------------------------------------------
// Form schemas

export const accountingFormSchema = z
  .object({
    preferred_provider: choice([NO_ACCOUNTING_PROVIDER, ...ACCOUNTING_PROVIDER_IDS], "accounting provider"),
    push_invoices: choice(PUSH_INVOICE_TRIGGERS, "invoice push option"),
    push_payments: checkbox,
  })
  .transform((f): AccountingPrefs => ({
    preferredProvider: f.preferred_provider,
    pushInvoices: f.push_invoices,
    pushPayments: f.push_payments,
  }));

const CALENDAR_LABELS: Readonly<Record<CalendarProviderId, string>> = {
  google: "Google Calendar",
  microsoft: "Microsoft Outlook",
};
const jobsChoice = (p: CalendarProviderId) => choice(CALENDAR_JOB_SCOPES, `which jobs sync to ${CALENDAR_LABELS[p]}`);

export const calendarFormSchema = z
  .object({
    google_enabled: checkbox,
    google_jobs: jobsChoice("google"),
    google_busy_blocks_booking: checkbox,
    google_include_customer_details: checkbox,
    microsoft_enabled: checkbox,
    microsoft_jobs: jobsChoice("microsoft"),
    microsoft_busy_blocks_booking: checkbox,
    microsoft_include_customer_details: checkbox,
  })
  .transform((f): CalendarPrefs => ({
    google: {
      enabled: f.google_enabled,
      jobs: f.google_jobs,
      busyBlocksBooking: f.google_busy_blocks_booking,
      includeCustomerDetails: f.google_include_customer_details,
    },
    microsoft: {
      enabled: f.microsoft_enabled,
      jobs: f.microsoft_jobs,
      busyBlocksBooking: f.microsoft_busy_blocks_booking,
      includeCustomerDetails: f.microsoft_include_customer_details,
    },
  }));

/** Form field names per calendar provider, for pages that render the fieldsets. */
export function calendarFieldNames(p: CalendarProviderId) {
  return {
    enabled: `${p}_enabled`,
    jobs: `${p}_jobs`,
    busyBlocksBooking: `${p}_busy_blocks_booking`,
    includeCustomerDetails: `${p}_include_customer_details`,
  } as const;
}

export const llmFormSchema = z
  .object({
    provider: choice(LLM_PROVIDER_IDS, "language-model provider"),
    model: z.unknown().transform((raw, ctx) => {
      const v = typeof raw === "string" ? raw.trim() : "";
      if (v === "") {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Choose a model." });
        return z.NEVER;
      }
      return v;
    }),
  })
  .superRefine((f, ctx) => {
    // zod 3 still runs this after a field failed (the object is only "dirty"),
    // so skip unless both fields parsed; the provider error already explains it.
    if (!isLlmProviderId(f.provider) || typeof f.model !== "string") return;
    if (!isModelOfProvider(f.provider, f.model)) {
      const provider = getLlmProvider(f.provider);
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["model"],
        message: `Model "${shown(f.model)}" is not offered by ${provider?.name ?? f.provider}. Choose one of: ${provider?.models.join(", ") ?? ""}.`,
      });
    }
  })
  .transform((f): LlmPrefs => ({ provider: f.provider, model: f.model }));

// ---------------------------------------------------------------------------
// Parsers

/**
 * A settings form's schema as posted: the area's fields, plus the secret guard, which runs on
 * every form independent of the fields and reports its errors alongside theirs. The same
 * schema validates in the browser (conform) and on the server.
 */
function guarded<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>) {
  return z.any().transform((raw, ctx): T => {
    const record =
      raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    for (const [name, messages] of Object.entries(rejectSecretFields(Object.entries(record)))) {
      for (const message of messages) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message });
    }
    const result = schema.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: issue.path.slice(0, 1), message: issue.message });
      return z.NEVER;
    }
    return result.data;
  });
}

/** The schema each settings page posts against, shared by the page (conform) and its action. */
export const SETTINGS_FORMS = {
  accounting: guarded(accountingFormSchema),
  calendar: guarded(calendarFormSchema),
  llm: guarded(llmFormSchema),
} as const;

function parseForm<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, entries: FormEntries): ParseResult<T> {
  const result = schema.safeParse(entries);
  if (result.success) return { ok: true, value: result.data };
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const name = issue.path.length > 0 ? String(issue.path[0]) : "_form";
    if (!Object.prototype.hasOwnProperty.call(fields, name)) {
      Object.defineProperty(fields, name, { value: [], enumerable: true, writable: true, configurable: true });
    }
    fields[name].push(issue.message);
  }
  return { ok: false, fields };
}

export function parseAccountingPrefs(formEntries: FormEntries): ParseResult<AccountingPrefs> {
  return parseForm(SETTINGS_FORMS.accounting, formEntries);
}

export function parseCalendarPrefs(formEntries: FormEntries): ParseResult<CalendarPrefs> {
  return parseForm(SETTINGS_FORMS.calendar, formEntries);
}

export function parseLlmPrefs(formEntries: FormEntries): ParseResult<LlmPrefs> {
  return parseForm(SETTINGS_FORMS.llm, formEntries);
}

// ---------------------------------------------------------------------------
// Stored values: read back leniently (fall back to defaults field by field),
// because a stored row may predate a catalogue change.

const storedAccountingSchema = z.object({
  preferredProvider: z.enum([NO_ACCOUNTING_PROVIDER, ...ACCOUNTING_PROVIDER_IDS]),
  pushInvoices: z.enum(PUSH_INVOICE_TRIGGERS),
  pushPayments: z.boolean(),
});

const storedCalendarProviderSchema = z.object({
  enabled: z.boolean(),
  jobs: z.enum(CALENDAR_JOB_SCOPES),
  busyBlocksBooking: z.boolean(),
  includeCustomerDetails: z.boolean(),
});

function pick<T extends object>(raw: unknown, defaults: Readonly<T>, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  const obj = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const candidate = { ...out, [key]: obj[key] };
    if (schema.safeParse(candidate).success) out[key] = obj[key];
  }
  return schema.parse(out);
}

export function loadAccountingPrefs(raw: unknown): AccountingPrefs {
  return pick(raw, defaultAccountingPrefs, storedAccountingSchema);
}

export function loadCalendarPrefs(raw: unknown): CalendarPrefs {
  const obj = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  return {
    google: pick(obj.google, defaultCalendarPrefs.google, storedCalendarProviderSchema),
    microsoft: pick(obj.microsoft, defaultCalendarPrefs.microsoft, storedCalendarProviderSchema),
  };
}

export function loadLlmPrefs(raw: unknown): LlmPrefs {
  const obj = raw !== null && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const provider = typeof obj.provider === "string" ? getLlmProvider(obj.provider) : undefined;
  if (!provider) return { ...defaultLlmPrefs };
  const model =
    typeof obj.model === "string" && provider.models.includes(obj.model) ? obj.model : provider.defaultModel;
  return { provider: provider.id, model };
}

// ---------------------------------------------------------------------------
// Back to form fields (what a browser would post), for rendering current values.

export function accountingPrefsToForm(p: AccountingPrefs): Record<string, string> {
  return {
    preferred_provider: p.preferredProvider,
    push_invoices: p.pushInvoices,
    ...(p.pushPayments ? { push_payments: "on" } : {}),
  };
}

export function calendarPrefsToForm(p: CalendarPrefs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of CALENDAR_PROVIDER_IDS) {
    const names = calendarFieldNames(id);
    const prefs = p[id];
    out[names.jobs] = prefs.jobs;
    if (prefs.enabled) out[names.enabled] = "on";
    if (prefs.busyBlocksBooking) out[names.busyBlocksBooking] = "on";
    if (prefs.includeCustomerDetails) out[names.includeCustomerDetails] = "on";
  }
  return out;
}

export function llmPrefsToForm(p: LlmPrefs): Record<string, string> {
  return { provider: p.provider, model: p.model };
}
