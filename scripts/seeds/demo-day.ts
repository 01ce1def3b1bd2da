/**
 * A day of work for the demo tenant (point 9), made through the same services the
 * forms call, with the same schemas parsing what a person would type: company settings, a price
 * book, customers, quotes sent and approved in the portal, jobs converted and scheduled today,
 * field work, an invoice created from the finished job, sent, and paid in part in the portal. Every record gets its history the way it would from the
 * pages.
 */
import { randomUUID } from "node:crypto";
import { inTenant } from "../../db/index";
import { JobEvent } from "../../db/models/index";
import { saveCompanySettings } from "../../app/services/company/company.server";
import { companySettingsSchema } from "../../app/services/company/schemas";
import { dayIn, convertQuote, createQuote, quoteShare, sendQuote } from "../../app/services/quotes/quotes.server";
import { quoteFormSchema } from "../../app/services/quotes/quote-form";
import { priceBookItemSchema } from "../../app/services/documents/price-book-form";
import { savePriceBookItem } from "../../app/services/documents/price-book.server";
import { customerSchema } from "../../app/services/customers/schema";
import { createInvoiceFromJob, invoiceShare, sendInvoice } from "../../app/services/invoices/invoices.server";
import { checklistItemIds } from "../../app/services/jobs/checklist.server";
import { decideQuote, recordSandboxPayment } from "../../app/services/portal/actions.server";
import { withPortal } from "../../app/services/portal/access.server";
import { paymentSchema, quoteDecisionSchema } from "../../app/services/portal/schemas";
import { createCustomer } from "../../app/services/customers/commands.server";
import { moveJob } from "../../app/services/schedule/move.server";
import { applyFieldAction } from "../../app/services/field/mutations.server";
import type { Actor } from "../../app/http/auth.server";

export const DEMO_TIME_ZONE = "America/Denver";

type DayActors = { owner: Actor; office: Actor; technician: Actor; technicianName: string };

const SEED_META = { ip: "127.0.0.1", userAgent: "fieldwork demo seed" };

/** What a form would have parsed: the schema's output, or the first problem as an error. */
function parsed<
  S extends {
    safeParse: (v: unknown) => { success: true; data: unknown } | { success: false; error: { message: string } };
  },
>(schema: S, value: unknown, what: string) {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`Demo seed: ${what} did not parse: ${r.error.message}`);
  return r.data as never;
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

async function approveInPortal(actor: Actor, quoteId: string, signatureName: string) {
  const share = await quoteShare(actor, quoteId);
  if (!share) throw new Error("Demo seed: a sent quote has no portal link");
  const input = parsed(
    quoteDecisionSchema,
    { quoteId, decision: "approve", signatureName, acceptTerms: "yes" },
    "an approval",
  );
  await withPortal(tokenOf(share.url), SEED_META.ip, (portal, t) => decideQuote(portal, t, input, SEED_META), {
    lock: true,
  });
}

export type DemoDay = {
  customers: Record<"rivera" | "chen" | "okafor" | "walsh", string>;
  quotes: { approved: string; sent: string; draft: string; heater: string };
  jobs: { heater: string; furnace: string };
  invoice: string;
};

