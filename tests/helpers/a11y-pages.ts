// The accessibility cases of every page of the app (the seeded data, the pages and what a person
// does on each), shared by the browser test files that check them with axe-core.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { one } from "../../db/index";
import { createInvite } from "../../app/services/team/invites.server";
import { renderEmail } from "../../app/services/messages/templates.server";
import { LINK_PLACEHOLDER } from "../../app/services/messages/links.server";
import { signIdToken } from "../../app/utils/signed-ids.server";
import { JS_MODES, newContext, screenshot, seriousAxeViolations, signIn, SKIP_BROWSER, withBrowser } from "./browser";
import { clientFor } from "./client";
import {
  createInvoice,
  createJob,
  createQuote,
  createTenant,
  createTenantWithUsers,
  createUser,
  DEFAULT_PASSWORD,
} from "./fixtures";
import { commit, idIn, preview, upload } from "./import";
import { portalSetup } from "./portal";
import { quoteWithOptions } from "./quote-options";

type Who = "owner" | "technician" | "visitor";
type PageCase = {
  name: string;
  who: Who;
  /** The address, or a function of the seeded data. */
  path: (s: Seeded) => string;
  status?: number;
  /** What a person does on the page before it is checked (fill a form wrongly, ask the assistant). */
  then?: (page: Page, s: Seeded) => Promise<void>;
  /** Text that proves the page is the one meant (not an error page by mistake). */
  shows: RegExp;
  /** Keep a screenshot (tests/.artifacts/a11y-<name>-<mode>.png) to look at. */
  shot?: boolean;
};

type Seeded = Awaited<ReturnType<typeof seed>>;

/** A Monday in the past: the technician's approved timesheet week. */
const APPROVED_WEEK = "2026-01-05";

