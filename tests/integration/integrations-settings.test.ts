import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { one, rows } from "../../db/index";
import {
  ACCOUNTING_OBJECT_LABELS,
  ACCOUNTING_PROVIDERS,
  SYNC_DIRECTION_LABELS,
} from "../../app/services/integrations/accounting";
import { CALENDAR_PROVIDERS } from "../../app/services/integrations/calendar";
import { API_KEY_DISABLED_REASON, LLM_PROVIDERS, LOCAL_STATEMENT } from "../../app/services/integrations/llm";
import { SECRET_FIELD_MESSAGE } from "../../app/services/integrations/preferences";
import { clientFor, type Client } from "../helpers/client";
import { createTenantWithUsers, twoTenants } from "../helpers/fixtures";

type Page = "accounting" | "calendar" | "llm";
const PAGES: Page[] = ["accounting", "calendar", "llm"];
const path = (p: Page) => `/settings/${p}`;

/** A valid save for each page, different from the defaults. */
const VALID: Record<Page, Record<string, string>> = {
  accounting: { preferred_provider: "xero", push_invoices: "on_paid" },
  calendar: {
    google_enabled: "on",
    google_jobs: "all",
    google_busy_blocks_booking: "on",
    microsoft_jobs: "mine",
    microsoft_include_customer_details: "on",
  },
  llm: { provider: "anthropic", model: "claude-haiku-4-5" },
};

const STORED: Record<Page, unknown> = {
  accounting: { preferredProvider: "xero", pushInvoices: "on_paid", pushPayments: false },
  calendar: {
    google: { enabled: true, jobs: "all", busyBlocksBooking: true, includeCustomerDetails: false },
    microsoft: { enabled: false, jobs: "mine", busyBlocksBooking: false, includeCustomerDetails: true },
  },
  llm: { provider: "anthropic", model: "claude-haiku-4-5" },
};

