// Every value set the database stores, declared once. The models, the zod schemas, the
// services and the pages import these (nothing here imports anything, so the browser can too);
// the migrations' CHECK constraints are the frozen history of the same lists.
// tests/unit/enums-once.test.ts fails when one of these lists is written out a second time.

/** Staff roles, most powerful first. */
export const ROLES = ["owner", "admin", "office", "technician"] as const;
export type Role = (typeof ROLES)[number];

export const JOB_STATUSES = [
  "unscheduled",
  "scheduled",
  "en_route",
  "in_progress",
  "on_hold",
  "completed",
  "cancelled",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job or visit under way: on the way, working, or paused. */
export const UNDER_WAY_STATUSES = ["en_route", "in_progress", "on_hold"] as const satisfies readonly JobStatus[];
/** A job or visit on the calendar and not done yet (it needs its time). */
export const OPEN_ON_CALENDAR_STATUSES = ["scheduled", ...UNDER_WAY_STATUSES] as const;

/** A constant list as an SQL IN list: `'a', 'b'` (only for the constant lists of this file). */
export const sqlList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");

/** A visit's statuses: a job's, less `unscheduled` (a job with no visit is unscheduled). */
export type VisitStatus = Exclude<JobStatus, "unscheduled">;
export const VISIT_STATUSES = JOB_STATUSES.filter((s): s is VisitStatus => s !== "unscheduled");

/** `expired` is also derived on read: a sent quote past its valid_until. */
export const QUOTE_STATUSES = ["draft", "sent", "approved", "declined", "expired"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const INVOICE_STATUSES = ["draft", "sent", "partial", "paid", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAYMENT_METHODS = ["sandbox", "cash", "check", "card", "bank_transfer", "import", "other"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const BOOKING_REQUEST_STATUSES = ["new", "scheduled", "declined", "archived"] as const;
export type BookingRequestStatus = (typeof BOOKING_REQUEST_STATUSES)[number];

/** The part of the day a customer asks for a visit in. */
export const TIME_WINDOWS = ["any", "morning", "afternoon", "evening"] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** What a CSV import creates, in the order a whole migration imports them. */
export const IMPORT_TYPES = ["customers", "jobs", "quotes", "invoices", "team"] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export const IMPORT_RUN_STATES = ["previewed", "superseded", "committed", "undone"] as const;
export type ImportRunState = (typeof IMPORT_RUN_STATES)[number];

/** The records a history line can be about (docs/decisions/120). */
export const RECORD_TYPES = ["customer", "quote", "job", "invoice", "booking_request"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Where a change came from: a staff page, the customer portal, the field app, an import, the system. */
export const HISTORY_SOURCES = ["staff", "portal", "field", "import", "system"] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/**
 * An e-mail's life in the outbox (docs/decisions/140): `queued` waits for a worker, `sending`
 * is claimed by one (until its lease ends), `sent` was accepted by the SMTP server, `failed`
 * was refused for good or ran out of tries, `local` was kept in the local outbox because no
 * SMTP server is configured (development).
 */
export const MESSAGE_STATUSES = ["queued", "sending", "sent", "failed", "local"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** What an e-mail is about: to a customer, to a new member, or to the office. */
export const MESSAGE_KINDS = [
  "quote_sent",
  "invoice_sent",
  "receipt",
  "invite",
  "reminder",
  "office_booking_request",
  "office_quote_answered",
  "office_portal_payment",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The image types a job photo may have (checked by its magic bytes, migration 0087). */
export const PHOTO_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

/** What a time entry's hours were spent on (a timesheet's lines). Breaks are shown, not paid. */
export const TIME_ENTRY_KINDS = ["work", "travel", "break"] as const;
export type TimeEntryKind = (typeof TIME_ENTRY_KINDS)[number];
/** `pending`: waits for the office (a technician's manual entry, a late entry for an approved week). */
export const TIME_ENTRY_STATES = ["counted", "pending"] as const;
export type TimeEntryState = (typeof TIME_ENTRY_STATES)[number];
export const TIME_ENTRY_ORIGINS = ["field", "office", "technician"] as const;
export type TimeEntryOrigin = (typeof TIME_ENTRY_ORIGINS)[number];
export const TIMESHEET_ACTIONS = ["add", "update", "delete", "accept", "discard", "approve", "reopen"] as const;
export type TimesheetAction = (typeof TIMESHEET_ACTIONS)[number];
