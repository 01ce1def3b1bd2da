import { describe, it } from "node:test";
import assert from "node:assert/strict";

import {
  ACCOUNTING_OBJECTS,
  ACCOUNTING_PROVIDERS,
  ACCOUNTING_PROVIDER_IDS,
  getAccountingProvider,
} from "../../app/services/integrations/accounting";
import { CALENDAR_PROVIDERS, getCalendarProvider } from "../../app/services/integrations/calendar";
import {
  API_KEY_DISABLED_REASON,
  LLM_PROVIDERS,
  LOCAL_STATEMENT,
  getLlmProvider,
} from "../../app/services/integrations/llm";
import {
  SECRET_FIELD_MESSAGE,
  accountingPrefsToForm,
  calendarPrefsToForm,
  defaultAccountingPrefs,
  defaultCalendarPrefs,
  defaultLlmPrefs,
  formDataToEntries,
  isSecretFieldName,
  llmPrefsToForm,
  loadAccountingPrefs,
  loadCalendarPrefs,
  loadLlmPrefs,
  parseAccountingPrefs,
  parseCalendarPrefs,
  parseLlmPrefs,
  rejectSecretFields,
  type FieldErrors,
  type FormEntries,
  type ParseResult,
} from "../../app/services/integrations/preferences";

function errorsOf<T>(r: ParseResult<T>): FieldErrors {
  assert.equal(r.ok, false, "expected the form to be refused");
  return r.ok ? {} : r.fields;
}

function valueOf<T>(r: ParseResult<T>): T {
  assert.equal(r.ok, true, r.ok ? "" : `expected ok, got ${JSON.stringify(r.fields)}`);
  if (!r.ok) throw new Error("unreachable");
  return r.value;
}