const SAVED_MESSAGE: Record<Page, string> = {
  accounting: "Accounting preferences saved.",
  calendar: "Calendar preferences saved.",
  llm: "Language-model preferences saved.",
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'", nbsp: " " };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39|nbsp);/g, (_, e: string) => ENTITIES[e]);
/** The markup a user sees: scripts (the hydration data) removed, so assertions are about the page. */
const visibleHtml = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/g, "");
/** The page's text, as a reader would see it. */
const pageText = (html: string) =>
  decode(
    visibleHtml(html)
      .replace(/<!-- -->/g, "")
      .replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ");

async function page(c: Client, p: Page) {
  const res = await c.get(path(p));
  const html = await res.text();
  return { status: res.status, html: visibleHtml(html), text: pageText(html) };
}

/** Posts a settings form; the body is always read (an unread body keeps the test process alive). */
async function save(c: Client, p: Page, body: Record<string, string>, opts?: { csrf?: boolean }) {
  const res = await c.post(path(p), body, opts);
  const raw = await res.text();
  return {
    status: res.status,
    location: res.headers.get("location"),
    raw,
    html: visibleHtml(raw),
    text: pageText(raw),
  };
}

const settingsRow = (tenantId: string, key: string) =>
  one<{ value: unknown; updated_by: string | null }>(
    `SELECT value, updated_by FROM tenant_settings WHERE tenant_id = $1 AND key = $2`,
    [tenantId, key],
  );

/** One `<article>` of the page by its heading id, so a provider's metadata is checked in its own card. */
function card(html: string, id: string): string {
  const start = html.lastIndexOf("<article", html.indexOf(`id="provider-${id}"`));
  assert.ok(start >= 0, `a card for ${id}`);
  return html.slice(start, html.indexOf("</article>", start));
}

/** The message shown beside a field (the element its errors are tied to). */
function fieldError(html: string, name: string): string {
  const m = html.match(new RegExp(`<ul id="field-${name}-error"[^>]*>([\\s\\S]*?)</ul>`));
  return m ? pageText(m[1]) : "";
}

const selected = (html: string, value: string) => new RegExp(`<option value="${value}" selected="">`).test(html);
/** Whether the input named `name` (with `value`, for radios) is rendered checked. */
function checked(html: string, name: string, value?: string): boolean {
  const inputs = html.match(/<input\b[^>]*>/g) ?? [];
  const input = inputs.find(
    (tag) => tag.includes(`name="${name}"`) && (value === undefined || tag.includes(`value="${value}"`)),
  );
  assert.ok(input, `an input ${name}${value ? `=${value}` : ""}`);
  return /\schecked=""/.test(input);
}

describe("settings pages render for owner and admin", () => {
  for (const role of ["owner", "admin"] as const) {
    test(`${role}: the accounting page names the ten providers with their metadata, each Not connected with connect disabled`, async () => {
      const t = await createTenantWithUsers();
      const { status, html, text } = await page(await clientFor(t.users[role]), "accounting");
      assert.equal(status, 200);
      assert.match(text, /Accounting integrations/);
      for (const p of ACCOUNTING_PROVIDERS) {
        const c = card(html, p.id);
        const ct = pageText(c);
        assert.match(ct, new RegExp(`^\\s*${p.name}\\b`), `${p.name} heads its card`);
        assert.ok(ct.includes(p.auth.label) && ct.includes(p.auth.detail), `${p.name}: auth method`);
        assert.ok(ct.includes(p.regionNote), `${p.name}: region note`);
        for (const r of p.regions) assert.ok(ct.includes(r.name), `${p.name}: region ${r.name}`);
        for (const o of p.objects) {
          assert.ok(
            ct.includes(ACCOUNTING_OBJECT_LABELS[o.object]) && ct.includes(o.providerName),
            `${p.name}: ${o.object}`,
          );
        }
        assert.ok(ct.includes(SYNC_DIRECTION_LABELS[p.defaultDirection]), `${p.name}: sync direction`);
        assert.ok(ct.includes("Not connected"), `${p.name}: status`);
        for (const r of p.requirements) assert.ok(ct.includes(r.text), `${p.name}: requirement ${r.kind}`);
        assert.match(c, /<button[^>]*disabled=""[^>]*>Connect/, `${p.name}: connect is disabled`);
        assert.ok(ct.includes(p.disabledReason), `${p.name}: the reason connect is disabled`);
      }
      assert.equal((html.match(/>Not connected</g) ?? []).length, 10);
      // The preferences form, with its defaults.
      assert.ok(selected(html, "none"));
      assert.ok(checked(html, "push_invoices", "on_sent"));
      assert.ok(checked(html, "push_payments"));
      assert.match(html, /<button type="submit"[^>]*>Save preferences<\/button>/);
      assert.match(text, /nothing has been saved yet/);
    });

    test(`${role}: the calendar page names Google Calendar and Microsoft Outlook (Microsoft 365), two-way, with each setting`, async () => {
      const t = await createTenantWithUsers();
      const { status, html, text } = await page(await clientFor(t.users[role]), "calendar");
      assert.equal(status, 200);
      assert.match(text, /Two-way sync with Google Calendar and Microsoft Outlook \(Microsoft 365\)/);
      for (const p of CALENDAR_PROVIDERS) {
        const c = card(html, p.id);
        const ct = pageText(c);
        assert.ok(ct.includes(p.name));
        assert.match(ct, /Two-way sync/);
        assert.match(ct, /Not connected/);
        assert.match(ct, /Which jobs sync/);
        assert.match(ct, /Only jobs assigned to me/);
        assert.match(ct, /All jobs in this account/);
        assert.match(ct, /Busy time blocks online booking/);
        assert.match(ct, /Put customer details in events/);
        assert.match(c, /<button[^>]*disabled=""[^>]*>Connect/);
        assert.ok(ct.includes(p.disabledReason));
        for (const s of p.scopes) assert.ok(ct.includes(s.scope));
      }
      assert.match(text, /Microsoft Outlook \(Microsoft 365\)/);
      assert.ok(checked(html, "google_jobs", "mine") && checked(html, "microsoft_jobs", "mine"), "defaults: my jobs");
      assert.ok(!checked(html, "google_include_customer_details"), "customer details stay out by default");
      assert.match(html, />Save calendar preferences<\/button>/);
    });

    test(`${role}: the LLM page says the assistant is local, offers provider and model, and disables the API key field`, async () => {
      const t = await createTenantWithUsers();
      const { status, html, text } = await page(await clientFor(t.users[role]), "llm");
      assert.equal(status, 200);
      assert.match(text, /The assistant is local\./);
      assert.ok(text.includes(LOCAL_STATEMENT));
      assert.match(text, /calls no language-model provider/);
      for (const p of LLM_PROVIDERS) {
        assert.ok(text.includes(p.name), p.name);
        for (const m of p.models) assert.ok(html.includes(`<option value="${m}"`), `${p.name}: ${m}`);
      }
      assert.ok(selected(html, "local") && selected(html, "local-rules"), "the local assistant is the default");
      const apiKey = html.match(/<input[^>]*name="api_key"[^>]*>/)?.[0] ?? "";
      assert.match(apiKey, /disabled=""/, "the API key input is disabled");
      assert.match(apiKey, /type="password"/);
      assert.ok(text.includes(API_KEY_DISABLED_REASON), "the field says why");
    });
  }
});

describe("permissions (CONTRACT section 2)", () => {
  test("office: 403 on accounting and LLM, calendar readable but read-only; technician: 403 on accounting and LLM, only their feed on calendar", async () => {
    const t = await createTenantWithUsers();
    const office = await clientFor(t.users.office);
    for (const p of ["accounting", "llm"] as const) {
      const res = await page(office, p);
      assert.equal(res.status, 403, `office on ${p}`);
      assert.match(res.text, /You don't have access to this page|does not give access/);
    }
    const cal = await page(office, "calendar");
    assert.equal(cal.status, 200);
    assert.match(cal.text, /only an owner or admin can change them/);
    assert.match(cal.html, /<fieldset[^>]*disabled=""/);
    assert.doesNotMatch(cal.html, /Save calendar preferences/, "no save button for a viewer");

    const tech = await clientFor(t.users.technician);
    for (const p of ["accounting", "llm"] as const)
      assert.equal((await page(tech, p)).status, 403, `technician on ${p}`);
    // CONTRACT section 13: a technician opens the calendar page for their own feed link only,
    // never the integration preferences.
    const techCal = await page(tech, "calendar");
    assert.equal(techCal.status, 200);
    assert.match(techCal.text, /Subscribe in your calendar/);
    assert.doesNotMatch(techCal.text, /Microsoft 365|Two-way sync|Which jobs sync|Save calendar preferences/);
  });

  test("signed out: each page redirects to login", async () => {
    const { Client } = await import("../helpers/client");
    for (const p of PAGES) {
      const res = await new Client().get(path(p));
      await res.text();
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), `/login?redirectTo=${encodeURIComponent(path(p))}`);
    }
  });

  test("a save without manage_integrations is 403 and stores nothing (office on calendar; office and technician everywhere)", async () => {
    const t = await createTenantWithUsers();
    for (const role of ["office", "technician"] as const) {
      const c = await clientFor(t.users[role]);
      for (const p of PAGES) {
        const res = await save(c, p, VALID[p]);
        assert.equal(res.status, 403, `${role} saving ${p}`);
        assert.match(res.text, /You don't have access|does not give access/);
      }
    }
    assert.equal((await rows(`SELECT 1 FROM tenant_settings WHERE tenant_id = $1`, [t.id])).length, 0);
  });

  test("a save without _csrf is refused (403) and stores nothing", async () => {
    const t = await createTenantWithUsers();
    const c = await clientFor(t.users.owner);
    for (const p of PAGES) assert.equal((await save(c, p, VALID[p], { csrf: false })).status, 403);
    assert.equal((await rows(`SELECT 1 FROM tenant_settings WHERE tenant_id = $1`, [t.id])).length, 0);
  });
});

describe("saving preferences", () => {
  for (const p of PAGES) {
    test(`${p}: a save persists, answers 303 with a confirmation, and the page shows it after reload`, async () => {
      const t = await createTenantWithUsers();
      const c = await clientFor(t.users.admin);
      const res = await save(c, p, VALID[p]);
      assert.equal(res.status, 303);
      assert.equal(res.location, path(p));
      const row = await settingsRow(t.id, p);
      assert.deepEqual(row?.value, STORED[p]);
      assert.equal(row?.updated_by, t.users.admin.id);

      const after = await page(c, p);
      assert.equal(after.status, 200);
      assert.ok(after.text.includes(SAVED_MESSAGE[p]), "the confirmation is shown");
      assert.ok(after.text.includes(`by ${t.users.admin.name}`), "who saved it");
      if (p === "accounting") {
        assert.ok(selected(after.html, "xero"));
        assert.ok(checked(after.html, "push_invoices", "on_paid"));
        assert.ok(!checked(after.html, "push_payments"), "an unticked box is saved as off");
      } else if (p === "calendar") {
        assert.ok(checked(after.html, "google_enabled") && !checked(after.html, "microsoft_enabled"));
        assert.ok(checked(after.html, "google_jobs", "all") && checked(after.html, "microsoft_jobs", "mine"));
        assert.ok(
          checked(after.html, "google_busy_blocks_booking") && !checked(after.html, "microsoft_busy_blocks_booking"),
        );
        assert.ok(
          checked(after.html, "microsoft_include_customer_details") &&
            !checked(after.html, "google_include_customer_details"),
        );
      } else {
        assert.ok(selected(after.html, "anthropic") && selected(after.html, "claude-haiku-4-5"));
      }
      // The confirmation is shown once.
      assert.ok(!(await page(c, p)).text.includes(SAVED_MESSAGE[p]));
    });
  }

  test("saving again replaces the stored preferences (one row per tenant and area)", async () => {
    const t = await createTenantWithUsers();
    const c = await clientFor(t.users.owner);
    assert.equal((await save(c, "accounting", VALID.accounting)).status, 303);
    assert.equal(
      (await save(c, "accounting", { preferred_provider: "netsuite", push_invoices: "on_sent", push_payments: "on" }))
        .status,
      303,
    );
    const all = await rows(`SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'accounting'`, [t.id]);
    assert.deepEqual(all, [{ value: { preferredProvider: "netsuite", pushInvoices: "on_sent", pushPayments: true } }]);
    assert.ok(selected((await page(c, "accounting")).html, "netsuite"));
  });

  const INVALID: Array<{ p: Page; body: Record<string, string>; field: string; message: RegExp }> = [
    {
      p: "accounting",
      body: { ...VALID.accounting, preferred_provider: "quickbooks-premium" },
      field: "preferred_provider",
      message: /Unknown accounting provider "quickbooks-premium"/,
    },
    {
      p: "accounting",
      body: { ...VALID.accounting, push_invoices: "on_draft" },
      field: "push_invoices",
      message: /Unknown invoice push option "on_draft"/,
    },
    {
      p: "calendar",
      body: { ...VALID.calendar, google_jobs: "everyone" },
      field: "google_jobs",
      message: /Unknown which jobs sync to Google Calendar "everyone"/,
    },
    {
      p: "calendar",
      body: { ...VALID.calendar, microsoft_enabled: "maybe" },
      field: "microsoft_enabled",
      message: /Expected a checkbox value/,
    },
    {
      p: "llm",
      body: { provider: "skynet", model: "t-800" },
      field: "provider",
      message: /Unknown language-model provider "skynet"/,
    },
    {
      p: "llm",
      body: { provider: "openai", model: "claude-haiku-4-5" },
      field: "model",
      message: /Model "claude-haiku-4-5" is not offered by OpenAI/,
    },
  ];
  for (const { p, body, field, message } of INVALID) {
    test(`${p}: an invalid ${field} is refused (422) with the message beside the field, and nothing is stored`, async () => {
      const t = await createTenantWithUsers();
      const c = await clientFor(t.users.owner);
      const res = await save(c, p, body);
      assert.equal(res.status, 422);
      assert.match(fieldError(res.html, field), message);
      assert.match(res.text, /Nothing was saved/);
      assert.equal(await settingsRow(t.id, p), undefined);
    });
  }

  test("an invalid save leaves earlier preferences untouched", async () => {
    const t = await createTenantWithUsers();
    const c = await clientFor(t.users.owner);
    assert.equal((await save(c, "calendar", VALID.calendar)).status, 303);
    assert.equal(
      (await save(c, "calendar", { ...VALID.calendar, google_jobs: "nobody", google_enabled: "" })).status,
      422,
    );
    assert.deepEqual((await settingsRow(t.id, "calendar"))?.value, STORED.calendar);
  });
});

describe("no route accepts or stores an API key or OAuth secret", () => {
  const SECRET_FIELDS = ["api_key", "apiKey", "client_secret", "access_token", "refresh_token", "password"];
  for (const p of PAGES) {
    test(`${p}: every secret-looking field is refused (422), never stored, never echoed back`, async () => {
      const t = await createTenantWithUsers();
      const c = await clientFor(t.users.owner);
      for (const field of SECRET_FIELDS) {
        const secret = field === "api_key" ? `sk-${randomUUID()}` : `secret-${randomUUID()}`;
        const res = await save(c, p, { ...VALID[p], [field]: secret });
        assert.equal(res.status, 422, `${p} with ${field}`);
        assert.ok(!res.raw.includes(secret), `${p} does not echo ${field} back, not even in the hydration data`);
        assert.ok(res.text.includes(SECRET_FIELD_MESSAGE), `${p} says why ${field} was refused`);
        const found = await rows(`SELECT tenant_id FROM tenant_settings WHERE value::text LIKE '%' || $1 || '%'`, [
          secret,
        ]);
        assert.equal(found.length, 0, `${field} is stored nowhere`);
      }
      assert.equal(await settingsRow(t.id, p), undefined, "the refused saves stored nothing");
    });
  }

  test("llm: a posted api_key gets its message beside the (disabled) API key field", async () => {
    const t = await createTenantWithUsers();
    const res = await save(await clientFor(t.users.owner), "llm", { ...VALID.llm, api_key: "sk-live-abc123" });
    assert.equal(res.status, 422);
    assert.ok(fieldError(res.html, "api_key").includes(SECRET_FIELD_MESSAGE));
  });
});

describe("tenant isolation", () => {
  test("each tenant sees only its own saved preferences", async () => {
    const { a, b } = await twoTenants();
    const ca = await clientFor(a.users.owner);
    const cb = await clientFor(b.users.owner);
    assert.equal((await save(ca, "accounting", { preferred_provider: "xero", push_invoices: "on_paid" })).status, 303);
    assert.equal(
      (await save(cb, "accounting", { preferred_provider: "myob", push_invoices: "on_sent", push_payments: "on" }))
        .status,
      303,
    );
    assert.equal((await save(ca, "llm", { provider: "openai", model: "gpt-4o" })).status, 303);

    const pa = await page(ca, "accounting");
    assert.ok(selected(pa.html, "xero") && !selected(pa.html, "myob"));
    assert.ok(pa.text.includes(a.users.owner.name) && !pa.text.includes(b.users.owner.name));
    const pb = await page(cb, "accounting");
    assert.ok(selected(pb.html, "myob") && !selected(pb.html, "xero"));
    assert.ok(checked(pb.html, "push_invoices", "on_sent"));

    // B never saved LLM preferences: it sees the defaults, not A's choice.
    const lb = await page(cb, "llm");
    assert.ok(selected(lb.html, "local") && !selected(lb.html, "gpt-4o"));
    assert.match(lb.text, /nothing has been saved yet/);

    assert.deepEqual((await settingsRow(a.id, "accounting"))?.value, {
      preferredProvider: "xero",
      pushInvoices: "on_paid",
      pushPayments: false,
    });
    assert.deepEqual((await settingsRow(b.id, "accounting"))?.value, {
      preferredProvider: "myob",
      pushInvoices: "on_sent",
      pushPayments: true,
    });
    assert.equal(await settingsRow(b.id, "llm"), undefined);
  });
});
