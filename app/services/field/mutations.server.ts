import { one } from "../../../db/index";
import { AppError, conflict, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { notify } from "~/services/events/events.server";
import { ARGS_SCHEMAS } from "./mutation-schemas";
import {
  FIELD_STATUSES,
  NEXT_STATUSES,
  SIGNATURE_DATA_URL_PREFIX,
  STATUS_LABELS,
  type FieldStatus,
  type JobStatus,
  type MutationError,
  type MutationType,
} from "./protocol";

/**
 * The field's operations on jobs. The rules live here: argument shapes, the transitions, who
 * may act on which job, the messages. The database routines of migration 0006 do the locking
 * and writing (docs/decisions/031): `field_apply_mutation` one action, `field_push` a whole
 * push with a commit after each mutation. Both the push and the /field forms come here.
 */
export type FieldMutation = { type: string; occurredAt: string; args: Record<string, unknown> };

export type Outcome =
  "applied" | "duplicate" | "skipped" | "invalid" | "not_found" | "forbidden" | "conflict" | "client_forbidden";
/** What the database answers for one mutation. */
export type DbOutcome = {
  outcome: Outcome;
  lastMutationId?: number;
  jobStatus?: JobStatus | null;
  /** The visit the mutation acted on (none for a job without visits). */
  visitId?: string | null;
  /** Why a conflict or not_found (migration 0084): a checklist, the clock, a closed job, an unknown item. */
  reason?: "checklist_incomplete" | "clock_running" | "clock_not_started" | "clock_stopped" | "closed" | "item" | null;
  /** The checklist items not ticked, when completing needs them all. */
  missing?: string[] | null;
};

/** A mutation checked and turned into the database routine's arguments (`type` null: refused). */
export type Prepared = {
  type: MutationType | null;
  jobId: string | null;
  /** The visit named, if any (a name that is not a UUID becomes NO_VISIT: unknown). */
  visitId: string | null;
  status: FieldStatus | null;
  allowedFrom: JobStatus[] | null;
  body: string | null;
  startedAt: string | null;
  endedAt: string | null;
  occurredAt: string | null;
  error?: MutationError;
};

// Which statuses a job may move from to reach each field status (NEXT_STATUSES turned round).
const ALLOWED_FROM = Object.fromEntries(
  FIELD_STATUSES.map((to) => [
    to,
    (Object.keys(NEXT_STATUSES) as JobStatus[]).filter((from) => NEXT_STATUSES[from].includes(to)),
  ]),
) as Record<FieldStatus, JobStatus[]>;

/** What the office's open pages refresh for (/events): a status change, the clock, the checklist, a signature. */
export const announces = (type: MutationType | null) =>
  type !== null && type !== "job.note" && type !== "job.time_entry";

/** A technician acts only on jobs assigned to them; office and above on any job of the tenant. */
export const actsOnAnyJob = (actor: Actor) => actor.role !== "technician";

const isMutationType = (type: string): type is MutationType => Object.hasOwn(ARGS_SCHEMAS, type);

// A device clock ahead of the server does not put events in the future.
const notAfterNow = (iso: string) => new Date(Math.min(Date.parse(iso), Date.now())).toISOString();

// The newer types pass their arguments to field_apply_mutation as JSON in p_body (migration 0084).
const JSON_ARGS = new Set<MutationType>(["job.clock", "job.checklist", "job.signature"]);
function jsonArgs(type: MutationType, args: Record<string, unknown>): string {
  if (type === "job.signature") {
    const { name, image } = args as { name: string; image?: string };
    return JSON.stringify({ name, image: image ? image.slice(SIGNATURE_DATA_URL_PREFIX.length) : null });
  }
  const { jobId: _job, visitId: _visit, ...rest } = args;
  return JSON.stringify(rest);
}

/** Stands for a visit id that is not a UUID: no visit has it, so the database answers not_found. */
const NO_VISIT = "00000000-0000-0000-0000-000000000000";

const refused = (error: MutationError): Prepared => ({
  type: null,
  jobId: null,
  visitId: null,
  status: null,
  allowedFrom: null,
  body: null,
  startedAt: null,
  endedAt: null,
  occurredAt: null,
  error,
});

/** Checks the type and arguments; a refusal here is permanent (a push still counts the mutation). */
export function prepare(m: FieldMutation): Prepared {
  if (!isMutationType(m.type)) {
    return refused({
      code: "VALIDATION_FAILED",
      message: `Unknown mutation type "${m.type}".`,
      fields: { type: [`One of ${Object.keys(ARGS_SCHEMAS).join(", ")}.`] },
    });
  }
  const parsed = ARGS_SCHEMAS[m.type].safeParse(m.args);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join(".") || "args"] ??= []).push(issue.message);
    return refused({ code: "VALIDATION_FAILED", message: "The mutation's arguments are not valid.", fields });
  }
  const a = parsed.data as {
    jobId: string;
    visitId?: string;
    status?: FieldStatus;
    body?: string;
    note?: string;
    startedAt?: string;
    endedAt?: string;
  };
  return {
    type: m.type,
    // A job id that is not a UUID names no job: the database answers not_found.
    jobId: isUuid(a.jobId) ? a.jobId : null,
    visitId: a.visitId === undefined ? null : isUuid(a.visitId) ? a.visitId : NO_VISIT,
    status: a.status ?? null,
    allowedFrom: a.status ? ALLOWED_FROM[a.status] : null,
    body: JSON_ARGS.has(m.type) ? jsonArgs(m.type, parsed.data) : (a.body ?? (a.note || null)),
    startedAt: a.startedAt ?? null,
    endedAt: a.endedAt ?? null,
    occurredAt: notAfterNow(m.occurredAt),
  };
}

