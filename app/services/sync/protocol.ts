/**
 * The offline sync protocol (CONTRACT section 7, docs/offline-sync.md), shared by the server
 * and the field page's browser code: request shapes, mutation types and the job transitions.
 */
import { z } from "zod";

export const MAX_MUTATIONS = 500;
export const NOTE_MAX = 5000;

export const JOB_STATUSES = ["unscheduled", "scheduled", "en_route", "in_progress", "on_hold", "completed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The statuses a field mutation may set. */
export const FIELD_STATUSES = ["en_route", "in_progress", "on_hold", "completed"] as const;
export type FieldStatus = (typeof FIELD_STATUSES)[number];

/** scheduled -> en_route -> in_progress <-> on_hold, in_progress -> completed. */
export const NEXT_STATUSES: Record<JobStatus, readonly FieldStatus[]> = {
  unscheduled: [],
  scheduled: ["en_route"],
  en_route: ["in_progress"],
  in_progress: ["on_hold", "completed"],
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

// Text PostgreSQL can store: no NUL character and no lone UTF-16 surrogate (either would fail
// the write every time, and the client would retry that mutation for ever).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (s: string) => !s.includes("\u0000") && !LONE_SURROGATE.test(s);
const text = (max: number) =>
  z.string({ required_error: "Required." }).trim().max(max, `At most ${max} characters.`).refine(storable, "Contains characters that cannot be stored.");

const dateTime = z.string().datetime({ offset: true, message: "Use an ISO 8601 date-time with a time zone, e.g. 2026-06-16T09:30:00Z." });
// A job id that is not a UUID names no job: rejected as unknown, like any other missing job.
const jobId = z.string({ required_error: "Required." }).min(1, "Required.").max(100);

/** The envelope of one mutation; its `args` are checked per type when it is processed. */
export const mutationSchema = z.object({
  id: z.number({ required_error: "Required.", invalid_type_error: "Must be a whole number." }).int("Must be a whole number.").positive("Must be 1 or more.").max(Number.MAX_SAFE_INTEGER),
  type: z.string({ required_error: "Required." }).min(1, "Required.").max(100),
  occurredAt: dateTime,
  args: z.record(z.unknown(), { required_error: "Required.", invalid_type_error: "Must be an object." }),
});
export type Mutation = z.infer<typeof mutationSchema>;

export const pushSchema = z.object({
  clientId: z.string({ required_error: "Required." }).uuid("Must be a UUID."),
  mutations: z.array(mutationSchema, { required_error: "Required.", invalid_type_error: "Must be an array." }).max(MAX_MUTATIONS),
});
export type PushRequest = z.infer<typeof pushSchema>;

export const ARGS_SCHEMAS = {
  "job.status": z.object({ jobId, status: z.enum(FIELD_STATUSES, { errorMap: () => ({ message: `One of ${FIELD_STATUSES.join(", ")}.` }) }) }),
  "job.note": z.object({ jobId, body: text(NOTE_MAX).pipe(z.string().min(1, "Write a note.")) }),
  "job.time_entry": z
    .object({
      jobId,
      startedAt: dateTime,
      endedAt: dateTime,
      note: text(NOTE_MAX).optional(),
    })
    .refine((a) => Date.parse(a.endedAt) >= Date.parse(a.startedAt), { message: "Must not be before startedAt.", path: ["endedAt"] }),
} as const;

export type MutationType = keyof typeof ARGS_SCHEMAS;
export const MUTATION_TYPES = Object.keys(ARGS_SCHEMAS) as MutationType[];
export type MutationArgs<T extends MutationType> = z.infer<(typeof ARGS_SCHEMAS)[T]>;

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
