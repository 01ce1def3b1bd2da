// Property tests (fast-check, fixed seeds, bounded runs) for every zod schema of the app:
// (a) whatever arrives, safeParse answers success or a ZodError with messages, never throws;
// (b) valid generated input is accepted and normalised as the services expect;
// (c) specific wrong inputs are refused, naming the field.
// SCHEMAS_TESTED lists them; the last test fails when app/ exports a schema not in the list.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { z } from "zod";
import {
  chooseBusinessSchema,
  emailSchema,
  loginSchema,
  logoutFormSchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordSchema,
  setPasswordSchema,
  signupSchema,
} from "../../app/services/accounts/schemas";
import { ASSISTANT_MODES, assistantInputSchema, DETAILS_MAX, JOB_TITLE_MAX } from "../../app/services/assistant/schema";
import { normaliseEvent } from "../../app/services/billing/events.server";
import { IMPORT_COLUMNS, type ImportType } from "../../app/services/import/columns";
import { mapUploadSchema } from "../../app/services/import/mapping/schema";
import { commitPreviewSchema, importUploadSchema, undoImportSchema } from "../../app/services/import/schemas";
import { propertySchema } from "../../app/services/customers/property-schema";
import {
  customerSchema,
  invoiceSchema,
  jobSchema,
  quoteSchema,
  ROW_SCHEMAS,
  TEAM_ROLES,
  teamMemberSchema,
} from "../../app/services/import/validate.server";
import { ACCOUNTING_PROVIDER_IDS } from "../../app/services/integrations/accounting";
import { CALENDAR_JOB_SCOPES } from "../../app/services/integrations/calendar";
import { LLM_PROVIDERS } from "../../app/services/integrations/llm";
import {
  accountingFormSchema,
  accountingPrefsToForm,
  calendarFormSchema,
  calendarPrefsToForm,
  checkbox,
  llmFormSchema,
  llmPrefsToForm,
  loadAccountingPrefs,
  loadCalendarPrefs,
  loadLlmPrefs,
  NO_ACCOUNTING_PROVIDER,
  PUSH_INVOICE_TRIGGERS,
  SETTINGS_FORMS,
} from "../../app/services/integrations/preferences";
import {
  bookingRequestSchema,
  paymentSchema,
  portalLinkDaysSchema,
  portalLinkFormSchema,
  portalLinkRevokeSchema,
  quoteDecisionSchema,
} from "../../app/services/portal/schemas";
import { TIME_WINDOWS } from "../../app/services/portal/types";
import { rowSchema } from "../../app/services/import/cells";
import { CUSTOMER_SPEC } from "../../app/services/customers/schema";
import {
  discountFields,
  lineItemFields,
  lineItemSchema,
  lineItemsSchema,
} from "../../app/services/documents/line-items";
import { priceBookItemSchema, priceFields } from "../../app/services/documents/price-book-form";
import { quoteFormSchema } from "../../app/services/quotes/quote-form";
import { taxGroupSchema, taxRateSchema } from "../../app/services/taxes/schemas";
import { customerListSchema } from "../../app/services/customers/customers.server";
import { invoiceFormSchema, officePaymentSchema, voidInvoiceFormSchema } from "../../app/services/invoices/schemas";
import { jobActionSchema, jobFormSchema } from "../../app/services/jobs/schemas";
import { jobBillingSchema, jobItemIdSchema, jobItemSchema } from "../../app/services/jobs/items-form";
import { visitEditSchema } from "../../app/services/visits/edit-schema";
import { addVisitSchema, visitScheduleSchema } from "../../app/services/visits/schemas";
import { addEntrySchema, changeEntrySchema, weekActionSchema, weekField } from "../../app/services/timesheets/schemas";
import { repeatFields } from "../../app/services/visits/repeat";
import { accountantSettingsSchema } from "../../app/services/integrations/accountant-settings";
import { convertRequestSchema } from "../../app/services/booking-requests/convert.server";
import { boardParamsSchema } from "../../app/services/schedule/board.server";
import {
  calendarFeedFormSchema,
  calendarFeedRevokeSchema,
  scheduleFormSchema,
} from "../../app/services/schedule/schemas";
import { invoiceListSchema, quoteListSchema } from "../../app/services/records/quotes-invoices.server";
import { jobListSchema } from "../../app/services/records/jobs.server";
import { listSchemaBase } from "../../app/services/records/list-params";
import { requestListSchema, triageSchema } from "../../app/services/booking-requests/requests.server";
import {
  CUSTOMER_FILTERS,
  INVOICE_FILTERS,
  JOB_FILTERS,
  QUOTE_FILTERS,
  REQUEST_FILTERS,
} from "../../app/services/records/statuses";
import {
  CLOCK_ACTIONS,
  FIELD_STATUSES,
  MAX_MUTATIONS,
  NOTE_MAX,
  SIGNER_NAME_MAX,
} from "../../app/services/field/protocol";
import { ARGS_SCHEMAS, fieldFormSchema, mutationSchema, pushSchema } from "../../app/services/field/mutation-schemas";
import { photoUploadSchema } from "../../app/services/field/schemas";
import { addMemberSchema, changeRoleSchema, roleSchema } from "../../app/services/team/team.server";
import { inviteFormSchema, teamFormSchema } from "../../app/services/team/schemas";
import { companySettingsSchema, contrastWithWhite, currencies } from "../../app/services/company/schemas";
import { timeZoneField, timeZones } from "../../app/services/company/time-zones";
import { ConfigError, parseEnv } from "../../app/utils/env.server";
import { ROLES } from "../../app/utils/permissions";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TODAY = "2026-06-16";
const LAST_DATE = "2027-06-16";

type Entry = { module: string; name: string; schemas: Record<string, z.ZodTypeAny>; keys?: readonly string[] };
const one = (module: string, name: string, schema: z.ZodTypeAny, keys?: readonly string[]): Entry => ({
  module,
  name,
  schemas: { [name]: schema },
  keys,
});
const columns = (t: ImportType) => IMPORT_COLUMNS[t].map((c) => c.name);
const IMPORT_COLUMNS_TYPES = Object.keys(IMPORT_COLUMNS) as ImportType[];