describe("accounting catalogue", () => {
  it("lists exactly the ten providers, by name, with unique ids", () => {
    assert.deepEqual(
      ACCOUNTING_PROVIDERS.map((p) => p.name),
      [
        "QuickBooks Online",
        "QuickBooks Desktop",
        "Xero",
        "Sage Business Cloud Accounting",
        "Sage Intacct",
        "NetSuite",
        "FreshBooks",
        "Zoho Books",
        "MYOB",
        "FreeAgent",
      ],
    );
    assert.deepEqual(
      ACCOUNTING_PROVIDERS.map((p) => p.id),
      [...ACCOUNTING_PROVIDER_IDS],
    );
    assert.equal(new Set(ACCOUNTING_PROVIDER_IDS).size, 10);
  });

  for (const p of ACCOUNTING_PROVIDERS) {
    it(`${p.name}: auth, regions, four objects, Not connected, disabled reason, requirements`, () => {
      assert.match(p.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(p.vendor.length > 0);
      assert.ok(p.auth.method);
      assert.ok(p.auth.label.length > 0 && p.auth.detail.length > 0);
      assert.ok(p.regions.length >= 1);
      for (const r of p.regions) assert.ok(r.code && r.name);
      assert.deepEqual(
        p.objects.map((o) => o.object),
        [...ACCOUNTING_OBJECTS],
      );
      assert.deepEqual([...ACCOUNTING_OBJECTS], ["customers", "items", "invoices", "payments"]);
      // One-way to the ledger by default, object by object.
      assert.equal(p.defaultDirection, "to_ledger");
      for (const o of p.objects) assert.equal(o.direction, "to_ledger");
      assert.equal(p.status, "Not connected");
      assert.match(p.disabledReason, /disabled/i);
      assert.match(p.disabledReason, /encryption key/i);
      assert.match(p.disabledReason, /HTTPS/);
      assert.ok(p.requirements.some((r) => r.kind === "encryption_key"));
      assert.ok(p.requirements.some((r) => r.kind === "sandbox"));
      assert.ok(p.requirements.some((r) => r.kind === "client_credentials"));
      assert.match(p.docsUrl, /^https:\/\//);
    });
  }

  it("OAuth providers need an HTTPS redirect URL", () => {
    for (const p of ACCOUNTING_PROVIDERS.filter((x) => x.auth.method === "oauth2")) {
      assert.ok(
        p.requirements.some((r) => r.kind === "redirect_url"),
        p.name,
      );
      assert.match(p.disabledReason, /OAuth/, p.name);
    }
  });

  it("QuickBooks Desktop uses the Web Connector, NetSuite is token-based, Sage Intacct uses sender credentials", () => {
    assert.equal(getAccountingProvider("quickbooks-desktop")?.auth.method, "web_connector");
    assert.match(getAccountingProvider("quickbooks-desktop")?.auth.label ?? "", /Web Connector/);
    assert.equal(getAccountingProvider("netsuite")?.auth.method, "token_based");
    assert.match(getAccountingProvider("netsuite")?.auth.label ?? "", /token-based/i);
    const intacct = getAccountingProvider("sage-intacct");
    assert.equal(intacct?.auth.method, "web_services_credentials");
    assert.match(intacct?.auth.label ?? "", /sender/i);
    assert.match(intacct?.auth.label ?? "", /not OAuth/i);
    for (const id of [
      "quickbooks-online",
      "xero",
      "sage-business-cloud-accounting",
      "freshbooks",
      "zoho-books",
      "myob",
      "freeagent",
    ]) {
      assert.equal(getAccountingProvider(id)?.auth.method, "oauth2", id);
    }
    assert.equal(getAccountingProvider("wave"), undefined);
  });

  it("Zoho Books lists its data centres with hosts", () => {
    const zoho = getAccountingProvider("zoho-books");
    assert.ok((zoho?.regions.length ?? 0) >= 4);
    assert.ok(zoho?.regions.every((r) => r.host?.startsWith("www.zohoapis.")));
  });
});

describe("calendar catalogue", () => {
  it("has Google Calendar and Microsoft Outlook, both two-way and not connected", () => {
    assert.deepEqual(
      CALENDAR_PROVIDERS.map((p) => [p.id, p.name]),
      [
        ["google", "Google Calendar"],
        ["microsoft", "Microsoft Outlook (Microsoft 365)"],
      ],
    );
    for (const p of CALENDAR_PROVIDERS) {
      assert.equal(p.sync, "two-way");
      assert.equal(p.auth.method, "oauth2");
      assert.match(p.directions.outbound.carries, /jobs/i);
      assert.match(p.directions.inbound.carries, /busy/i);
      assert.ok(p.scopes.length >= 2);
      assert.equal(p.status, "Not connected");
      assert.match(p.disabledReason, /OAuth/);
      assert.ok(p.requirements.some((r) => r.kind === "encryption_key"));
      assert.ok(p.requirements.some((r) => r.kind === "redirect_url"));
    }
    assert.match(getCalendarProvider("google")?.auth.label ?? "", /Google Identity/);
    assert.match(getCalendarProvider("microsoft")?.auth.label ?? "", /Microsoft identity platform/);
    const googleScopes = getCalendarProvider("google")?.scopes.map((s) => s.scope) ?? [];
    assert.ok(googleScopes.includes("https://www.googleapis.com/auth/calendar.events"));
    assert.ok(googleScopes.includes("https://www.googleapis.com/auth/calendar.freebusy"));
    assert.ok(getCalendarProvider("microsoft")?.scopes.some((s) => s.scope === "Calendars.ReadWrite"));
  });
});

describe("language-model catalogue", () => {
  it("local is the default and the only active provider; others are planned with models", () => {
    const active = LLM_PROVIDERS.filter((p) => p.status === "active");
    assert.deepEqual(
      active.map((p) => p.id),
      ["local"],
    );
    assert.equal(getLlmProvider("local")?.isDefault, true);
    assert.equal(getLlmProvider("local")?.requiresApiKey, false);
    for (const id of ["openai", "anthropic", "azure-openai", "google-gemini"]) {
      const p = getLlmProvider(id);
      assert.equal(p?.status, "planned", id);
      assert.ok((p?.models.length ?? 0) >= 2, id);
      assert.ok(p?.models.includes(p.defaultModel), id);
    }
  });

  it("says plainly that the assistant runs locally and calls no provider", () => {
    assert.match(LOCAL_STATEMENT, /runs locally/i);
    assert.match(LOCAL_STATEMENT, /calls no language-model provider/i);
    assert.match(API_KEY_DISABLED_REASON, /encryption key/i);
    assert.match(API_KEY_DISABLED_REASON, /no API key/i);
  });
});

describe("accounting preferences form", () => {
  it("accepts good input; an absent checkbox is false", () => {
    assert.deepEqual(valueOf(parseAccountingPrefs({ preferred_provider: "xero", push_invoices: "on_paid" })), {
      preferredProvider: "xero",
      pushInvoices: "on_paid",
      pushPayments: false,
    });
    assert.deepEqual(
      valueOf(
        parseAccountingPrefs({ preferred_provider: "none", push_invoices: "on_sent", push_payments: "on", _csrf: "x" }),
      ),
      { preferredProvider: "none", pushInvoices: "on_sent", pushPayments: true },
    );
  });

  it("refuses an unknown provider and an unknown option with field errors", () => {
    const fields = errorsOf(parseAccountingPrefs({ preferred_provider: "wave", push_invoices: "weekly" }));
    assert.match(fields.preferred_provider?.[0] ?? "", /Unknown accounting provider "wave"/);
    assert.match(fields.push_invoices?.[0] ?? "", /Unknown invoice push option "weekly"/);
  });

  it("refuses a missing select and a bogus checkbox value", () => {
    const fields = errorsOf(parseAccountingPrefs({ push_invoices: "on_sent", push_payments: "maybe" }));
    assert.match(fields.preferred_provider?.[0] ?? "", /Choose/);
    assert.ok(fields.push_payments);
  });

  it("round-trips the defaults through the form", () => {
    assert.deepEqual(
      valueOf(parseAccountingPrefs(accountingPrefsToForm(defaultAccountingPrefs))),
      defaultAccountingPrefs,
    );
  });
});

describe("calendar preferences form", () => {
  it("accepts good input typed per provider; absent checkboxes are false", () => {
    const value = valueOf(
      parseCalendarPrefs({
        google_enabled: "on",
        google_jobs: "all",
        google_busy_blocks_booking: "on",
        microsoft_jobs: "mine",
      }),
    );
    assert.deepEqual(value, {
      google: { enabled: true, jobs: "all", busyBlocksBooking: true, includeCustomerDetails: false },
      microsoft: { enabled: false, jobs: "mine", busyBlocksBooking: false, includeCustomerDetails: false },
    });
  });

  it("refuses an unknown jobs option with a field error", () => {
    const fields = errorsOf(parseCalendarPrefs({ google_jobs: "team", microsoft_jobs: "mine" }));
    assert.match(fields.google_jobs?.[0] ?? "", /Unknown which jobs sync to Google Calendar "team"/);
    assert.equal(fields.microsoft_jobs, undefined);
  });

  it("round-trips the defaults through the form", () => {
    assert.deepEqual(valueOf(parseCalendarPrefs(calendarPrefsToForm(defaultCalendarPrefs))), defaultCalendarPrefs);
  });
});

describe("language-model preferences form", () => {
  it("accepts a provider with one of its models", () => {
    assert.deepEqual(valueOf(parseLlmPrefs({ provider: "local", model: "local-rules" })), {
      provider: "local",
      model: "local-rules",
    });
    assert.deepEqual(valueOf(parseLlmPrefs({ provider: "anthropic", model: "claude-haiku-4-5" })), {
      provider: "anthropic",
      model: "claude-haiku-4-5",
    });
    assert.deepEqual(valueOf(parseLlmPrefs(llmPrefsToForm(defaultLlmPrefs))), defaultLlmPrefs);
  });

  it("refuses an unknown provider (without a confusing model error)", () => {
    const fields = errorsOf(parseLlmPrefs({ provider: "mistral", model: "mistral-large" }));
    assert.match(fields.provider?.[0] ?? "", /Unknown language-model provider "mistral"/);
    assert.equal(fields.model, undefined);
  });

  it("refuses a model that belongs to another provider", () => {
    const fields = errorsOf(parseLlmPrefs({ provider: "openai", model: "claude-haiku-4-5" }));
    assert.match(fields.model?.[0] ?? "", /not offered by OpenAI/);
    assert.equal(fields.provider, undefined);
  });
});

describe("secret fields are refused on every form", () => {
  const secretNames = [
    "api_key",
    "apiKey",
    "API-KEY",
    "x_api_key",
    "secret",
    "client_secret",
    "clientSecret",
    "token",
    "access_token",
    "refreshToken",
    "password",
    "openai_key",
    "private_key",
  ];

  it("recognises secret-looking names but not ordinary or CSRF fields", () => {
    for (const n of secretNames) assert.equal(isSecretFieldName(n), true, n);
    for (const n of [
      "_csrf",
      "csrf_token",
      "provider",
      "model",
      "push_payments",
      "google_busy_blocks_booking",
      "keyword",
    ]) {
      assert.equal(isSecretFieldName(n), false, n);
    }
  });

  const goodForms: Record<string, { run: (e: FormEntries) => ParseResult<unknown>; entries: FormEntries }> = {
    accounting: { run: parseAccountingPrefs, entries: { preferred_provider: "xero", push_invoices: "on_sent" } },
    calendar: { run: parseCalendarPrefs, entries: { google_jobs: "mine", microsoft_jobs: "all" } },
    llm: { run: parseLlmPrefs, entries: { provider: "local", model: "local-rules" } },
  };

  for (const [form, { run, entries }] of Object.entries(goodForms)) {
    it(`${form}: otherwise-valid input with a secret field is refused`, () => {
      for (const name of secretNames) {
        const fields = errorsOf(run({ ...entries, [name]: "sk-live-123" }));
        assert.deepEqual(fields, { [name]: [SECRET_FIELD_MESSAGE] }, `${form} / ${name}`);
      }
    });

    it(`${form}: an empty secret field is not an error`, () => {
      assert.equal(run({ ...entries, api_key: "", token: "   " }).ok, true);
    });
  }

  it("rejectSecretFields reads FormData entries, including duplicates", () => {
    const fd = new FormData();
    fd.append("provider", "local");
    fd.append("api_key", "sk-1");
    fd.append("api_key", "");
    assert.deepEqual(rejectSecretFields(fd), { api_key: [SECRET_FIELD_MESSAGE] });
    assert.deepEqual(rejectSecretFields({ provider: "local" }), {});
    // Collapsing to a record keeps the non-empty value, so the guard still sees it.
    assert.deepEqual(formDataToEntries(fd), { provider: "local", api_key: "sk-1" });
  });

  it("formDataToEntries lets a checkbox override a hidden 'off'", () => {
    const p = new URLSearchParams("push_payments=off&push_payments=on");
    assert.deepEqual(formDataToEntries(p), { push_payments: "on" });
  });
});

describe("stored preferences", () => {
  it("fall back to defaults field by field", () => {
    assert.deepEqual(loadAccountingPrefs(null), defaultAccountingPrefs);
    assert.deepEqual(loadAccountingPrefs({ preferredProvider: "xero", pushInvoices: "weekly" }), {
      ...defaultAccountingPrefs,
      preferredProvider: "xero",
    });
    assert.deepEqual(loadCalendarPrefs({ google: { enabled: true, jobs: "team" } }), {
      google: { ...defaultCalendarPrefs.google, enabled: true },
      microsoft: defaultCalendarPrefs.microsoft,
    });
    assert.deepEqual(loadLlmPrefs({ provider: "openai", model: "claude-haiku-4-5" }), {
      provider: "openai",
      model: getLlmProvider("openai")?.defaultModel,
    });
    assert.deepEqual(loadLlmPrefs({ provider: "gone" }), defaultLlmPrefs);
  });
});
