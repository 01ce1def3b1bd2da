// The list filters built on the record states (shared by services and pages: no server imports).
// The states themselves are declared once, in db/enums.ts.
import { BOOKING_REQUEST_STATUSES, JOB_STATUSES, type BookingRequestStatus, type JobStatus } from "../../../db/enums";

export { JOB_STATUSES };

/** Customers list filters: everyone, with open jobs, with unpaid invoices. */
export const CUSTOMER_FILTERS = ["all", "open_jobs", "unpaid"] as const;

export const CLOSED_JOB_STATUSES = ["completed", "cancelled"] as const satisfies readonly JobStatus[];
/**
 * Jobs list filters: `open` (the default) is every status but completed and cancelled;
 * `to_invoice` is completed with no invoice made from it yet (the dashboard's figure).
 */
export const JOB_FILTERS = ["open", "all", ...JOB_STATUSES, "to_invoice"] as const;

/**
 * Quote states as staff see them (`expired` is derived: sent and past valid_until);
 * `to_schedule` is approved and not yet converted to a job (the dashboard's figure).
 */
export const QUOTE_FILTERS = ["all", "draft", "sent", "expired", "approved", "declined", "to_schedule"] as const;

/** Invoice filters: `unpaid` is sent or partial; `overdue` is unpaid and past the due date. */
export const INVOICE_FILTERS = ["all", "unpaid", "overdue", "draft", "sent", "partial", "paid", "void"] as const;

/** Booking request states (the list of db/enums.ts under the name the triage code uses). */
export const REQUEST_STATUSES = BOOKING_REQUEST_STATUSES;
export type RequestStatus = BookingRequestStatus;
export const REQUEST_FILTERS = ["all", ...REQUEST_STATUSES] as const;
/** Triage: a new request is scheduled, declined or archived; a handled one can still be archived. */
export const REQUEST_TRANSITIONS: Record<RequestStatus, RequestStatus[]> = {
  new: ["scheduled", "declined", "archived"],
  scheduled: ["archived"],
  declined: ["archived"],
  archived: [],
};

export const FILTER_LABELS: Record<string, string> = {
  all: "All",
  open: "Open",
  unpaid: "Unpaid",
  overdue: "Overdue",
  sent: "Sent",
  open_jobs: "With open jobs",
  to_schedule: "Approved, waiting for a job",
  to_invoice: "Completed, not invoiced",
};

/** Badge colour of a status. */
export function statusTone(status: string): "success" | "danger" | "warning" | "muted" | "info" {
  switch (status) {
    case "completed":
    case "approved":
    case "paid":
    case "active":
      return "success";
    case "cancelled":
    case "declined":
    case "void":
    case "overdue":
    case "revoked":
      return "danger";
    case "on_hold":
    case "expired":
    case "partial":
    case "new":
    case "unscheduled":
      return "warning";
    case "draft":
    case "archived":
      return "muted";
    default:
      return "info";
  }
}

/** What the customer still owes on an invoice: nothing on a void one. */
export function balanceDue(i: { status: string; total_cents: number; amount_paid_cents: number }): number {
  return i.status === "void" ? 0 : Number(i.total_cents) - Number(i.amount_paid_cents);
}
