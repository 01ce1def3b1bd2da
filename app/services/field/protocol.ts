/**
 * The offline sync protocol (docs/offline-sync.md), shared by the server
 * and the field page's browser code: mutation types, results, the job transitions, labels.
 * The request shapes (zod) are in ./schemas.
 */
import { JOB_STATUSES, type JobStatus } from "../../../db/enums";

export { JOB_STATUSES, type JobStatus };

export const MAX_MUTATIONS = 500;
export const NOTE_MAX = 5000;
/** A time entry spans at most this long (a 10-year entry was accepted). */
export const TIME_ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

export const MUTATION_TYPES = [
  "job.status",
  "job.note",
  "job.time_entry",
  "job.clock",
  "job.checklist",
  "job.signature",
] as const;
export type MutationType = (typeof MUTATION_TYPES)[number];

/** `job.clock`'s actions: start or stop the job's one running clock without changing its status. */
export const CLOCK_ACTIONS = ["start", "stop"] as const;
export type ClockAction = (typeof CLOCK_ACTIONS)[number];
/** A customer's name under a signature. */
export const SIGNER_NAME_MAX = 100;
/** A drawn signature's PNG, at most this many bytes (the column's limit too). */
export const SIGNATURE_IMAGE_MAX = 256 * 1024;
export const SIGNATURE_DATA_URL_PREFIX = "data:image/png;base64,";

/** The statuses in which the job's clock may run: it starts with "On my way" or "Start work". */
export const CLOCK_STATUSES: readonly JobStatus[] = ["en_route", "in_progress"];

/** What a status change does to the job's clock (the database does the same, migration 0084). */
export function clockEffect(to: FieldStatus): "start" | "stop" {
  return to === "en_route" || to === "in_progress" ? "start" : "stop";
}

/** The statuses a field mutation may set. */
export const FIELD_STATUSES = ["en_route", "in_progress", "on_hold", "completed"] as const;
export type FieldStatus = (typeof FIELD_STATUSES)[number];

/** scheduled -> en_route -> in_progress <-> on_hold, in_progress -> completed. */
export const NEXT_STATUSES: Record<JobStatus, readonly FieldStatus[]> = {
  unscheduled: [],
  scheduled: ["en_route"],
  en_route: ["in_progress"],
  in_progress: ["completed", "on_hold"],
  on_hold: ["in_progress"],
  completed: [],
  cancelled: [],
};

export const canMoveTo = (from: JobStatus, to: FieldStatus) => NEXT_STATUSES[from]?.includes(to) ?? false;

export const STATUS_LABELS: Record<JobStatus, string> = {
  unscheduled: "Not scheduled",
  scheduled: "Scheduled",
  en_route: "On the way",
  in_progress: "In progress",
  on_hold: "On hold",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** What the button that moves a job from `from` to `to` says. */
export function actionLabel(from: JobStatus, to: FieldStatus): string {
  if (to === "en_route") return "On my way";
  if (to === "in_progress") return from === "on_hold" ? "Resume work" : "Start work";
  if (to === "on_hold") return "Put on hold";
  return "Complete job";
}

export type ResultStatus = "applied" | "duplicate" | "rejected" | "skipped";
export type MutationError = { code: string; message: string; fields?: Record<string, string[]> };
export type MutationResult = { id: number; status: ResultStatus; error?: MutationError };

/** One of the caller's open assigned jobs, as a push answers it and the field page shows it. */
export type FieldJob = {
  id: string;
  title: string;
  status: JobStatus;
  nextStatuses: FieldStatus[];
  scheduledStart: string | null;
  scheduledEnd: string | null;
  address: string | null;
  description: string | null;
  /** `notes`: what the office keeps on the customer (a gate code, a dog), shown on the card. */
  customer: { name: string; phone: string | null; notes: string | null };
  /** Time entries on the job (by anyone) and their total, rounded to the minute. */
  timeEntries: number;
  loggedMinutes: number;
  recentNotes: Array<{ id: string; body: string; occurredAt: string; authorName: string | null }>;
  /** The job's running clock (a server record): since when, and since when on site. */
  clock: FieldClock | null;
  checklist: ChecklistItem[];
  /** The business's rule: completing needs every checklist item ticked. */
  checklistRequired: boolean;
  signature: { name: string; signedAt: string; drawn: boolean } | null;
  updatedAt: string;
};

export type FieldClock = { startedAt: string; onSiteAt: string | null };
export type ChecklistItem = { id: string; label: string; done: boolean };

/** A link that opens the address in the phone's maps app (or Google Maps in a browser). */
export function mapsLink(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

/** A tel: link for a phone number as typed ("555-0147" -> tel:5550147). */
export function telLink(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export type PushResponse = { clientId: string; lastMutationId: number; results: MutationResult[]; jobs: FieldJob[] };
