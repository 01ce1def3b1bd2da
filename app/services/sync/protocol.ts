/**
 * The offline sync protocol (CONTRACT section 7, docs/offline-sync.md), shared by the server
 * and the field page's browser code: mutation types, results, the job transitions, labels.
 * The request shapes (zod) are in ./schemas.
 */
import { JOB_STATUSES, type JobStatus } from "../../../db/enums";

export { JOB_STATUSES, type JobStatus };

export const MAX_MUTATIONS = 500;
export const NOTE_MAX = 5000;
/** A time entry spans at most this long (issue 24: a 10-year entry was accepted). */
export const TIME_ENTRY_MAX_MS = 24 * 60 * 60 * 1000;

export const MUTATION_TYPES = ["job.status", "job.note", "job.time_entry"] as const;
export type MutationType = (typeof MUTATION_TYPES)[number];

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
  if (to === "on_hold") return "Pause";
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
  customer: { name: string; phone: string | null };
  /** Time entries on the job (by anyone) and their total, rounded to the minute. */
  timeEntries: number;
  loggedMinutes: number;
  recentNotes: Array<{ id: string; body: string; occurredAt: string; authorName: string | null }>;
  updatedAt: string;
};

export type PushResponse = { clientId: string; lastMutationId: number; results: MutationResult[]; jobs: FieldJob[] };

/**
 * The running timer of a device: a cookie `<job id>.<start in epoch ms>` on path /field,
 * written by the field page's script or, without JavaScript, by the /field action.
 */
export const TIMER_COOKIE = "field_timer";
export type FieldTimer = { jobId: string; startedAt: string };

export function parseTimer(cookieHeader: string | null | undefined): FieldTimer | null {
  const m = (cookieHeader ?? "").match(new RegExp(`(?:^|;\\s*)${TIMER_COOKIE}=([0-9a-f-]{36})\\.(\\d{10,15})(?:;|$)`, "i"));
  if (!m) return null;
  const at = new Date(Number(m[2]));
  return Number.isNaN(at.getTime()) ? null : { jobId: m[1].toLowerCase(), startedAt: at.toISOString() };
}

export function timerCookie(timer: FieldTimer | null): string {
  const base = `${TIMER_COOKIE}=${timer ? `${timer.jobId}.${Date.parse(timer.startedAt)}` : ""}; Path=/field; SameSite=Lax`;
  return timer ? `${base}; Max-Age=${3 * 86400}` : `${base}; Max-Age=0`;
}
