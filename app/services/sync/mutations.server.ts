import { inTenant, one, rows, type Tx } from "../../../db/index";
import { AppError, conflict, forbidden, isAppError, notFound } from "~/utils/app-error";
import type { Actor } from "~/utils/auth.server";
import { isUuid } from "~/utils/crypto.server";
import {
  ARGS_SCHEMAS,
  canMoveTo,
  STATUS_LABELS,
  type JobStatus,
  type MutationArgs,
  type MutationError,
  type MutationType,
} from "./protocol";

/**
 * The field's operations on jobs, one handler per mutation type. Each handler checks
 * everything (arguments, the job, the actor's right to it, the transition) before its first
 * write, so a refusal (an AppError) leaves the transaction clean: the push still records the
 * mutation as processed, and the /field form shows the message.
 */
export type FieldMutation = { type: string; occurredAt: string; args: Record<string, unknown> };

type Handler<T extends MutationType> = (actor: Actor, args: MutationArgs<T>, occurredAt: Date, t: Tx) => Promise<void>;

type LockedJob = { status: JobStatus; assignee_id: string | null; title: string };

/** The job, locked for this transaction, if the actor may act on it. */
async function jobFor(actor: Actor, jobId: string, t: Tx): Promise<LockedJob> {
  const job = isUuid(jobId)
    ? await one<LockedJob>(`SELECT status, assignee_id, title FROM jobs WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [actor.tenantId, jobId], t)
    : undefined;
  if (!job) throw notFound("This job does not exist.");
  // A technician acts only on jobs assigned to them; office and above on any job of the tenant.
  if (actor.role === "technician" && job.assignee_id !== actor.userId) throw forbidden("This job is not assigned to you.");
  return job;
}

// A device clock ahead of the server does not put events in the future.
const notAfterNow = (d: Date) => new Date(Math.min(d.getTime(), Date.now()));

const HANDLERS: { [T in MutationType]: Handler<T> } = {
  async "job.status"(actor, args, occurredAt, t) {
    const job = await jobFor(actor, args.jobId, t);
    if (!canMoveTo(job.status, args.status)) {
      throw conflict(`A job that is ${STATUS_LABELS[job.status].toLowerCase()} cannot become ${STATUS_LABELS[args.status].toLowerCase()}.`);
    }
    const at = notAfterNow(occurredAt);
    await rows(
      `WITH moved AS (
         UPDATE jobs SET status = $3, updated_at = now(),
                completed_at = CASE WHEN $3 = 'completed' THEN $6::timestamptz ELSE completed_at END
          WHERE tenant_id = $1 AND id = $2 RETURNING id)
       INSERT INTO job_events (tenant_id, job_id, user_id, from_status, to_status, occurred_at)
       SELECT $1, id, $4, $5, $3, $6 FROM moved`,
      [actor.tenantId, args.jobId, args.status, actor.userId, job.status, at],
      t,
    );
  },
  async "job.note"(actor, args, occurredAt, t) {
    await jobFor(actor, args.jobId, t);
    await rows(
      `INSERT INTO job_notes (tenant_id, job_id, author_id, body, occurred_at) VALUES ($1, $2, $3, $4, $5)`,
      [actor.tenantId, args.jobId, actor.userId, args.body, notAfterNow(occurredAt)],
      t,
    );
  },
  async "job.time_entry"(actor, args, _occurredAt, t) {
    await jobFor(actor, args.jobId, t);
    await rows(
      `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at, note) VALUES ($1, $2, $3, $4, $5, $6)`,
      [actor.tenantId, args.jobId, actor.userId, args.startedAt, args.endedAt, args.note || null],
      t,
    );
  },
};

const isMutationType = (type: string): type is MutationType => Object.hasOwn(HANDLERS, type);

/** Applies one mutation inside `t`, or throws the AppError that says why it cannot apply. */
export async function runMutation(actor: Actor, m: FieldMutation, t: Tx): Promise<void> {
  if (!isMutationType(m.type)) {
    throw new AppError("VALIDATION_FAILED", `Unknown mutation type "${m.type}".`, { fields: { type: [`One of ${Object.keys(HANDLERS).join(", ")}.`] } });
  }
  const parsed = ARGS_SCHEMAS[m.type].safeParse(m.args);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[issue.path.join(".") || "args"] ??= []).push(issue.message);
    throw new AppError("VALIDATION_FAILED", "The mutation's arguments are not valid.", { fields });
  }
  const args = parsed.data;
  await (HANDLERS[m.type] as Handler<MutationType>)(actor, args, new Date(m.occurredAt), t);
}

/** For a push: null when applied, else the permanent error (the transaction stays usable). */
export async function tryMutation(actor: Actor, m: FieldMutation, t: Tx): Promise<MutationError | null> {
  try {
    await runMutation(actor, m, t);
    return null;
  } catch (error) {
    if (!isAppError(error)) throw error;
    const out: MutationError = { code: error.code, message: error.message };
    if (Object.keys(error.fields).length) out.fields = error.fields;
    return out;
  }
}

/** The /field page's forms (no JavaScript): the same operations, applied at once in one transaction. */
export async function applyFieldAction(actor: Actor, m: Omit<FieldMutation, "occurredAt">): Promise<void> {
  await inTenant(actor.tenantId, (t) => runMutation(actor, { ...m, occurredAt: new Date().toISOString() }, t));
}