export async function seed(tag: string) {
  const t = await createTenantWithUsers(`Summit Plumbing ${tag}`);
  const office = { tenantId: t.id, userId: t.users.owner.id, role: "owner" as const };
  const portal = await portalSetup({ tenant: t, customerName: "Rosa Marquez" });
  const customer = portal.customer;
  const job = await createJob(t.id, {
    customerId: customer.id,
    title: "Replace 50 gal water heater",
    assigneeId: t.users.technician.id,
  });
  await createJob(t.id, {
    customerId: customer.id,
    title: "Annual furnace tune-up",
    assigneeId: t.users.technician.id,
    status: "en_route",
    scheduledStart: new Date(Date.now() - 3600_000),
  });
  const upcoming = await createJob(t.id, {
    customerId: customer.id,
    title: "Spring AC check",
    assigneeId: t.users.technician.id,
    status: "scheduled",
    scheduledStart: new Date(Date.now() + 2 * 86_400_000),
  });
  const visit = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    upcoming.id,
  ]))!;
  const quote = await createQuote(t.id, { customerId: customer.id });
  await createQuote(t.id, {
    customerId: customer.id,
    validUntil: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
  });
  const invoice = await createInvoice(t.id, { customerId: customer.id, status: "partial", amountPaidCents: 50_000 });
  const draftInvoice = await createInvoice(t.id, { customerId: customer.id, status: "draft" });
  // Options, optional items, a deposit and a change request (issue 20): on the portal hub and the dashboard.
  const options = await quoteWithOptions(t.id, customer.id, { depositPercent: "25" });
  await one(
    `INSERT INTO quote_change_requests (tenant_id, quote_id, customer_id, message) VALUES ($1, $2, $3, 'Could it be done on a Saturday?') RETURNING id`,
    [t.id, options.id, customer.id],
  );
  await one(
    `INSERT INTO booking_requests (tenant_id, customer_id, service, description, preferred_date, time_window, address, phone)
     VALUES ($1, $2, 'Furnace not heating', 'Clicks but never lights.', current_date + 2, 'morning', '48 Oak Lane', '555-0142') RETURNING id`,
    [t.id, customer.id],
  );
  const imported = await createUser(t.id, { role: "technician", name: "Dana Imported", password: null });
  // The admin's e-mail also works for a second business: sign-in asks which (CONTRACT section 19).
  const second = await createTenant(`Harbor Heating ${tag}`);
  await createUser(second.id, { role: "office", email: t.users.admin.email });
  const invite = await createInvite(office, imported.id);
  // One e-mail in the outbox (/settings/messages), as the quote's send would write it.
  const email = renderEmail({
    business: { name: t.name, email: "office@summit.test", phone: "555-0100", address: null, color: "#1d4ed8" },
    preview: "Your quote",
    greeting: "Hi Rosa,",
    paragraphs: ["Here is your quote Q-0001."],
    facts: [
      ["Quote", "Q-0001"],
      ["Total", "$1,200.00"],
    ],
    action: { label: "Review and approve", url: LINK_PLACEHOLDER },
  });
  await one(
    `INSERT INTO messages (tenant_id, kind, status, to_address, to_name, from_name, subject, text_body, html_body, message_id, link_ref)
     VALUES ($1, 'quote_sent', 'local', 'rosa@example.test', 'Rosa Marquez', $2, 'Quote Q-0001 from Summit', $3, $4, '<' || gen_random_uuid() || '@a11y.test>', $5)`,
    [t.id, t.name, email.text, email.html, `portal:${portal.linkId}`],
  );
  // Import pages: a preview with errors (jobs naming customers that do not exist), and the result of a committed one.
  const c = await clientFor(t.users.owner);
  const badPreview = await preview(
    c,
    "jobs",
    "title,customer_email,status\nFix leak,nobody@example.test,scheduled\n,rosa@example.test,unknown\n",
  );
  const goodPreview = await preview(
    c,
    "customers",
    `name,email\nAda Byrne,ada-${tag}@example.test\nBen Okafor,ben-${tag}@example.test\n`,
  );
  const runId = idIn(await commit(c, goodPreview), "run");
  // A file waiting at the mapping step (section 14): an ambiguous header.
  const waiting = await upload(
    c,
    "customers",
    `Client Name,Email Address,Contact\nCora Vance,cora-${tag}@example.test,555-0100\n`,
  );
  const uploadId = new URL(waiting.headers.get("location")!, "http://x").searchParams.get("upload")!;
  // Timesheet lines this week: travel then work on a job, a break, and a manual entry waiting for the office.
  await one(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, on_site_at, kind, state, origin)
     VALUES ($1, $2, $3, now() - interval '4 hours', now() - interval '2 hours', now() - interval '3 hours 30 minutes', 'work', 'counted', 'field'),
            ($1, $2, $3, now() - interval '2 hours', now() - interval '1 hour 30 minutes', NULL, 'break', 'counted', 'field'),
            ($1, NULL, $3, now() - interval '1 hour 30 minutes', now() - interval '1 hour', NULL, 'work', 'pending', 'technician')
     RETURNING id`,
    [t.id, job.id, t.users.technician.id],
  );
  // A past week of the technician's, approved (locked).
  await one(
    `INSERT INTO timesheet_weeks (tenant_id, user_id, week_start, approved_by) VALUES ($1, $2, $3, $4) RETURNING week_start`,
    [t.id, t.users.technician.id, APPROVED_WEEK, t.users.owner.id],
  );
  return {
    t,
    customer,
    job,
    quote,
    invoice,
    draftInvoice,
    options,
    portalUrl: portal.url,
    invitePath: new URL(invite.url).pathname,
    member: imported,
    badPreview,
    runId,
    uploadId,
    visitId: visit.id,
  };
}

export const PAGES: PageCase[] = [
  { name: "sign in", who: "visitor", path: () => "/login", shows: /Sign in/ },
  {
    name: "sign in with errors",
    who: "visitor",
    path: () => "/login",
    status: 200,
    shows: /Sign in/,
    then: async (page) => {
      await page.getByLabel("Email").fill("not-an-email");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("#field-email-error").waitFor();
    },
  },
  {
    name: "choose a business",
    who: "visitor",
    path: () => "/login",
    shows: /Choose a business[\s\S]*Harbor Heating/,
    shot: true,
    then: async (page, s) => {
      await page.getByLabel("Email").fill(s.t.users.admin.email);
      await page.getByLabel("Password").fill(DEFAULT_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Choose a business" }).waitFor();
    },
  },
  { name: "sign up", who: "visitor", path: () => "/signup", shows: /Create your business account/ },
  {
    name: "sign up with errors",
    who: "visitor",
    path: () => "/signup",
    shows: /Create your business account/,
    then: async (page) => {
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.locator("#field-password-error").waitFor();
    },
  },
  { name: "invite", who: "visitor", path: (s) => s.invitePath, shows: /choose a password/ },
  {
    name: "invite no longer valid",
    who: "visitor",
    path: () => "/invite/not-a-real-token",
    status: 404,
    shows: /no longer works/,
  },
  { name: "portal hub", who: "visitor", path: (s) => s.portalUrl, shows: /Rosa Marquez/ },
  {
    name: "stop reminders",
    who: "visitor",
    path: (s) => `/unsubscribe/${signIdToken("unsubscribe", s.t.id, s.customer.id)}`,
    shows: /Stop automatic reminders/,
  },
  {
    name: "portal hub, a quote's choice kept by Update total",
    who: "visitor",
    shows: /Approve and pay deposit/,
    shot: true,
    path: (s) =>
      `${s.portalUrl}?${new URLSearchParams([
        ["quoteId", s.options.id],
        ["option", "Better"],
        ["optionalItems", s.options.ids.warranty],
      ])}`,
  },
  {
    name: "portal link not valid",
    who: "visitor",
    path: () => "/portal/forged.token",
    status: 404,
    shows: /no longer valid/i,
  },
  { name: "dashboard", who: "owner", path: () => "/", shows: /Open jobs/i, shot: true },
  { name: "customers", who: "owner", path: () => "/customers", shows: /Rosa Marquez/ },
  {
    name: "customer",
    who: "owner",
    path: (s) => `/customers/${s.customer.id}`,
    shows: /Replace 50 gal water heater/,
    shot: true,
  },
  {
    name: "new portal link",
    who: "owner",
    path: (s) => `/customers/${s.customer.id}/portal-links`,
    shows: /portal link/i,
  },
  {
    name: "new portal link with errors",
    who: "owner",
    path: (s) => `/customers/${s.customer.id}/portal-links`,
    shows: /portal link/i,
    status: 200,
    shot: true,
    then: async (page) => {
      // The browser would stop 0 itself; skip its check to see the server's message.
      await page.locator("form.portal-link-form").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByLabel("Valid for (days)").fill("0");
      await page.getByRole("button", { name: "Create portal link" }).click();
      await page.locator("[id$='-error']").first().waitFor();
    },
  },
  { name: "new customer", who: "owner", path: () => "/customers/new", shows: /Only the name is required/ },
  { name: "edit customer", who: "owner", path: (s) => `/customers/${s.customer.id}/edit`, shows: /Rosa Marquez/ },
  { name: "new quote: choose the customer", who: "owner", path: () => "/quotes/new", shows: /Who is the quote for/ },
  {
    name: "quote builder",
    who: "owner",
    path: (s) => `/quotes/new?customerId=${s.customer.id}`,
    shows: /Line items/,
    shot: true,
  },
  {
    name: "quote builder with errors",
    who: "owner",
    path: (s) => `/quotes/new?customerId=${s.customer.id}`,
    shows: /Line items/,
    shot: true,
    then: async (page) => {
      await page.locator("form.quote-form").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByLabel("Unit price, line 1").fill("12,50");
      await page.getByRole("button", { name: "Save quote" }).click();
      await page.locator("#field-items-0-unitPrice-error").waitFor();
    },
  },
  { name: "price book", who: "owner", path: () => "/settings/price-book", shows: /Add a service or product/ },
  { name: "tax rates", who: "owner", path: () => "/settings/taxes", shows: /Add a rate/ },
  {
    name: "messages outbox",
    who: "owner",
    path: () => "/settings/messages",
    shows: /Quote Q-0001 from Summit[\s\S]*Review and approve/,
    shot: true,
    then: async (page) => {
      await page.getByText("Read the message").first().click();
    },
  },
  { name: "edit quote", who: "owner", path: (s) => `/quotes/${s.quote.id}/edit`, shows: /Line items/ },
  { name: "jobs", who: "owner", path: () => "/jobs", shows: /Replace 50 gal water heater/ },
  { name: "job", who: "owner", path: (s) => `/jobs/${s.job.id}`, shows: /Replace 50 gal water heater/, shot: true },
  { name: "new job", who: "owner", path: (s) => `/jobs/new?customerId=${s.customer.id}`, shows: /New job/, shot: true },
  {
    name: "new job with errors",
    who: "owner",
    path: (s) => `/jobs/new?customerId=${s.customer.id}`,
    shows: /New job/,
    shot: true,
    then: async (page) => {
      await page.getByLabel("Start", { exact: true }).fill("2026-06-16T11:00");
      await page.getByLabel("End", { exact: true }).fill("2026-06-16T09:00");
      await page.getByRole("button", { name: "Create job" }).click();
      await page.locator("#job-form-title-error").waitFor();
    },
  },
  { name: "edit job", who: "owner", path: (s) => `/jobs/${s.job.id}/edit`, shows: /Edit job/ },
  { name: "quotes", who: "owner", path: () => "/quotes", shows: /Q-/ },
  { name: "quote", who: "owner", path: (s) => `/quotes/${s.quote.id}`, shows: /50 gal gas water heater/ },
  { name: "invoices", who: "owner", path: () => "/invoices", shows: /INV-/ },
  {
    name: "invoice",
    who: "owner",
    path: (s) => `/invoices/${s.invoice.id}`,
    shows: /50 gal gas water heater/,
    shot: true,
  },
  { name: "record payment", who: "owner", path: (s) => `/invoices/${s.invoice.id}/payments`, shows: /Record payment/ },
  {
    name: "record payment with errors",
    who: "owner",
    path: (s) => `/invoices/${s.invoice.id}/payments`,
    shows: /Record payment/,
    shot: true,
    then: async (page) => {
      await page.getByLabel("Amount").fill("lots");
      await page.getByRole("button", { name: "Record payment" }).click();
      await page.locator("#payment-form-amount-error").waitFor();
    },
  },
  {
    name: "new invoice: choose the customer",
    who: "owner",
    path: () => "/invoices/new",
    shows: /Who is the invoice for/,
  },
  {
    name: "new invoice",
    who: "owner",
    path: (s) => `/invoices/new?customerId=${s.customer.id}`,
    shows: /Line items/,
    shot: true,
  },
  {
    name: "new invoice with errors",
    who: "owner",
    path: (s) => `/invoices/new?customerId=${s.customer.id}`,
    shows: /Line items/,
    shot: true,
    then: async (page) => {
      await page.locator("form.invoice-form").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByLabel("Unit price, line 1").fill("12,50");
      await page.getByLabel("Due date").fill("2020-01-01");
      await page.getByRole("button", { name: "Save invoice" }).click();
      await page.locator("#field-items-0-unitPrice-error").waitFor();
    },
  },
  { name: "edit invoice", who: "owner", path: (s) => `/invoices/${s.draftInvoice.id}/edit`, shows: /Line items/ },
  { name: "void invoice", who: "owner", path: (s) => `/invoices/${s.invoice.id}/void`, shows: /Void invoice/ },
  {
    name: "send quote again",
    who: "owner",
    path: (s) => `/quotes/${s.quote.id}/send`,
    shows: /Send quote Q-\S+ again\?/,
    shot: true,
  },
  {
    name: "send invoice",
    who: "owner",
    path: (s) => `/invoices/${s.draftInvoice.id}/send`,
    shows: /Send invoice INV-\S+[\s\S]*Subject[\s\S]*Here is your invoice/,
    shot: true,
  },
  { name: "booking requests", who: "owner", path: () => "/requests", shows: /Furnace not heating/ },
  { name: "team", who: "owner", path: () => "/team", shows: /Dana Imported/ },
  { name: "team invite", who: "owner", path: (s) => `/team/${s.member.id}/invite`, shows: /Invite Dana Imported/ },
  { name: "import", who: "owner", path: () => "/import-data", shows: /Customers/ },
  { name: "import customers", who: "owner", path: () => "/import-data?type=customers", shows: /external_id/ },
  {
    name: "import preview with errors",
    who: "owner",
    path: (s) => `/import-data?type=jobs&preview=${s.badPreview}`,
    shows: /With errors/,
    shot: true,
  },
  {
    name: "import result",
    who: "owner",
    path: (s) => `/import-data?type=customers&run=${s.runId}`,
    shows: /Imported 2 customers/,
  },
  {
    name: "import upload refused",
    who: "owner",
    path: () => "/import-data?type=customers",
    shows: /external_id/,
    then: async (page) => {
      await page
        .getByRole("button", { name: /preview/i })
        .first()
        .click();
      await page.getByRole("alert").first().waitFor();
    },
  },
  {
    name: "import column mapping",
    who: "owner",
    path: (s) => `/import-data?type=customers&upload=${s.uploadId}`,
    shows: /Match your columns/,
    shot: true,
  },
  {
    name: "import column mapping refused",
    who: "owner",
    path: (s) => `/import-data?type=customers&upload=${s.uploadId}`,
    shows: /Match your columns/,
    status: 200,
    then: async (page) => {
      await page.getByLabel("Contact").selectOption("phone");
      await page.getByLabel("Client Name").selectOption("ignore");
      await page.getByRole("button", { name: "Continue to the preview" }).click();
      await page.locator("#field-column-error").waitFor();
    },
  },
  { name: "import commit page", who: "owner", path: () => "/import-data/commit", shows: /Nothing to import here/ },
  { name: "import undo page", who: "owner", path: () => "/import-data/undo", shows: /undo/i },
  { name: "assistant", who: "owner", path: () => "/ai-assistant", shows: /Guidance appears here/ },
  {
    name: "assistant with guidance",
    who: "owner",
    path: () => "/ai-assistant",
    shows: /Assistant/,
    then: async (page) => {
      await page.getByLabel("Job title").fill("Replace 50 gallon gas water heater in garage");
      await page.getByRole("button", { name: "Get guidance" }).click();
      await page.locator("#guidance").waitFor();
    },
  },
  {
    name: "company settings",
    who: "owner",
    path: () => "/settings/company",
    shows: /Time, money and defaults/,
    shot: true,
  },
  {
    name: "company settings with errors",
    who: "owner",
    path: () => "/settings/company",
    shows: /Time, money and defaults/,
    status: 200,
    shot: true,
    then: async (page) => {
      await page.locator("#company-settings").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByLabel("Payment terms (days)").fill("400");
      await page.getByRole("button", { name: "Save company settings" }).click();
      await page.locator("#field-paymentTermsDays-error").waitFor();
    },
  },
  { name: "accounting settings", who: "owner", path: () => "/settings/accounting", shows: /QuickBooks Online/ },
  { name: "calendar settings", who: "owner", path: () => "/settings/calendar", shows: /Google Calendar/ },
  { name: "language model settings", who: "owner", path: () => "/settings/llm", shows: /The assistant is local/ },
  {
    name: "language model settings with errors",
    who: "owner",
    path: () => "/settings/llm",
    shows: /The assistant is local/,
    then: async (page) => {
      await refuseLlmSave(page);
    },
  },
  { name: "billing settings", who: "owner", path: () => "/settings/billing", shows: /Billing/ },
  { name: "reports", who: "owner", path: () => "/reports", shows: /Invoiced and collected per month/, shot: true },
  { name: "my day", who: "technician", path: () => "/field", shows: /Annual furnace tune-up/ },
  { name: "team timesheets", who: "owner", path: () => "/timesheets", shows: /Export for payroll/, shot: true },
  {
    name: "a person's timesheet",
    who: "owner",
    path: (s) => `/timesheets?userId=${s.t.users.technician.id}`,
    shows: /Waiting for the office/,
    shot: true,
  },
  { name: "my timesheet", who: "technician", path: () => "/timesheets", shows: /My timesheet/, shot: true },
  {
    name: "an approved timesheet week",
    who: "owner",
    path: (s) => `/timesheets?userId=${s.t.users.technician.id}&week=${APPROVED_WEEK}`,
    shows: /Reopen week/,
  },
  {
    name: "another person's timesheet refused",
    who: "technician",
    path: (s) => `/timesheets?userId=${s.t.users.owner.id}`,
    status: 403,
    shows: /only your own timesheet/,
  },
  { name: "schedule week", who: "owner", path: () => "/schedule?view=week", shows: /Unscheduled/, shot: true },
  { name: "schedule day", who: "owner", path: () => "/schedule?view=day", shows: /Annual furnace tune-up/, shot: true },
  { name: "my schedule", who: "technician", path: () => "/schedule", shows: /My schedule/ },
  { name: "schedule a job", who: "owner", path: (s) => `/jobs/${s.job.id}/schedule`, shows: /Technician and time/ },
  {
    name: "job items and billing",
    who: "owner",
    path: (s) => `/jobs/${s.job.id}/items`,
    shows: /How this job is billed/,
  },
  { name: "add a visit", who: "owner", path: (s) => `/jobs/${s.job.id}/visits`, shows: /Add a visit/ },
  { name: "schedule a visit", who: "owner", path: (s) => `/visits/${s.visitId}/schedule`, shows: /Schedule a visit/ },
  { name: "edit visit", who: "owner", path: (s) => `/visits/${s.visitId}/edit`, shows: /Edit visit/ },
  { name: "export settings", who: "owner", path: () => "/settings/export", shows: /Export your data/ },
  {
    name: "schedule a job with errors",
    who: "owner",
    path: (s) => `/jobs/${s.job.id}/schedule`,
    shows: /Technician and time/,
    status: 200,
    shot: true,
    then: async (page) => {
      await page.locator("#schedule-form").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByLabel("Start", { exact: true }).fill("2030-06-04T11:00");
      await page.getByLabel("End", { exact: true }).fill("2030-06-04T10:00");
      await page.getByRole("button", { name: "Save schedule" }).click();
      await page.locator("[id$='-error']").first().waitFor();
    },
  },
  { name: "calendar feed", who: "technician", path: () => "/settings/calendar", shows: /Subscribe in your calendar/ },
  { name: "forbidden", who: "technician", path: () => "/team", status: 403, shows: /don't have access/ },
  {
    name: "page not found",
    who: "owner",
    path: () => "/no-such-page",
    status: 404,
    shows: /Page not found/,
    shot: true,
  },
  {
    name: "record not found",
    who: "owner",
    path: () => `/customers/${randomUUID()}`,
    status: 404,
    shows: /not found/i,
  },
];

/** Picks a model of another provider than the one chosen and saves: the server refuses it beside the model field. */
export async function refuseLlmSave(page: Page) {
  const provider = page.getByLabel("Provider", { exact: true });
  const values = await provider.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const model = page.getByLabel("Model", { exact: true });
  const models = await model.locator("optgroup").evaluateAll((gs) =>
    gs.map((g) => ({
      label: g.getAttribute("label"),
      first: (g.querySelector("option") as HTMLOptionElement).value,
    })),
  );
  assert.ok(values.length > 1 && models.length > 1, "more than one provider to choose from");
  await provider.selectOption(values[0]);
  await model.selectOption(models[models.length - 1].first);
  await page.getByRole("button", { name: "Save preferences" }).click();
  await page.locator("#field-model-error").waitFor();
}

export async function contextFor(browser: Browser, who: Who, javaScript: boolean, s: Seeded): Promise<BrowserContext> {
  const context = await newContext(browser, { javaScript });
  if (who !== "visitor") {
    const page = await context.newPage();
    await signIn(page, s.t.users[who].email, DEFAULT_PASSWORD);
    await page.close();
  }
  return context;
}

/**
 * One browser test file's share of the page checks: part `part` of `parts` of the pages, with
 * JavaScript on or off, each page its own test with its own time bound (a slow machine slows
 * each page, not one test of every page), on data seeded once for the file.
 */
export function pageChecks(mode: (typeof JS_MODES)[number], part: number, parts: number) {
  const size = Math.ceil(PAGES.length / parts);
  const cases = PAGES.slice((part - 1) * size, part * size);
  describe(
    `browser: accessibility of every page (${mode.label}, part ${part} of ${parts})`,
    { skip: SKIP_BROWSER },
    () => {
      let browser: Browser;
      withBrowser((b) => (browser = b));
      let s: Seeded;
      const contexts = new Map<Who, BrowserContext>();
      before(
        async () => {
          s = await seed(`${mode.javaScript ? "js" : "nojs"}${part}`);
          for (const who of ["visitor", "owner", "technician"] as const)
            contexts.set(who, await contextFor(browser, who, mode.javaScript, s));
        },
        { timeout: 300_000 },
      );
      after(async () => {
        for (const c of contexts.values()) await c.close();
      });
      for (const c of cases) {
        test(`${c.name}: no serious or critical axe-core finding (${mode.label})`, { timeout: 120_000 }, async () => {
          const page = await contexts.get(c.who)!.newPage();
          try {
            const res = await page.goto(c.path(s));
            assert.equal(res?.status(), c.status ?? 200, `${c.name}: status`);
            if (c.then) await c.then(page, s);
            assert.match(await page.locator("body").innerText(), c.shows, `${c.name}: the page meant`);
            if (c.shot)
              await screenshot(page, `a11y-${c.name.replace(/\W+/g, "-")}-${mode.javaScript ? "js" : "nojs"}`);
            const found = await seriousAxeViolations(page, mode);
            const problems = found.map(
              (f) => `${c.name} (${c.path(s)}): ${f.impact} ${f.id}: ${f.help} at ${f.targets.join(", ")}`,
            );
            assert.deepEqual(problems, [], "serious or critical accessibility problems");
          } finally {
            await page.close();
          }
        });
      }
    },
  );
}