/** Every exported zod schema of app/ (a factory is called with fixed arguments, a map gives each of its schemas). */
export const SCHEMAS_TESTED: readonly Entry[] = [
  one("app/services/accounts/schemas.ts", "emailSchema", emailSchema),
  one("app/services/accounts/schemas.ts", "passwordSchema", passwordSchema),
  one("app/services/accounts/schemas.ts", "signupSchema", signupSchema),
  one("app/services/accounts/schemas.ts", "setPasswordSchema", setPasswordSchema),
  one("app/services/accounts/schemas.ts", "loginSchema", loginSchema),
  one("app/services/accounts/schemas.ts", "chooseBusinessSchema", chooseBusinessSchema),
  one("app/services/assistant/schema.ts", "assistantInputSchema", assistantInputSchema),
  // engine.ts re-exports the same schema (the routes and tests import it from the engine).
  one("app/services/assistant/engine.ts", "assistantInputSchema", assistantInputSchema),
  one("app/services/customers/schema.ts", "customerSchema", customerSchema, columns("customers")),
  // validate.server.ts re-exports the customer row schema from the customer field list.
  one("app/services/import/validate.server.ts", "customerSchema", customerSchema, columns("customers")),
  one("app/services/invoices/schemas.ts", "officePaymentSchema", officePaymentSchema),
  one("app/services/invoices/schemas.ts", "invoiceFormSchema", invoiceFormSchema, [
    "customerId",
    "issueDate",
    "dueDate",
    "currency",
    "notes",
    "items",
    "discountType",
    "discountValue",
  ]),
  one("app/services/jobs/schemas.ts", "jobFormSchema", jobFormSchema),
  one("app/services/jobs/schemas.ts", "jobActionSchema", jobActionSchema),
  one("app/services/jobs/items-form.ts", "jobItemSchema", jobItemSchema, [
    "description",
    "quantity",
    "unitPrice",
    "taxRate",
    "perVisit",
  ]),
  one("app/services/jobs/items-form.ts", "jobBillingSchema", jobBillingSchema, ["billing"]),
  one("app/services/jobs/items-form.ts", "jobItemIdSchema", jobItemIdSchema, ["id", "perVisit"]),
  one("app/services/visits/edit-schema.ts", "visitEditSchema", visitEditSchema),
  one("app/services/visits/schemas.ts", "addVisitSchema", addVisitSchema),
  one("app/services/visits/schemas.ts", "visitScheduleSchema", visitScheduleSchema),
  one("app/services/timesheets/schemas.ts", "weekField", weekField),
  one("app/services/timesheets/schemas.ts", "addEntrySchema", addEntrySchema, [
    "userId",
    "kind",
    "start",
    "end",
    "visitId",
    "reason",
  ]),
  one("app/services/timesheets/schemas.ts", "changeEntrySchema", changeEntrySchema, [
    "intent",
    "userId",
    "kind",
    "start",
    "end",
    "visitId",
    "reason",
  ]),
  one("app/services/timesheets/schemas.ts", "weekActionSchema", weekActionSchema, ["userId", "week", "reason"]),
  { module: "app/services/visits/repeat.ts", name: "repeatFields", schemas: repeatFields },
  one("app/services/integrations/accountant-settings.ts", "accountantSettingsSchema", accountantSettingsSchema),
  one("app/services/booking-requests/convert.server.ts", "convertRequestSchema", convertRequestSchema, ["to"]),
  one("app/services/schedule/board.server.ts", "boardParamsSchema", boardParamsSchema),
  one("app/services/schedule/schemas.ts", "scheduleFormSchema", scheduleFormSchema),
  one(
    "app/services/import/cells.ts",
    "rowSchema",
    rowSchema(CUSTOMER_SPEC, (r) => r),
    columns("customers"),
  ),
  one("app/services/documents/line-items.ts", "lineItemSchema", lineItemSchema, [
    "description",
    "quantity",
    "unitPrice",
    "taxRate",
    "taxRateId",
    "discountType",
    "discountValue",
    "optional",
    "option",
  ]),
  one("app/services/documents/line-items.ts", "lineItemsSchema", lineItemsSchema),
  one("app/services/documents/line-items.ts", "lineItemFields", lineItemFields),
  { module: "app/services/documents/line-items.ts", name: "discountFields", schemas: discountFields },
  one("app/services/taxes/schemas.ts", "taxRateSchema", taxRateSchema, ["id", "name", "rate", "isDefault"]),
  one("app/services/taxes/schemas.ts", "taxGroupSchema", taxGroupSchema, ["id", "name", "rateIds", "isDefault"]),
  one("app/services/documents/price-book-form.ts", "priceBookItemSchema", priceBookItemSchema, [
    "id",
    "kind",
    "name",
    "description",
    "unitPrice",
    "taxRate",
  ]),
  { module: "app/services/documents/price-book-form.ts", name: "priceFields", schemas: priceFields },
  one("app/services/quotes/quote-form.ts", "quoteFormSchema", quoteFormSchema, [
    "customerId",
    "title",
    "validUntil",
    "currency",
    "notes",
    "requestId",
    "items",
    "deposit",
    "discountType",
    "discountValue",
  ]),
  one("app/services/import/validate.server.ts", "jobSchema", jobSchema, columns("jobs")),
  one("app/services/import/validate.server.ts", "quoteSchema", quoteSchema, columns("quotes")),
  one("app/services/import/validate.server.ts", "invoiceSchema", invoiceSchema, columns("invoices")),
  one("app/services/import/validate.server.ts", "teamMemberSchema", teamMemberSchema, columns("team")),
  {
    module: "app/services/import/validate.server.ts",
    name: "ROW_SCHEMAS",
    schemas: ROW_SCHEMAS as Record<string, z.ZodTypeAny>,
  },
  // row-schemas.ts holds them (issue 26's split); validate.server.ts re-exports them.
  one("app/services/import/row-schemas.ts", "customerSchema", customerSchema, columns("customers")),
  one("app/services/import/row-schemas.ts", "jobSchema", jobSchema, columns("jobs")),
  one("app/services/import/row-schemas.ts", "quoteSchema", quoteSchema, columns("quotes")),
  one("app/services/import/row-schemas.ts", "invoiceSchema", invoiceSchema, columns("invoices")),
  one("app/services/import/row-schemas.ts", "teamMemberSchema", teamMemberSchema, columns("team")),
  {
    module: "app/services/import/row-schemas.ts",
    name: "ROW_SCHEMAS",
    schemas: ROW_SCHEMAS as Record<string, z.ZodTypeAny>,
  },
  one("app/services/import/mapping/schema.ts", "mapUploadSchema", mapUploadSchema),
  one("app/services/import/schemas.ts", "importUploadSchema", importUploadSchema, ["type"]),
  one("app/services/import/schemas.ts", "commitPreviewSchema", commitPreviewSchema, ["previewId"]),
  one("app/services/import/schemas.ts", "undoImportSchema", undoImportSchema, ["runId"]),
  one("app/services/customers/property-schema.ts", "propertySchema", propertySchema),
  one("app/services/integrations/preferences.ts", "checkbox", checkbox),
  one("app/services/integrations/preferences.ts", "accountingFormSchema", accountingFormSchema),
  one("app/services/integrations/preferences.ts", "calendarFormSchema", calendarFormSchema),
  one("app/services/integrations/preferences.ts", "llmFormSchema", llmFormSchema),
  { module: "app/services/integrations/preferences.ts", name: "SETTINGS_FORMS", schemas: SETTINGS_FORMS },
  one("app/services/portal/schemas.ts", "portalLinkDaysSchema", portalLinkDaysSchema),
  one("app/services/portal/schemas.ts", "portalLinkFormSchema", portalLinkFormSchema),
  one("app/services/portal/schemas.ts", "portalLinkRevokeSchema", portalLinkRevokeSchema),
  one("app/services/portal/schemas.ts", "quoteDecisionSchema", quoteDecisionSchema),
  one("app/services/portal/schemas.ts", "paymentSchema", paymentSchema),
  one("app/services/portal/schemas.ts", "bookingRequestSchema", bookingRequestSchema(TODAY, LAST_DATE)),
  one("app/services/records/list-params.ts", "listSchemaBase", listSchemaBase),
  one("app/services/customers/customers.server.ts", "customerListSchema", customerListSchema),
  one("app/services/records/quotes-invoices.server.ts", "quoteListSchema", quoteListSchema),
  one("app/services/records/quotes-invoices.server.ts", "invoiceListSchema", invoiceListSchema),
  one("app/services/records/jobs.server.ts", "jobListSchema", jobListSchema),
  one("app/services/booking-requests/requests.server.ts", "requestListSchema", requestListSchema),
  one("app/services/booking-requests/requests.server.ts", "triageSchema", triageSchema),
  one("app/services/field/mutation-schemas.ts", "mutationSchema", mutationSchema),
  one("app/services/field/mutation-schemas.ts", "pushSchema", pushSchema),
  one("app/services/field/mutation-schemas.ts", "fieldFormSchema", fieldFormSchema),
  one("app/services/field/schemas.ts", "photoUploadSchema", photoUploadSchema, ["takenAt"]),
  { module: "app/services/field/mutation-schemas.ts", name: "ARGS_SCHEMAS", schemas: ARGS_SCHEMAS },
  one("app/services/team/team.server.ts", "roleSchema", roleSchema),
  one("app/services/team/team.server.ts", "changeRoleSchema", changeRoleSchema),
  one("app/services/team/team.server.ts", "addMemberSchema", addMemberSchema),
  // team.server.ts re-exports the forms' schemas from schemas.ts (the browser validates with them too).
  one("app/services/team/schemas.ts", "roleSchema", roleSchema),
  one("app/services/team/schemas.ts", "changeRoleSchema", changeRoleSchema),
  one("app/services/team/schemas.ts", "addMemberSchema", addMemberSchema),
  one("app/services/team/schemas.ts", "teamFormSchema", teamFormSchema, ["intent", "userId", "role", "name", "email"]),
  one("app/services/team/schemas.ts", "inviteFormSchema", inviteFormSchema),
  one("app/services/invoices/schemas.ts", "voidInvoiceFormSchema", voidInvoiceFormSchema),
  one("app/services/schedule/schemas.ts", "calendarFeedFormSchema", calendarFeedFormSchema),
  one("app/services/schedule/schemas.ts", "calendarFeedRevokeSchema", calendarFeedRevokeSchema),
  one("app/services/accounts/schemas.ts", "logoutFormSchema", logoutFormSchema),
  one("app/services/company/time-zones.ts", "timeZoneField", timeZoneField),
  one("app/services/company/schemas.ts", "companySettingsSchema", companySettingsSchema, [
    "businessName",
    "phone",
    "email",
    "address",
    "timeZone",
    "currency",
    "defaultTaxRate",
    "paymentTermsDays",
    "quoteValidityDays",
    "reminderQuoteDays",
    "reminderInvoiceBeforeDays",
    "reminderInvoiceAfterDays",
    "reminderVisit",
    "brandColor",
    "checklistRequired",
    "weekStartsOn",
    "overtimeWeeklyHours",
    "overtimeDailyHours",
  ]),
];

// ------------------------------------------------------------------------- generators

/** Anything a form, a query string or a JSON body could hand a schema, and some things they could not. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    undefined,
    null,
    Number.NaN,
    Infinity,
    -Infinity,
    -0,
    "",
    " ",
    "\u0000",
    "\ud800",
    "on",
    "true",
    "0",
    "1e400",
    "__proto__",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.anything({
    maxDepth: 2,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withBoxedValues: true,
    withSparseArray: true,
  }),
);

/** The object keys a schema reads (through effects, pipes, defaults and unions). */
function keysOf(schema: z.ZodTypeAny): string[] {
  const def = schema._def as Record<string, unknown>;
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodDiscriminatedUnion)
    return [...new Set((schema.options as z.ZodObject<z.ZodRawShape>[]).flatMap((o) => Object.keys(o.shape)))];
  for (const inner of [def.schema, def.in, def.innerType]) if (inner instanceof z.ZodType) return keysOf(inner);
  return [];
}