/** Why a mutation did not apply, in the words the client shows; undefined when it applied. */
export function errorOf(p: Prepared, r: DbOutcome): MutationError | undefined {
  if (p.error) return p.error;
  // A job or visit of the tenant that is not the technician's ("forbidden") answers as an unknown
  // id does, so the answer never tells which jobs and visits exist.
  const e =
    r.outcome === "not_found" && r.reason === "item"
      ? notFound("This checklist item is not on this job (the office may have changed the list).")
      : r.outcome === "not_found" || r.outcome === "forbidden"
        ? notFound(p.visitId ? "This visit does not exist." : "This job does not exist.")
        : r.outcome === "conflict"
          ? conflict(conflictMessage(p, r))
          : null;
  return e ? { code: e.code, message: e.message } : undefined;
}

function conflictMessage(p: Prepared, r: DbOutcome): string {
  const status = STATUS_LABELS[r.jobStatus!].toLowerCase();
  switch (r.reason) {
    case "checklist_incomplete": {
      const missing = r.missing ?? [];
      const named =
        missing
          .slice(0, 3)
          .map((l) => `“${l}”`)
          .join(", ") + (missing.length > 3 ? ` and ${missing.length - 3} more` : "");
      return `Tick every checklist item before completing the job: ${named} ${missing.length === 1 ? "is" : "are"} not ticked.`;
    }
    case "clock_running":
      return "The clock is already running on this job.";
    case "clock_not_started":
      return `The clock runs while a job is on the way or in progress; this one is ${status}.`;
    case "clock_stopped":
      return "No clock is running on this job.";
    case "closed":
      return `This job is ${status}; it can no longer change.`;
    default:
      return `A job that is ${status} cannot become ${STATUS_LABELS[p.status!].toLowerCase()}.`;
  }
}

/** The /field page's forms (no JavaScript): one action, applied at once, or the AppError saying why not. */
export async function applyFieldAction(
  actor: Actor,
  m: Omit<FieldMutation, "occurredAt"> & { occurredAt?: string },
): Promise<void> {
  const p = prepare({ ...m, occurredAt: m.occurredAt ?? new Date().toISOString() });
  if (p.error) throw new AppError("VALIDATION_FAILED", p.error.message, { fields: p.error.fields });
  const row = await one<{ result: DbOutcome }>(
    `SELECT field_apply_mutation($1, $2, NULL, NULL, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS result`,
    [
      actor.tenantId,
      actor.userId,
      p.type,
      p.jobId,
      actsOnAnyJob(actor),
      p.status,
      p.allowedFrom,
      p.body,
      p.startedAt,
      p.endedAt,
      p.occurredAt,
      p.visitId,
    ],
  );
  const error = errorOf(p, row!.result);
  if (error) throw new AppError(error.code as AppError["code"], error.message);
  // The statement committed on its own (the function is the transaction): announced after it.
  if (announces(p.type) && row!.result.outcome === "applied")
    await notify(undefined, actor.tenantId, { type: "job.status_changed", id: p.jobId! });
}
