// What the customer portal page shows, shared by the services that build it and the
// components that render it (no server imports here).
import type { SubmissionResult } from "@conform-to/react";
import type { ChoicePricing } from "./quote-choice";
import type { PricedInput, Summary } from "~/services/taxes/rate-book";

import {
  TIME_WINDOWS,
  type BookingRequestStatus,
  type InvoiceStatus,
  type QuoteStatus,
  type TimeWindow,
  type OPEN_ON_CALENDAR_STATUSES,
} from "../../../db/enums";

export { TIME_WINDOWS, type TimeWindow };

export const TIME_WINDOW_LABELS: Record<TimeWindow, string> = {
  any: "Any time",
  morning: "Morning (8 am – 12 pm)",
  afternoon: "Afternoon (12 – 5 pm)",
  evening: "Evening (5 – 8 pm)",
};

/** The invoices a customer sees: sent, partly paid, paid and void (never a draft). */
export const PORTAL_INVOICE_STATUSES = ["sent", "partial", "paid", "void"] as const satisfies readonly InvoiceStatus[];
export type PortalInvoiceStatus = (typeof PORTAL_INVOICE_STATUSES)[number];

export type PortalLineItem = {
  id: string;
  description: string;
  quantity: string;
  unitPriceCents: number;
  taxRate: string;
  lineTotalCents: number;
  taxCents: number;
  /** What prices the line again for a choice (app/services/portal/quote-choice.ts). */
  priced: PricedInput;
};

/** A quote's line: its option group (null = always included), optional flag, and the recorded choice. */
export type PortalQuoteLine = PortalLineItem & { option: string | null; optional: boolean; selected: boolean | null };

type Totals = {
  currency: string;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  /** The document's discount, exemption and rates, and its figures as stored (its recorded or default choice). */
  pricing: ChoicePricing;
  summary: Summary;
};

export type PortalQuote = Totals & {
  id: string;
  number: string;
  title: string | null;
  /** `expired` is a sent quote whose valid_until has passed (derived, in the business's time zone). */
  status: Extract<QuoteStatus, "sent" | "approved" | "declined" | "expired">;
  issueDate: string | null;
  validUntil: string | null;
  notes: string | null;
  approvedAt: string | null;
  approvedName: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  items: PortalQuoteLine[];
  /** The option the customer approved (docs/decisions/155). */
  chosenOption: string | null;
  /** The deposit asked on approval (docs/decisions/156): a percent or an amount. */
  depositPercent: string | null;
  depositCents: number | null;
  /** The deposit paid with the approval (sandbox). */
  depositPaid: { amountCents: number; reference: string; paidAt: string } | null;
  /** The customer's requests for changes, oldest first (docs/decisions/157). */
  changeRequests: Array<{ message: string; createdAt: string }>;
};

/** A payment on one of the customer's invoices: the portal's sandbox, or one the office recorded. */
export type PortalPayment = { id: string; amountCents: number; method: string; reference: string; recordedAt: string };

export type PortalInvoice = Totals & {
  id: string;
  number: string;
  status: PortalInvoiceStatus;
  overdue: boolean;
  issueDate: string | null;
  dueDate: string | null;
  notes: string | null;
  amountPaidCents: number;
  balanceCents: number;
  paidAt: string | null;
  items: PortalLineItem[];
  payments: PortalPayment[];
  /** The payment form's idempotency key, new on every render. */
  paymentKey: string;
};

export type PortalBookingRequest = {
  service: string;
  preferredDate: string | null;
  timeWindow: TimeWindow;
  status: BookingRequestStatus;
  createdAt: string;
};

/** One of the customer's upcoming visits: its job, time window and the crew's first names. */
export type PortalVisit = {
  id: string;
  jobTitle: string;
  start: string;
  end: string | null;
  status: (typeof OPEN_ON_CALENDAR_STATUSES)[number];
  crew: string[];
};

export type PortalHubData = {
  token: string;
  /** `logoUrl`: the business's logo (a path on this site), or null. */
  business: { name: string; timeZone: string; logoUrl: string | null };
  customer: { name: string; phone: string | null; address: string | null };
  /** The customer's service properties, offered by the booking form. */
  properties: Array<{ id: string; label: string }>;
  linkExpiresAt: string;
  /** The business's calendar day and the last day a visit can be requested for. */
  today: string;
  lastBookableDate: string;
  quotes: PortalQuote[];
  invoices: PortalInvoice[];
  bookingRequests: PortalBookingRequest[];
  /** The customer's visits not yet over, soonest first. */
  visits: PortalVisit[];
  bookingKey: string;
};

export type PortalFormKind = "quote" | "payment" | "booking";

/** What a portal form route answers when a field or the state is wrong (status 422 / 409). */
export type PortalFormFailure = {
  ok: false;
  form: PortalFormKind;
  /** The quote or invoice the form was about (to show the error on its card). */
  targetId: string | null;
  /** conform's answer: the errors beside the fields (the form's own: a wrong state, a hidden field), the typed values. */
  result: SubmissionResult<string[]>;
  /** The page to render around the error (the no-JavaScript form post lands on the form route). */
  hub: PortalHubData;
};

/** Confirmations after a 303 back to the hub (`?done=...&id=...`). */
export const DONE = [
  "quote-approved",
  "quote-declined",
  "quote-changes-requested",
  "payment-recorded",
  "booking-sent",
] as const;
export type PortalDone = (typeof DONE)[number];