/** Objects with the schema's own keys (and a few others) holding junk: they get past the first check. */
const shaped = (keys: readonly string[]) =>
  fc.dictionary(fc.constantFrom(...keys, "_csrf", "extra", "__proto__", "constructor"), junk, {
    maxKeys: keys.length + 2,
  });

const pad = fc.constantFrom("", " ", "  ", "\t", "\n ");
const padded = (s: fc.Arbitrary<string>) =>
  fc.tuple(pad, s, pad).map(([a, v, b]) => ({ raw: `${a}${v}${b}`, trimmed: v }));
/** Text without surrounding white space (so `.trim()` gives it back), of 1..max characters. */
const trimmedText = (max: number) =>
  fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim() === s && s.length > 0 && !s.includes("\u0000"));
const emailAddress = fc
  .tuple(
    fc.stringMatching(/^[a-zA-Z0-9_+-]{1,20}$/),
    fc.array(fc.stringMatching(/^[a-zA-Z0-9]{1,12}$/), { minLength: 1, maxLength: 3 }),
    fc.stringMatching(/^[a-zA-Z]{2,6}$/),
  )
  .map(([local, labels, tld]) => `${local}@${labels.join(".")}.${tld}`);
const isoDateTime = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());
const dayIn = (from: string, to: string) =>
  fc
    .integer({ min: Date.parse(from), max: Date.parse(to) })
    .map((ms) => new Date(Math.floor(ms / 86400_000) * 86400_000).toISOString().slice(0, 10));

const RUNS = { numRuns: 200 };
const check = <T>(seed: number, prop: fc.IProperty<T> | fc.IAsyncProperty<T>, runs = RUNS) =>
  fc.assert(prop as fc.IProperty<T>, { seed, ...runs });

/** safeParse's answer, after checking it is a success or a ZodError whose every issue has a message. */
function parsed(schema: z.ZodTypeAny, input: unknown): z.SafeParseReturnType<unknown, unknown> {
  let r: z.SafeParseReturnType<unknown, unknown>;
  try {
    r = schema.safeParse(input);
  } catch (error) {
    assert.fail(`safeParse threw ${String(error)} for ${fc.stringify(input)}`);
  }
  if (!r.success) {
    assert.ok(r.error instanceof z.ZodError, "a ZodError");
    assert.ok(r.error.issues.length > 0, "with issues");
    for (const i of r.error.issues)
      assert.ok(typeof i.message === "string" && i.message.trim().length > 0, `a message for ${i.path.join(".")}`);
  }
  return r;
}

function accepts(schema: z.ZodTypeAny, input: unknown): unknown {
  const r = parsed(schema, input);
  assert.ok(r.success, `refused ${fc.stringify(input)}: ${r.success ? "" : JSON.stringify(r.error.issues)}`);
  return r.data;
}

/** Refused, with an issue on `field` (the first path element; "" for the value itself). */
function refuses(schema: z.ZodTypeAny, input: unknown, field = "") {
  const r = parsed(schema, input);
  assert.ok(!r.success, `accepted ${fc.stringify(input)}`);
  const fields = r.error.issues.map((i) => String(i.path[0] ?? ""));
  assert.ok(fields.includes(field), `expected an issue on "${field}", got ${JSON.stringify(r.error.issues)}`);
}

// ------------------------------------------------------------------------- (a) for all