/** Runs the day as the office would, in the tenant's (Mountain) time zone. */
export async function seedBusinessDay(a: DayActors, businessName: string): Promise<DemoDay> {
  await saveCompanySettings(
    a.owner,
    parsed(
      companySettingsSchema,
      {
        businessName,
        phone: "(303) 555-0142",
        email: "office@summitplumbing.example",
        address: "2150 Larimer Street\nDenver, CO 80205",
        timeZone: DEMO_TIME_ZONE,
        currency: "USD",
        defaultTaxRate: "8.81",
        paymentTermsDays: "14",
        quoteValidityDays: "30",
      },
      "company settings",
    ),
  );

  for (const item of [
    {
      kind: "service",
      name: "Service call",
      description: "Trip and first half hour on site",
      unitPrice: "89.00",
      taxRate: "0",
    },
    { kind: "service", name: "Labour (per hour)", description: "Licensed plumber", unitPrice: "125.00", taxRate: "0" },
    {
      kind: "service",
      name: "Water heater flush",
      description: "Drain, flush sediment, check anode and T&P valve",
      unitPrice: "149.00",
      taxRate: "0",
    },
    {
      kind: "product",
      name: "50 gal gas water heater",
      description: "Bradford White RG250T6N",
      unitPrice: "1349.00",
      taxRate: "8.81",
    },
    {
      kind: "product",
      name: "Expansion tank (2 gal)",
      description: "Thermal expansion tank, potable",
      unitPrice: "79.00",
      taxRate: "8.81",
    },
    {
      kind: "service",
      name: "Furnace tune-up",
      description: "Clean burners, check flame sensor, filter and draft",
      unitPrice: "159.00",
      taxRate: "0",
    },
  ])
    await savePriceBookItem(a.office, parsed(priceBookItemSchema, item, `price book item ${item.name}`));

  const customer = async (row: Record<string, string>) =>
    (await createCustomer(a.office, parsed(customerSchema, row, `customer ${row.name}`))).id;
  const customers = {
    rivera: await customer({
      name: "Jamie Rivera",
      email: "jamie.rivera@example.com",
      phone: "(303) 555-0188",
      address_line1: "4120 Tennyson Street",
      city: "Denver",
      region: "CO",
      postal_code: "80212",
      country: "US",
    }),
    chen: await customer({
      name: "Grace Chen",
      email: "grace.chen@example.com",
      phone: "(720) 555-0131",
      address_line1: "77 S Pearl Street",
      city: "Denver",
      region: "CO",
      postal_code: "80209",
      country: "US",
    }),
    okafor: await customer({
      name: "Daniel Okafor",
      company: "Okafor Dental",
      email: "frontdesk@okafordental.example",
      phone: "(303) 555-0107",
      address_line1: "1600 Downing Street, Suite 200",
      city: "Denver",
      region: "CO",
      postal_code: "80218",
      country: "US",
    }),
    walsh: await customer({
      name: "Maeve Walsh",
      email: "maeve.walsh@example.com",
      phone: "(720) 555-0164",
      address_line1: "3300 W 32nd Avenue",
      city: "Denver",
      region: "CO",
      postal_code: "80211",
      country: "US",
      notes: "Side gate code 4471. Dog is friendly.",
    }),
  };

  const quote = async (customerId: string, title: string, items: Array<Record<string, unknown>>, notes?: string) =>
    (await createQuote(a.office, parsed(quoteFormSchema, { customerId, title, notes, items }, `quote ${title}`))).id;
  const quotes = {
    heater: await quote(
      customers.rivera,
      "Replace 50 gal gas water heater",
      [
        { description: "50 gal gas water heater", quantity: "1", unitPrice: "1349.00", taxRate: "8.81" },
        { description: "Labour (per hour)", quantity: "4", unitPrice: "125.00", taxRate: "0" },
        { description: "Expansion tank (2 gal)", quantity: "1", unitPrice: "79.00", taxRate: "8.81", optional: true },
        { description: "Haul away and recycle the old tank", quantity: "1", unitPrice: "45.00", taxRate: "0" },
      ],
      "Existing venting is corroded at the draft hood; replacement included.",
    ),
    approved: await quote(customers.chen, "Annual furnace tune-up", [
      { description: "Furnace tune-up", quantity: "1", unitPrice: "159.00", taxRate: "0" },
      { description: "Pleated filter 16x25x1 (MERV 11)", quantity: "2", unitPrice: "18.50", taxRate: "8.81" },
    ]),
    sent: await quote(customers.okafor, "Replace two lavatory faucets", [
      { description: "Commercial lavatory faucet", quantity: "2", unitPrice: "214.00", taxRate: "8.81" },
      { description: "Labour (per hour)", quantity: "2", unitPrice: "125.00", taxRate: "0" },
    ]),
    draft: await quote(customers.walsh, "Sump pump replacement", [
      { description: "1/3 hp submersible sump pump", quantity: "1", unitPrice: "289.00", taxRate: "8.81" },
      { description: "Labour (per hour)", quantity: "2", unitPrice: "125.00", taxRate: "0" },
    ]),
  };
  for (const id of [quotes.heater, quotes.approved, quotes.sent]) await sendQuote(a.office, id);
  await approveInPortal(a.office, quotes.heater, "Jamie Rivera");
  await approveInPortal(a.office, quotes.approved, "Grace Chen");

  // Both approved quotes become jobs, scheduled today with the technician.
  const today = dayIn(DEMO_TIME_ZONE);
  const heater = (await convertQuote(a.office, quotes.heater)).jobId;
  const furnace = (await convertQuote(a.office, quotes.approved)).jobId;
  await moveJob(a.office, heater, {
    assigneeId: a.technician.userId,
    scheduledStart: `${today}T08:00`,
    scheduledEnd: `${today}T12:00`,
  });
  await moveJob(a.office, furnace, {
    assigneeId: a.technician.userId,
    scheduledStart: `${today}T13:30`,
    scheduledEnd: `${today}T15:00`,
  });

  // The technician's morning: the water heater done, with a note; the job's clock (decision 212)
  // runs from On my way to Complete, at the times the phone recorded them, and ticks the checklist
  // (the quote's items) and gets the customer's name as the signature.
  const end = new Date();
  const before = (hours: number) => new Date(end.getTime() - hours * 3600_000).toISOString();
  // The office scheduled the day's jobs the evening before: their schedule events come before
  // the morning's field times.
  await inTenant(a.office.tenantId, (t) =>
    JobEvent.update(
      { occurredAt: new Date(end.getTime() - 16 * 3600_000) },
      { where: { tenantId: a.office.tenantId, jobId: [heater, furnace], toStatus: "scheduled" }, transaction: t },
    ),
  );
  await applyFieldAction(a.technician, {
    type: "job.status",
    args: { jobId: heater, status: "en_route" },
    occurredAt: before(3.75),
  });
  await applyFieldAction(a.technician, {
    type: "job.status",
    args: { jobId: heater, status: "in_progress" },
    occurredAt: before(3.5),
  });
  await applyFieldAction(a.technician, {
    type: "job.note",
    args: {
      jobId: heater,
      body: "Old tank leaking at the base. New unit in, venting replaced, T&P piped to floor drain. Customer declined the expansion tank.",
    },
  });
  for (const item of await checklistItemIds(a.technician.tenantId, heater)) {
    await applyFieldAction(a.technician, {
      type: "job.checklist",
      args: { jobId: heater, itemId: item, done: true },
      occurredAt: before(0.5),
    });
  }
  await applyFieldAction(a.technician, {
    type: "job.signature",
    args: { jobId: heater, name: "Jamie Rivera" },
    occurredAt: before(0.05),
  });
  await applyFieldAction(a.technician, {
    type: "job.status",
    args: { jobId: heater, status: "completed" },
    occurredAt: end.toISOString(),
  });

  // The office invoices the finished job and sends it; the customer pays a deposit in the portal.
  const invoice = await createInvoiceFromJob(a.office, heater);
  await sendInvoice(a.office, invoice.id);
  const share = await invoiceShare(a.office, invoice.id);
  if (!share) throw new Error("Demo seed: a sent invoice has no portal link");
  const payment = parsed(
    paymentSchema,
    { invoiceId: invoice.id, amount: "500.00", idempotencyKey: randomUUID() },
    "a portal payment",
  );
  await withPortal(
    tokenOf(share.url),
    SEED_META.ip,
    (portal, t) => recordSandboxPayment(portal, t, payment, SEED_META),
    { lock: true },
  );

  return { customers, quotes, jobs: { heater, furnace }, invoice: invoice.id };
}