describe("(a) every schema: safeParse never throws, whatever it is given", () => {
  for (const entry of SCHEMAS_TESTED) {
    for (const [name, schema] of Object.entries(entry.schemas)) {
      const label = entry.name === name ? name : `${entry.name}.${name}`;
      it(label, () => {
        const keys = entry.keys ?? keysOf(schema);
        const input = keys.length ? fc.oneof(junk, shaped(keys)) : junk;
        check(
          label.length * 101,
          fc.property(input, (v) => void parsed(schema, v)),
          { numRuns: 300 },
        );
      });
    }
  }

  it("the schemas behind parseEnv: any environment gives an Env or a ConfigError naming the variable", () => {
    const names = [
      "NODE_ENV",
      "DATABASE_URL",
      "PORT",
      "APP_URL",
      "DB_POOL_MAX",
      "LOG_LEVEL",
      "BILLING_STRIPE_WEBHOOK_SECRET",
      "BILLING_STRIPE_PRICE_PLANS",
      "BILLING_PADDLE_PRICE_PLANS",
    ];
    const env = fc.record({
      // Always given, so a valid environment never writes generated secrets to disk.
      SESSION_SECRET: fc.oneof(fc.constant("0123456789abcdef0123"), fc.string({ maxLength: 30 })),
      PORTAL_TOKEN_SECRET: fc.constant("fedcba9876543210fedcba"),
      more: fc.dictionary(
        fc.constantFrom(...names),
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom("production", "5432", "postgres://x", "price_1:pro", "-1", "1e9"),
        ),
      ),
    });
    check(
      11,
      fc.property(env, ({ more, ...secrets }) => {
        try {
          const e = parseEnv({ ...more, ...secrets, DATA_DIR: "/nonexistent-do-not-write" });
          assert.ok(e.SESSION_SECRET.length > 0 && Number.isInteger(e.PORT));
        } catch (error) {
          assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
          assert.match(error.message, /^Invalid configuration:\n {2}[A-Z_]+/);
        }
      }),
    );
  });

  it("the schemas behind normaliseEvent: any webhook body gives an event or a reason", () => {
    const body = fc.oneof(
      junk,
      fc.record({ id: junk, type: junk, created: junk, data: fc.record({ object: junk }) }),
      fc.record({ event_id: junk, event_type: junk, occurred_at: junk, data: junk }),
    );
    check(
      12,
      fc.property(
        fc.constantFrom("stripe", "paddle") as fc.Arbitrary<"stripe" | "paddle">,
        body,
        (provider, payload) => {
          const r = normaliseEvent(provider, payload);
          assert.ok(r.ok ? typeof r.event.eventId === "string" : typeof r.reason === "string" && r.reason.length > 0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("the schemas behind the stored preferences: any stored value reads back as valid preferences", () => {
    check(
      13,
      fc.property(
        fc.oneof(
          junk,
          shaped(["preferredProvider", "pushInvoices", "pushPayments", "google", "microsoft", "provider", "model"]),
        ),
        (raw) => {
          accepts(accountingFormSchema, accountingPrefsToForm(loadAccountingPrefs(raw)));
          accepts(calendarFormSchema, calendarPrefsToForm(loadCalendarPrefs(raw)));
          accepts(llmFormSchema, llmPrefsToForm(loadLlmPrefs(raw)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ------------------------------------------------------------------------- (b) and (c), per schema

describe("accounts", () => {
  it("emailSchema: trimmed and lower-cased; no @, two @, .. or over 254 characters refused", () => {
    check(
      21,
      fc.property(padded(emailAddress), ({ raw, trimmed }) => {
        assert.equal(accepts(emailSchema, raw), trimmed.toLowerCase());
        refuses(emailSchema, raw.replace("@", ""));
        refuses(emailSchema, raw.replace("@", "@@"));
        refuses(emailSchema, trimmed.replace("@", "@a..b."));
        refuses(emailSchema, `${"a".repeat(250)}${trimmed}`);
      }),
    );
    refuses(emailSchema, undefined);
    refuses(emailSchema, 42);
  });

  it("passwordSchema and setPasswordSchema: 12..128 characters kept as typed (no trimming); shorter or longer refused", () => {
    check(
      22,
      fc.property(
        fc.string({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
        fc.string({ maxLength: PASSWORD_MIN - 1 }),
        (good, short) => {
          assert.equal(accepts(passwordSchema, good), good);
          assert.deepEqual(accepts(setPasswordSchema, { password: good, _csrf: "x" }), { password: good });
          refuses(passwordSchema, short);
          refuses(setPasswordSchema, { password: short }, "password");
          refuses(passwordSchema, good + "x".repeat(PASSWORD_MAX + 1 - good.length));
        },
      ),
    );
  });

  it("signupSchema: names trimmed, email normalised; a blank or too long name refused", () => {
    const input = fc.record({
      businessName: padded(trimmedText(200)),
      name: padded(trimmedText(200)),
      email: padded(emailAddress),
      password: fc.string({ minLength: 12, maxLength: 40 }),
    });
    check(
      23,
      fc.property(input, (i) => {
        const form = {
          businessName: i.businessName.raw,
          name: i.name.raw,
          email: i.email.raw,
          password: i.password,
          _csrf: "t",
        };
        assert.deepEqual(accepts(signupSchema, form), {
          businessName: i.businessName.trimmed,
          name: i.name.trimmed,
          email: i.email.trimmed.toLowerCase(),
          password: i.password,
          timeZone: "UTC",
        });
        assert.equal(
          (accepts(signupSchema, { ...form, timeZone: "America/Chicago" }) as { timeZone: string }).timeZone,
          "America/Chicago",
        );
        refuses(signupSchema, { ...form, timeZone: "Mars/Olympus_Mons" }, "timeZone");
        refuses(signupSchema, { ...form, businessName: "   " }, "businessName");
        refuses(signupSchema, { ...form, name: "n".repeat(201) }, "name");
        refuses(signupSchema, { ...form, email: "not an email" }, "email");
        const { password: _p, ...noPassword } = form;
        refuses(signupSchema, noPassword, "password");
      }),
    );
  });

  it("loginSchema: any non-empty password up to 1024, email normalised, redirectTo passed on; an empty password refused", () => {
    const input = fc.record({
      email: padded(emailAddress),
      password: fc.string({ minLength: 1, maxLength: 1024 }),
      redirectTo: fc.option(fc.string(), { nil: undefined }),
    });
    check(
      24,
      fc.property(input, (i) => {
        const out = accepts(loginSchema, {
          email: i.email.raw,
          password: i.password,
          ...(i.redirectTo === undefined ? {} : { redirectTo: i.redirectTo }),
        });
        assert.deepEqual(out, {
          email: i.email.trimmed.toLowerCase(),
          password: i.password,
          ...(i.redirectTo === undefined ? {} : { redirectTo: i.redirectTo }),
        });
        refuses(loginSchema, { email: i.email.raw, password: "" }, "password");
        refuses(loginSchema, { email: i.email.raw, password: "p".repeat(1025) }, "password");
      }),
    );
  });
});

describe("sign-in: which business", () => {
  it("chooseBusinessSchema: a business id (uuid) is taken as it is; anything else refused beside tenantId", () => {
    check(
      24,
      fc.property(
        fc.uuid(),
        fc.string().filter((s) => !/^[0-9a-f-]{36}$/i.test(s)),
        (id, junk) => {
          assert.deepEqual(accepts(chooseBusinessSchema, { tenantId: id }), { tenantId: id });
          refuses(chooseBusinessSchema, { tenantId: junk }, "tenantId");
          refuses(chooseBusinessSchema, {}, "tenantId");
        },
      ),
    );
  });
});

describe("portal", () => {
  const ACCEPT = ["on", "true", "yes", "1", "ON", "Yes"];

  it("quoteDecisionSchema: approve needs a name (<= 100) and the ticked box; decline takes an optional reason (<= 1000)", () => {
    const input = fc.record({
      quoteId: fc.uuid(),
      name: padded(trimmedText(100)),
      accept: fc.constantFrom(...ACCEPT),
      reason: padded(fc.string({ maxLength: 1000 }).filter((s) => s.trim() === s)),
    });
    check(
      31,
      fc.property(input, (i) => {
        const approve = { quoteId: i.quoteId, decision: "approve", signatureName: i.name.raw, acceptTerms: i.accept };
        const none = { option: null, optionalItems: [], message: "", acceptedTotalCents: null };
        assert.deepEqual(accepts(quoteDecisionSchema, approve), {
          ...approve,
          ...none,
          signatureName: i.name.trimmed,
          reason: "",
        });
        const decline = { quoteId: i.quoteId, decision: "decline", reason: i.reason.raw };
        assert.deepEqual(accepts(quoteDecisionSchema, decline), {
          ...decline,
          ...none,
          signatureName: "",
          reason: i.reason.trimmed,
        });
        refuses(quoteDecisionSchema, { ...approve, acceptTerms: undefined }, "acceptTerms");
        refuses(quoteDecisionSchema, { ...approve, acceptTerms: "no" }, "acceptTerms");
        refuses(quoteDecisionSchema, { ...approve, signatureName: "  " }, "signatureName");
        refuses(quoteDecisionSchema, { ...approve, signatureName: "n".repeat(101) }, "signatureName");
        refuses(quoteDecisionSchema, { ...decline, reason: "r".repeat(1001) }, "reason");
        refuses(quoteDecisionSchema, { ...approve, decision: "maybe" }, "decision");
        // The total the acceptance sentence stated: whole cents, or a stale form.
        assert.equal(
          (accepts(quoteDecisionSchema, { ...approve, acceptedTotalCents: "153800" }) as { acceptedTotalCents: number })
            .acceptedTotalCents,
          153_800,
        );
        refuses(quoteDecisionSchema, { ...approve, acceptedTotalCents: "1538.00" }, "acceptedTotalCents");
      }),
    );
  });

  it("quoteDecisionSchema: the option and the optional items (one id or a list) ride along an approval; a change request needs a message (<= 2000)", () => {
    const input = fc.record({
      quoteId: fc.uuid(),
      option: fc.string({ minLength: 1, maxLength: 100 }).filter((s) => s.trim() === s),
      ids: fc.array(fc.uuid(), { maxLength: 5 }),
      message: padded(trimmedText(2000)),
    });
    check(
      32,
      fc.property(input, (i) => {
        const approve = {
          quoteId: i.quoteId,
          decision: "approve",
          signatureName: "Ann",
          acceptTerms: "on",
          option: i.option,
          optionalItems: i.ids,
        };
        const out = accepts(quoteDecisionSchema, approve) as { option: string | null; optionalItems: string[] };
        assert.equal(out.option, i.option);
        assert.deepEqual(out.optionalItems, [...new Set(i.ids)]);
        if (i.ids.length)
          assert.deepEqual(
            (accepts(quoteDecisionSchema, { ...approve, optionalItems: i.ids[0] }) as { optionalItems: string[] })
              .optionalItems,
            [i.ids[0]],
          );
        const changes = { quoteId: i.quoteId, decision: "changes", message: i.message.raw };
        assert.equal((accepts(quoteDecisionSchema, changes) as { message: string }).message, i.message.trimmed);
        refuses(quoteDecisionSchema, { ...changes, message: "  " }, "message");
        refuses(quoteDecisionSchema, { ...changes, message: "m".repeat(2001) }, "message");
        refuses(quoteDecisionSchema, { ...approve, option: "o".repeat(101) }, "option");
        refuses(quoteDecisionSchema, { ...approve, optionalItems: [{}] }, "optionalItems");
      }),
    );
  });

  it("paymentSchema: amounts as people type them become exact cents; zero, negative, three decimals, words and stale keys refused", () => {
    const key = fc.stringMatching(/^[A-Za-z0-9_-]{16,100}$/);
    const cents = fc.integer({ min: 1, max: 99_999_999_999 });
    const written = fc.tuple(cents, fc.constantFrom("plain", "dollar", "commas", "whole")).map(([c, style]) => {
      const whole = Math.floor(c / 100);
      const frac = String(c % 100).padStart(2, "0");
      if (style === "whole") return { text: String(whole || 1), cents: (whole || 1) * 100 };
      const w = style === "commas" ? whole.toLocaleString("en-US") : String(whole);
      return { text: `${style === "dollar" ? "$" : ""}${w}.${frac}`, cents: c };
    });
    check(
      32,
      fc.property(written, key, fc.uuid(), (amount, idempotencyKey, invoiceId) => {
        assert.deepEqual(accepts(paymentSchema, { invoiceId, amount: ` ${amount.text} `, idempotencyKey }), {
          invoiceId,
          amount: amount.cents,
          idempotencyKey,
        });
        for (const bad of [
          "0",
          "0.00",
          `-${amount.text}`,
          `${amount.text.replace(/\.\d+$/, "")}.123`,
          "ten dollars",
          "",
        ]) {
          refuses(paymentSchema, { invoiceId, amount: bad, idempotencyKey }, "amount");
        }
        refuses(
          paymentSchema,
          { invoiceId, amount: amount.text, idempotencyKey: idempotencyKey.slice(0, 15) },
          "idempotencyKey",
        );
        refuses(paymentSchema, { invoiceId, amount: amount.text }, "idempotencyKey");
      }),
    );
  });

  it("bookingRequestSchema: a date in today..a year, a time window (blank = any), a phone of digits, a property id or none; others refused", () => {
    const schema = bookingRequestSchema(TODAY, LAST_DATE);
    const input = fc.record({
      service: padded(trimmedText(200)),
      date: fc.option(dayIn(TODAY, LAST_DATE), { nil: "" }),
      window: fc.constantFrom("", ...TIME_WINDOWS),
      phone: fc.stringMatching(/^[0-9][0-9 ()+-]{0,38}[0-9]$/),
      address: padded(fc.string({ maxLength: 500 }).filter((s) => s.trim() === s)),
      property: fc.option(fc.uuid(), { nil: "" }),
    });
    check(
      33,
      fc.property(input, (i) => {
        const form = {
          service: i.service.raw,
          preferredDate: i.date,
          timeWindow: i.window,
          phone: i.phone,
          address: i.address.raw,
          propertyId: i.property,
        };
        assert.deepEqual(accepts(schema, form), {
          service: i.service.trimmed,
          description: "",
          preferredDate: i.date,
          timeWindow: i.window || "any",
          address: i.address.trimmed,
          propertyId: i.property,
          phone: i.phone,
        });
        refuses(schema, { ...form, propertyId: "the cabin" }, "propertyId");
        refuses(schema, { ...form, service: " " }, "service");
        refuses(schema, { ...form, preferredDate: "2026-06-15" }, "preferredDate");
        refuses(schema, { ...form, preferredDate: "2027-06-17" }, "preferredDate");
        refuses(schema, { ...form, preferredDate: "2027-02-30" }, "preferredDate");
        refuses(schema, { ...form, timeWindow: "night" }, "timeWindow");
        refuses(schema, { ...form, phone: `${i.phone}; DROP TABLE` }, "phone");
        refuses(schema, { ...form, description: "d".repeat(2001) }, "description");
      }),
    );
  });

  it("portalLinkDaysSchema: 1..90 whole days (30 when absent); 0, 91, fractions and words refused", () => {
    check(
      34,
      fc.property(fc.integer({ min: 1, max: 90 }), (d) => {
        assert.equal(accepts(portalLinkDaysSchema, String(d)), d);
        assert.equal(accepts(portalLinkDaysSchema, d), d);
      }),
    );
    assert.equal(accepts(portalLinkDaysSchema, undefined), 30);
    for (const bad of ["0", "91", "1.5", "ten", "-3", "1e3"]) refuses(portalLinkDaysSchema, bad);
    // z.coerce threw a TypeError here (Number() of an object without a prototype): now a validation error.
    refuses(portalLinkDaysSchema, [Object.create(null)]);
    refuses(portalLinkDaysSchema, true);
  });
});

describe("offline sync", () => {
  const mutation = fc.record(
    {
      id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      type: fc.constantFrom("job.status", "job.note", "job.time_entry", "unknown.type"),
      occurredAt: isoDateTime,
      args: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), {
        maxKeys: 3,
        noNullPrototype: true,
      }),
    },
    { noNullPrototype: true },
  );

  it("pushSchema and mutationSchema: a well-formed push comes back unchanged; bad ids, times, client ids and sizes refused", () => {
    check(
      41,
      fc.property(fc.uuid(), fc.array(mutation, { maxLength: 5 }), (clientId, mutations) => {
        assert.deepEqual(accepts(pushSchema, { clientId, mutations }), { clientId, mutations });
        refuses(pushSchema, { clientId: "not-a-uuid", mutations }, "clientId");
        refuses(pushSchema, { clientId, mutations: {} }, "mutations");
        refuses(pushSchema, { clientId }, "mutations");
        for (const m of mutations) {
          assert.deepEqual(accepts(mutationSchema, m), m);
          refuses(mutationSchema, { ...m, id: 0 }, "id");
          refuses(mutationSchema, { ...m, id: (m.id % 1000) + 0.5 }, "id");
          refuses(mutationSchema, { ...m, id: Number.MAX_SAFE_INTEGER + 2 }, "id");
          refuses(mutationSchema, { ...m, id: String(m.id) }, "id");
          refuses(mutationSchema, { ...m, occurredAt: m.occurredAt.replace("Z", "") }, "occurredAt");
          refuses(mutationSchema, { ...m, type: "" }, "type");
          refuses(mutationSchema, { ...m, args: [] }, "args");
        }
      }),
      { numRuns: 100 },
    );
    const many = Array.from({ length: MAX_MUTATIONS + 1 }, (_, i) => ({
      id: i + 1,
      type: "job.note",
      occurredAt: "2026-06-16T09:30:00Z",
      args: {},
    }));
    refuses(pushSchema, { clientId: "3f1c2b8e-5d7a-4c1e-9a2b-0c4d5e6f7a8b", mutations: many }, "mutations");
  });

  it("ARGS_SCHEMAS: statuses, notes (trimmed, storable, <= 5000) and time entries (end not before start, at most 24 hours)", () => {
    const note = trimmedText(NOTE_MAX).filter((s) => !/[\ud800-\udfff]/.test(s));
    check(
      42,
      fc.property(
        fc.stringMatching(/^[0-9a-f-]{1,100}$/),
        fc.constantFrom(...FIELD_STATUSES),
        padded(note),
        isoDateTime,
        fc.nat(86400_000),
        (jobId, status, body, start, ms) => {
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.status"], { jobId, status }), { jobId, status });
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.note"], { jobId, body: body.raw }), { jobId, body: body.trimmed });
          const end = new Date(Date.parse(start) + ms).toISOString();
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.time_entry"], { jobId, startedAt: start, endedAt: end }), {
            jobId,
            startedAt: start,
            endedAt: end,
          });
          refuses(ARGS_SCHEMAS["job.status"], { jobId, status: "scheduled" }, "status");
          refuses(ARGS_SCHEMAS["job.status"], { jobId: "", status }, "jobId");
          refuses(ARGS_SCHEMAS["job.note"], { jobId, body: "  " }, "body");
          refuses(ARGS_SCHEMAS["job.note"], { jobId, body: `${body.trimmed}\u0000` }, "body");
          refuses(ARGS_SCHEMAS["job.note"], { jobId, body: `${body.trimmed}\ud800` }, "body");
          refuses(ARGS_SCHEMAS["job.note"], { jobId, body: "n".repeat(NOTE_MAX + 1) }, "body");
          if (ms > 0) refuses(ARGS_SCHEMAS["job.time_entry"], { jobId, startedAt: end, endedAt: start }, "endedAt");
          // At most 24 hours (issue 24): a day and one millisecond more is refused.
          refuses(
            ARGS_SCHEMAS["job.time_entry"],
            { jobId, startedAt: start, endedAt: new Date(Date.parse(start) + 86400_001 + ms).toISOString() },
            "endedAt",
          );
        },
      ),
    );
  });

  it("ARGS_SCHEMAS: the clock (start, stop), the checklist (an item's id, ticked or not) and the signature (a name, a PNG data URL of at most 256 KiB)", () => {
    const png =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const name = trimmedText(SIGNER_NAME_MAX).filter((s) => !/[\ud800-\udfff]/.test(s));
    check(
      44,
      fc.property(
        fc.uuid(),
        fc.uuid(),
        fc.constantFrom(...CLOCK_ACTIONS),
        fc.boolean(),
        padded(name),
        (jobId, itemId, action, done, signer) => {
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.clock"], { jobId, action }), { jobId, action });
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.checklist"], { jobId, itemId, done }), { jobId, itemId, done });
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.signature"], { jobId, name: signer.raw, image: png }), {
            jobId,
            name: signer.trimmed,
            image: png,
          });
          assert.deepEqual(accepts(ARGS_SCHEMAS["job.signature"], { jobId, name: signer.raw }), {
            jobId,
            name: signer.trimmed,
          });
          refuses(ARGS_SCHEMAS["job.clock"], { jobId, action: "pause" }, "action");
          refuses(ARGS_SCHEMAS["job.checklist"], { jobId, itemId: "item-1", done }, "itemId");
          refuses(ARGS_SCHEMAS["job.checklist"], { jobId, itemId, done: String(done) }, "done");
          refuses(ARGS_SCHEMAS["job.signature"], { jobId, name: "  " }, "name");
          refuses(ARGS_SCHEMAS["job.signature"], { jobId, name: "n".repeat(SIGNER_NAME_MAX + 1) }, "name");
          refuses(
            ARGS_SCHEMAS["job.signature"],
            { jobId, name: signer.trimmed, image: "data:image/svg+xml;base64,PHN2Zz4=" },
            "image",
          );
          refuses(
            ARGS_SCHEMAS["job.signature"],
            { jobId, name: signer.trimmed, image: `${png.slice(0, 33)}${"A".repeat(360_000)}` },
            "image",
          );
        },
      ),
    );
  });

  it("fieldFormSchema: one shape per intent; unknown intents, statuses and clock actions refused", () => {
    check(
      43,
      fc.property(
        fc.uuid(),
        fc.constantFrom(...FIELD_STATUSES),
        fc.string(),
        fc.uuid(),
        (jobId, status, body, itemId) => {
          assert.deepEqual(accepts(fieldFormSchema, { intent: "status", jobId, status, _csrf: "x" }), {
            intent: "status",
            jobId,
            status,
          });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "note", jobId, body }), { intent: "note", jobId, body });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "clock", jobId, action: "start" }), {
            intent: "clock",
            jobId,
            action: "start",
          });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "checklist", jobId, itemId, done: "true" }), {
            intent: "checklist",
            jobId,
            itemId,
            done: true,
          });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "checklist", jobId, itemId, done: "false" }), {
            intent: "checklist",
            jobId,
            itemId,
            done: false,
          });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "complete", jobId, signerName: "Ann" }), {
            intent: "complete",
            jobId,
            signerName: "Ann",
          });
          assert.deepEqual(accepts(fieldFormSchema, { intent: "complete", jobId }), { intent: "complete", jobId });
          refuses(fieldFormSchema, { intent: "delete", jobId }, "intent");
          refuses(fieldFormSchema, { intent: "timer-start", jobId }, "intent");
          refuses(fieldFormSchema, { intent: "status", jobId, status: "scheduled" }, "status");
          refuses(fieldFormSchema, { intent: "clock", jobId, action: "pause" }, "action");
          refuses(
            fieldFormSchema,
            { intent: "complete", jobId, signerName: "n".repeat(SIGNER_NAME_MAX + 1) },
            "signerName",
          );
          refuses(fieldFormSchema, { intent: "note", body }, "jobId");
        },
      ),
    );
  });

  it("jobActionSchema: cancel or reopen, nothing else", () => {
    assert.deepEqual(accepts(jobActionSchema, { intent: "cancel", _csrf: "x" }), { intent: "cancel" });
    assert.deepEqual(accepts(jobActionSchema, { intent: "reopen" }), { intent: "reopen" });
    refuses(jobActionSchema, { intent: "delete" }, "intent");
    refuses(jobActionSchema, {}, "intent");
  });
});

describe("back-office lists and forms", () => {
  const LISTS: Array<[string, z.ZodTypeAny, string | null, readonly string[], string]> = [
    ["listSchemaBase", listSchemaBase, null, [], ""],
    ["customerListSchema", customerListSchema, "filter", CUSTOMER_FILTERS, "all"],
    ["quoteListSchema", quoteListSchema, "status", QUOTE_FILTERS, "all"],
    ["invoiceListSchema", invoiceListSchema, "status", INVOICE_FILTERS, "all"],
    ["jobListSchema", jobListSchema, "status", JOB_FILTERS, "open"],
    ["requestListSchema", requestListSchema, "status", REQUEST_FILTERS, "all"],
  ];
  for (const [name, schema, filter, values, fallback] of LISTS) {
    it(`${name}: any query string is accepted; q trimmed (blank or over 200 = none), an unknown filter falls back to ${fallback || "nothing"}`, () => {
      const query = fc.record({
        q: fc.option(fc.string({ maxLength: 250 }), { nil: undefined }),
        f: fc.option(fc.oneof(fc.constantFrom(...(values.length ? values : ["x"])), fc.string()), { nil: undefined }),
        after: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
      });
      check(
        51,
        fc.property(query, ({ q, f, after }) => {
          const out = accepts(schema, {
            ...(q === undefined ? {} : { q }),
            ...(after === undefined ? {} : { after }),
            ...(filter && f !== undefined ? { [filter]: f } : {}),
          }) as Record<string, unknown>;
          const trimmed = q?.trim();
          assert.equal(out.q, trimmed && trimmed.length <= 200 ? trimmed : undefined);
          assert.equal(out.after, after);
          if (filter) assert.equal(out[filter], f !== undefined && values.includes(f) ? f : fallback);
        }),
      );
    });
  }

  it("the record filters of lists: a customer or assignee id must be a UUID (else ignored); 'unassigned' is kept", () => {
    check(
      52,
      fc.property(fc.uuid(), fc.string(), (id, other) => {
        fc.pre(!/^[0-9a-f-]{36}$/i.test(other) && other !== "unassigned");
        for (const s of [quoteListSchema, invoiceListSchema, jobListSchema]) {
          assert.equal((accepts(s, { customer: id }) as { customer?: string }).customer, id);
          assert.equal((accepts(s, { customer: other }) as { customer?: string }).customer, undefined);
        }
        assert.equal((accepts(jobListSchema, { assignee: id }) as { assignee?: string }).assignee, id);
        assert.equal(
          (accepts(jobListSchema, { assignee: "unassigned" }) as { assignee?: string }).assignee,
          "unassigned",
        );
        assert.equal((accepts(jobListSchema, { assignee: other }) as { assignee?: string }).assignee, undefined);
      }),
    );
  });

  it("triageSchema: scheduled, declined or archived for a request; new and anything else refused", () => {
    check(
      53,
      fc.property(
        fc.uuid(),
        fc.constantFrom("scheduled", "declined", "archived"),
        fc.string(),
        (requestId, status, other) => {
          assert.deepEqual(accepts(triageSchema, { requestId, status, _csrf: "x" }), { requestId, status });
          refuses(triageSchema, { requestId, status: "new" }, "status");
          if (!["scheduled", "declined", "archived", "new"].includes(other))
            refuses(triageSchema, { requestId, status: other }, "status");
          refuses(triageSchema, { status }, "requestId");
        },
      ),
    );
  });

  it("roleSchema, changeRoleSchema, addMemberSchema: the four roles; a name trimmed, an email normalised", () => {
    check(
      54,
      fc.property(
        fc.constantFrom(...ROLES),
        fc.string(),
        padded(trimmedText(200)),
        padded(emailAddress),
        fc.uuid(),
        (role, other, name, email, userId) => {
          assert.equal(accepts(roleSchema, role), role);
          if (!(ROLES as readonly string[]).includes(other)) refuses(roleSchema, other);
          assert.deepEqual(accepts(changeRoleSchema, { userId, role }), { userId, role });
          refuses(changeRoleSchema, { userId, role: "superuser" }, "role");
          assert.deepEqual(accepts(addMemberSchema, { name: name.raw, email: email.raw, role }), {
            name: name.trimmed,
            email: email.trimmed.toLowerCase(),
            role,
          });
          refuses(addMemberSchema, { name: " ", email: email.raw, role }, "name");
          refuses(addMemberSchema, { name: name.raw, email: "x", role }, "email");
        },
      ),
    );
  });

  it("timeZoneField: every listed zone; anything else refused", () => {
    check(
      55,
      fc.property(fc.constantFrom(...timeZones()), fc.string(), (tz, other) => {
        assert.equal(accepts(timeZoneField, tz), tz);
        if (!timeZones().includes(other.trim())) refuses(timeZoneField, other);
      }),
    );
    refuses(timeZoneField, "Mars/Olympus_Mons");
    assert.ok(timeZones().includes("UTC"));
  });

  it("companySettingsSchema: trimmed text, blank contact details are null, a listed zone and currency, tax 0..100, days in range", () => {
    const input = fc.record({
      businessName: padded(trimmedText(200)),
      phone: fc.option(padded(trimmedText(50)), { nil: undefined }),
      email: fc.option(padded(emailAddress), { nil: undefined }),
      timeZone: fc.constantFrom(...timeZones()),
      currency: fc.constantFrom(...currencies()),
      taxMilli: fc.integer({ min: 0, max: 100_000 }),
      terms: fc.integer({ min: 0, max: 365 }),
      validity: fc.integer({ min: 1, max: 365 }),
    });
    check(
      57,
      fc.property(input, (i) => {
        const tax = `${Math.trunc(i.taxMilli / 1000)}.${String(i.taxMilli % 1000).padStart(3, "0")}`;
        const form = {
          businessName: i.businessName.raw,
          phone: i.phone?.raw,
          email: i.email?.raw,
          timeZone: i.timeZone,
          currency: i.currency.toLowerCase(),
          defaultTaxRate: tax,
          paymentTermsDays: String(i.terms),
          quoteValidityDays: ` ${i.validity} `,
          _csrf: "x",
        };
        const v = accepts(companySettingsSchema, form) as Record<string, unknown>;
        assert.equal(v.businessName, i.businessName.trimmed);
        assert.equal(v.phone, i.phone?.trimmed || null);
        assert.equal(v.email, i.email ? i.email.trimmed.toLowerCase() : null);
        assert.equal(v.address, null);
        assert.equal(v.currency, i.currency);
        assert.equal(Number(v.defaultTaxRate), i.taxMilli / 1000);
        assert.deepEqual([v.paymentTermsDays, v.quoteValidityDays], [i.terms, i.validity]);
        refuses(companySettingsSchema, { ...form, businessName: " " }, "businessName");
        refuses(companySettingsSchema, { ...form, timeZone: "Mars/Olympus_Mons" }, "timeZone");
        refuses(companySettingsSchema, { ...form, currency: "XYZW" }, "currency");
        refuses(companySettingsSchema, { ...form, defaultTaxRate: "100.5" }, "defaultTaxRate");
        refuses(companySettingsSchema, { ...form, paymentTermsDays: "366" }, "paymentTermsDays");
        refuses(companySettingsSchema, { ...form, quoteValidityDays: "0" }, "quoteValidityDays");
        refuses(companySettingsSchema, { ...form, paymentTermsDays: "1.5" }, "paymentTermsDays");
        // Reminders: blank or absent is off; days in range; the checkbox is "on" or absent.
        assert.deepEqual(
          [v.reminderQuoteDays, v.reminderInvoiceBeforeDays, v.reminderInvoiceAfterDays, v.reminderVisit],
          [null, null, null, false],
        );
        const on = accepts(companySettingsSchema, {
          ...form,
          reminderQuoteDays: ` ${i.validity} `,
          reminderInvoiceBeforeDays: "0",
          reminderInvoiceAfterDays: "",
          reminderVisit: "on",
        }) as Record<string, unknown>;
        assert.deepEqual(
          [on.reminderQuoteDays, on.reminderInvoiceBeforeDays, on.reminderInvoiceAfterDays, on.reminderVisit],
          [i.validity, 0, null, true],
        );
        refuses(companySettingsSchema, { ...form, reminderQuoteDays: "0" }, "reminderQuoteDays");
        refuses(companySettingsSchema, { ...form, reminderInvoiceAfterDays: "2.5" }, "reminderInvoiceAfterDays");
        refuses(companySettingsSchema, { ...form, reminderVisit: "yes" }, "reminderVisit");
        assert.equal(
          (accepts(companySettingsSchema, { ...form, checklistRequired: "on" }) as Record<string, unknown>)
            .checklistRequired,
          true,
        );
        assert.equal((accepts(companySettingsSchema, form) as Record<string, unknown>).checklistRequired, false);
        refuses(companySettingsSchema, { ...form, checklistRequired: "yes" }, "checklistRequired");
        // Timesheets: absent is Monday, 40 h a week and no daily rule; hours become whole minutes.
        assert.deepEqual([v.weekStartsOn, v.overtimeWeeklyHours, v.overtimeDailyHours], [1, 2400, null]);
        const hours = 1 + (i.terms % 23);
        const rules = accepts(companySettingsSchema, {
          ...form,
          weekStartsOn: "sunday",
          overtimeWeeklyHours: ` ${hours}.5 `,
          overtimeDailyHours: String(hours),
        }) as Record<string, unknown>;
        assert.deepEqual(
          [rules.weekStartsOn, rules.overtimeWeeklyHours, rules.overtimeDailyHours],
          [7, hours * 60 + 30, hours * 60],
        );
        refuses(companySettingsSchema, { ...form, weekStartsOn: "someday" }, "weekStartsOn");
        refuses(companySettingsSchema, { ...form, overtimeWeeklyHours: "0" }, "overtimeWeeklyHours");
        refuses(companySettingsSchema, { ...form, overtimeDailyHours: "25" }, "overtimeDailyHours");
        refuses(companySettingsSchema, { ...form, overtimeDailyHours: "8.123" }, "overtimeDailyHours");
        // The brand colour: absent is the default; a hex colour dark enough for white text, lower-cased.
        assert.equal(v.brandColor, "#1d4ed8");
        const hex = `#${i.taxMilli.toString(16).padStart(6, "0").slice(-6)}`;
        const ratio = contrastWithWhite(hex);
        if (ratio >= 4.5)
          assert.equal(
            (
              accepts(companySettingsSchema, { ...form, brandColor: ` ${hex.toUpperCase()} ` }) as {
                brandColor: string;
              }
            ).brandColor,
            hex,
          );
        else refuses(companySettingsSchema, { ...form, brandColor: hex }, "brandColor");
        refuses(companySettingsSchema, { ...form, brandColor: "#fff" }, "brandColor");
        refuses(companySettingsSchema, { ...form, brandColor: "#ffffff" }, "brandColor");
      }),
    );
    assert.equal(
      (
        accepts(companySettingsSchema, {
          businessName: "B",
          timeZone: "UTC",
          currency: "USD",
          paymentTermsDays: "14",
          quoteValidityDays: "30",
        }) as { defaultTaxRate: string }
      ).defaultTaxRate,
      "0",
    );
  });

  it("assistantInputSchema: a mode, optional title and details trimmed (blank = none); unknown modes and long text refused", () => {
    const input = fc.record({
      mode: fc.constantFrom(...ASSISTANT_MODES),
      title: fc.option(padded(trimmedText(JOB_TITLE_MAX)), { nil: undefined }),
      details: fc.option(padded(trimmedText(300)), { nil: undefined }),
    });
    check(
      56,
      fc.property(input, (i) => {
        const form = { mode: i.mode, job_title: i.title?.raw ?? " ", details: i.details?.raw ?? "", _csrf: "x" };
        assert.deepEqual(accepts(assistantInputSchema, form), {
          mode: i.mode,
          job_title: i.title?.trimmed,
          details: i.details?.trimmed,
        });
        refuses(assistantInputSchema, { ...form, mode: "" }, "mode");
        refuses(assistantInputSchema, { ...form, mode: "poem" }, "mode");
        refuses(assistantInputSchema, { ...form, job_title: "t".repeat(JOB_TITLE_MAX + 1) }, "job_title");
        refuses(assistantInputSchema, { ...form, details: "d".repeat(DETAILS_MAX + 1) }, "details");
        refuses(assistantInputSchema, { ...form, details: 42 }, "details");
      }),
    );
  });
});

describe("settings forms", () => {
  it("checkbox: on/true/1/yes (any case, padded) tick it; off/false/0/no/blank/absent do not; anything else refused", () => {
    const cased = (words: string[]) =>
      fc
        .tuple(fc.constantFrom(...words), fc.boolean(), pad)
        .map(([w, upper, p]) => `${p}${upper ? w.toUpperCase() : w}${p}`);
    check(
      61,
      fc.property(
        cased(["on", "true", "1", "yes"]),
        cased(["off", "false", "0", "no", ""]),
        fc.string(),
        (yes, no, other) => {
          assert.equal(accepts(checkbox, yes), true);
          assert.equal(accepts(checkbox, no), false);
          if (!["on", "true", "1", "yes", "off", "false", "0", "no", ""].includes(other.trim().toLowerCase()))
            refuses(checkbox, other);
        },
      ),
    );
    assert.equal(accepts(checkbox, undefined), false);
  });

  it("accountingFormSchema: every provider and trigger; the preferences go back to the same form; an unknown provider refused", () => {
    const form = fc.record({
      preferred_provider: fc.constantFrom(NO_ACCOUNTING_PROVIDER, ...ACCOUNTING_PROVIDER_IDS),
      push_invoices: fc.constantFrom(...PUSH_INVOICE_TRIGGERS),
      push_payments: fc.constantFrom(undefined, "on"),
    });
    check(
      62,
      fc.property(form, (f) => {
        const prefs = accepts(accountingFormSchema, f) as Parameters<typeof accountingPrefsToForm>[0];
        assert.deepEqual(prefs, {
          preferredProvider: f.preferred_provider,
          pushInvoices: f.push_invoices,
          pushPayments: f.push_payments === "on",
        });
        assert.deepEqual(accepts(accountingFormSchema, accountingPrefsToForm(prefs)), prefs);
        refuses(accountingFormSchema, { ...f, preferred_provider: "bogus-books" }, "preferred_provider");
        refuses(accountingFormSchema, { ...f, push_invoices: "" }, "push_invoices");
        refuses(accountingFormSchema, { ...f, push_payments: "maybe" }, "push_payments");
      }),
    );
  });

  it("calendarFormSchema: both calendars' choices round-trip; an unknown job scope refused", () => {
    const box = fc.constantFrom(undefined, "on");
    const form = fc.record({
      google_enabled: box,
      google_jobs: fc.constantFrom(...CALENDAR_JOB_SCOPES),
      google_busy_blocks_booking: box,
      google_include_customer_details: box,
      microsoft_enabled: box,
      microsoft_jobs: fc.constantFrom(...CALENDAR_JOB_SCOPES),
      microsoft_busy_blocks_booking: box,
      microsoft_include_customer_details: box,
    });
    check(
      63,
      fc.property(form, (f) => {
        const prefs = accepts(calendarFormSchema, f) as Parameters<typeof calendarPrefsToForm>[0];
        assert.equal(prefs.google.enabled, f.google_enabled === "on");
        assert.equal(prefs.microsoft.jobs, f.microsoft_jobs);
        assert.deepEqual(accepts(calendarFormSchema, calendarPrefsToForm(prefs)), prefs);
        refuses(calendarFormSchema, { ...f, google_jobs: "everyone's" }, "google_jobs");
      }),
    );
  });

  it("SETTINGS_FORMS: the area's fields and the secret guard together; a secret is refused beside its own name, with the other fields' errors", () => {
    check(
      7_115,
      fc.property(
        fc.constantFrom("api_key", "clientSecret", "access_token", "password"),
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ""),
        (name, secret) => {
          const good = llmPrefsToForm(loadLlmPrefs({}));
          const r1 = SETTINGS_FORMS.llm.safeParse({ ...good, [name]: secret });
          assert.equal(r1.success, false);
          assert.deepEqual(
            r1.error!.issues.map((i) => i.path.join(".")),
            [name],
          );
          const r2 = SETTINGS_FORMS.llm.safeParse({ provider: "skynet", model: "x", [name]: secret });
          assert.deepEqual(new Set(r2.error!.issues.map((i) => i.path[0])), new Set([name, "provider"]));
          assert.deepEqual(SETTINGS_FORMS.llm.parse(good), llmFormSchema.parse(good));
        },
      ),
    );
  });

  it("llmFormSchema: a provider with one of its models round-trips; another provider's model refused beside the model", () => {
    const pairs = LLM_PROVIDERS.flatMap((p) => p.models.map((m) => ({ provider: p.id, model: m })));
    check(
      64,
      fc.property(fc.constantFrom(...pairs), fc.constantFrom(...pairs), (ok, other) => {
        const prefs = accepts(llmFormSchema, { provider: ` ${ok.provider} `, model: ok.model }) as Parameters<
          typeof llmPrefsToForm
        >[0];
        assert.deepEqual(prefs, ok);
        assert.deepEqual(accepts(llmFormSchema, llmPrefsToForm(prefs)), prefs);
        if (!LLM_PROVIDERS.find((p) => p.id === ok.provider)!.models.includes(other.model))
          refuses(llmFormSchema, { provider: ok.provider, model: other.model }, "model");
        refuses(llmFormSchema, { provider: "skynet", model: ok.model }, "provider");
        refuses(llmFormSchema, { provider: ok.provider, model: " " }, "model");
      }),
    );
  });
});

describe("import rows", () => {
  it("customerSchema: name trimmed, email lower-cased, absent columns null; no name or a bad email refused", () => {
    check(
      71,
      fc.property(padded(trimmedText(200).filter((s) => !/^[=+\-@\t\r]/.test(s))), emailAddress, (name, email) => {
        const row = accepts(customerSchema, { name: name.raw, email }) as Record<string, unknown>;
        // Runs of white space inside a cell become one space (a plain ASCII cell is kept as it is).
        assert.equal(row.name, name.trimmed.replace(/\s+/g, " ").normalize("NFC"));
        assert.equal(row.email, email.toLowerCase());
        assert.equal(row.company, null);
        refuses(customerSchema, { email }, "name");
        refuses(customerSchema, { name: name.raw, email: "nope" }, "email");
      }),
      { numRuns: 100 },
    );
  });

  it("teamMemberSchema: admin, office or technician, an hourly rate in cents; owner refused", () => {
    check(
      72,
      fc.property(
        fc.constantFrom(...TEAM_ROLES),
        emailAddress,
        fc.integer({ min: 0, max: 1_000_000 }),
        (role, email, cents) => {
          const rate = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
          const row = accepts(teamMemberSchema, { name: "Dana Lee", email, role, hourly_rate: rate }) as Record<
            string,
            unknown
          >;
          assert.deepEqual(row, {
            name: "Dana Lee",
            email: email.toLowerCase(),
            role,
            phone: null,
            hourlyRateCents: cents,
          });
          refuses(teamMemberSchema, { name: "Dana Lee", email, role: "owner" }, "role");
          refuses(teamMemberSchema, { name: "Dana Lee", email, role, hourly_rate: `${rate}1` }, "hourly_rate");
        },
      ),
      { numRuns: 100 },
    );
  });

  it("jobSchema, quoteSchema, invoiceSchema: a minimal valid row each, with money in cents; a missing customer reference refused", () => {
    check(
      73,
      fc.property(emailAddress, fc.integer({ min: 1, max: 10_000_000 }), (customer, cents) => {
        const price = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
        const job = accepts(jobSchema, { title: "Fix leak", customer_email: customer }) as Record<string, unknown>;
        assert.equal(job.status, "unscheduled");
        assert.equal(job.customerEmail, customer.toLowerCase());
        for (const schema of [quoteSchema, invoiceSchema]) {
          const line = accepts(schema, {
            number: "N-1",
            customer_email: customer,
            item_description: "Labour",
            item_unit_price: price,
          }) as Record<string, unknown>;
          assert.equal(line.itemUnitPriceCents, cents);
          assert.equal(line.itemQuantityMilli, 1000);
          assert.equal(line.currency, "USD");
          assert.equal(line.status, "draft");
          refuses(
            schema,
            { number: "N-1", item_description: "Labour", item_unit_price: price },
            "customer_external_id",
          );
          refuses(schema, { number: "N-1", customer_email: customer, item_description: "Labour" }, "item_unit_price");
        }
        refuses(jobSchema, { title: "Fix leak" }, "customer_external_id");
        refuses(jobSchema, { title: "Fix leak", customer_email: " " }, "customer_email");
      }),
      { numRuns: 100 },
    );
  });
});

// ------------------------------------------------------------------------- the list is complete

/** Every app/**\/*.ts module (not those that need the Remix build), by path from the root. */
function appModules(ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (ext.test(e.name) && !e.name.endsWith(".d.ts")) out.push(path.relative(ROOT, p));
    }
  };
  walk(path.join(ROOT, "app"));
  return out.sort();
}

describe("import forms", () => {
  it("the upload's type is one of the five, named in the message otherwise; the ids pass through to the service (its 404)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...IMPORT_COLUMNS_TYPES), (type) => {
        const r = importUploadSchema.safeParse({ type });
        assert.ok(r.success && r.data.type === type);
      }),
      { seed: 7, numRuns: 20 },
    );
    const bad = importUploadSchema.safeParse({ type: "widgets" });
    assert.ok(
      !bad.success &&
        bad.error.issues[0].path[0] === "type" &&
        /"widgets" is not an import type/.test(bad.error.issues[0].message),
    );
    const none = importUploadSchema.safeParse({});
    assert.ok(!none.success && none.error.issues[0].message === "Choose what to import.");
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), (id) => {
        assert.equal(commitPreviewSchema.parse({ previewId: id }).previewId, id);
        assert.equal(undoImportSchema.parse({ runId: id }).runId, id);
      }),
      { seed: 8, numRuns: 100 },
    );
  });
});

describe("timesheet forms", () => {
  it("addEntrySchema / changeEntrySchema / weekActionSchema: a person, a kind, wall-clock times with the end after the start, reasons where required", () => {
    const pad = (n: number) => String(n).padStart(2, "0");
    check(
      385,
      fc.property(
        fc.uuid(),
        fc.constantFrom("work", "travel", "break"),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 22 }),
        fc.integer({ min: 1, max: 23 }),
        fc.string({ maxLength: 40 }),
        (userId, kind, day, hour, length, why) => {
          const start = `2026-06-${pad(day)}T${pad(hour)}:00`;
          const end = `2026-06-${pad(day)}T${pad(Math.min(23, hour + length))}:30`;
          const form = { userId: ` ${userId.toUpperCase()} `, kind, start, end, _csrf: "x" };
          const v = accepts(addEntrySchema, form) as Record<string, unknown>;
          assert.deepEqual([v.userId, v.kind, v.start, v.end, v.visitId], [userId, kind, start, end, null]);
          assert.equal(v.reason, null);
          const withReason = accepts(addEntrySchema, { ...form, reason: why }) as { reason: unknown };
          assert.equal(withReason.reason, why.trim() || null);
          refuses(addEntrySchema, { ...form, end: start }, "end");
          refuses(addEntrySchema, { ...form, start: "2026-02-30T08:00" }, "start");
          refuses(addEntrySchema, { ...form, kind: "lunch" }, "kind");
          refuses(addEntrySchema, { ...form, userId: "not-an-id" }, "userId");
          refuses(addEntrySchema, { ...form, visitId: "x" }, "visitId");
          // A change needs a reason (accept does not); update re-checks the times.
          refuses(changeEntrySchema, { intent: "delete" }, "reason");
          refuses(changeEntrySchema, { intent: "discard", reason: "  " }, "reason");
          assert.equal((accepts(changeEntrySchema, { intent: "accept" }) as { reason: unknown }).reason, null);
          refuses(changeEntrySchema, { ...form, intent: "update", reason: "Late", end: start }, "end");
          const u = accepts(changeEntrySchema, { ...form, intent: "update", reason: " Late " }) as Record<
            string,
            unknown
          >;
          assert.deepEqual([u.intent, u.reason, u.start], ["update", "Late", start]);
          refuses(changeEntrySchema, { intent: "approve", reason: "x" }, "intent");
          const w = accepts(weekActionSchema, { userId, week: `2026-06-${pad(day)}` }) as Record<string, unknown>;
          assert.deepEqual([w.userId, w.week, w.reason], [userId, `2026-06-${pad(day)}`, null]);
          refuses(weekActionSchema, { userId, week: "2026-13-01" }, "week");
          refuses(weekField, "16/06/2026", "");
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("SCHEMAS_TESTED names every exported zod schema", () => {
  it("every .ts module's exports: each zod schema, map of schemas or schema factory is in the list", async () => {
    const listed = new Set(SCHEMAS_TESTED.map((e) => `${e.module}#${e.name}`));
    const found: string[] = [];
    for (const file of appModules(/\.ts$/)) {
      if (fs.readFileSync(path.join(ROOT, file), "utf8").includes("@remix-run/dev/server-build")) continue;
      const mod = (await import(path.join(ROOT, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        const isSchema = value instanceof z.ZodType;
        const isMap =
          !!value &&
          typeof value === "object" &&
          Object.values(value).length > 0 &&
          Object.values(value).every((v) => v instanceof z.ZodType);
        const isFactory =
          typeof value === "function" &&
          /schema/i.test(name) &&
          (() => {
            try {
              return (value as (...a: unknown[]) => unknown)(TODAY, LAST_DATE) instanceof z.ZodType;
            } catch {
              return false;
            }
          })();
        if (isSchema || isMap || isFactory) found.push(`${file}#${name}`);
      }
    }
    assert.deepEqual(
      found.filter((f) => !listed.has(f)),
      [],
      "exported zod schemas without property tests: add them to SCHEMAS_TESTED",
    );
    assert.deepEqual(
      [...listed].filter((l) => !found.includes(l)),
      [],
      "listed schemas that app/ no longer exports",
    );
  });

  it("routes and components (.tsx) define no zod schema of their own: they take one from a service", () => {
    const offenders = appModules(/\.tsx$/).filter((f) =>
      /\bz\.(object|string|number|enum|union|discriminatedUnion|array|coerce|preprocess|custom)\(/.test(
        fs.readFileSync(path.join(ROOT, f), "utf8"),
      ),
    );
    assert.deepEqual(offenders, []);
  });
});
