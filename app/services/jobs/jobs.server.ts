import { inTenant, type Tx } from "../../../db/index";
import { Job, JobEvent, Tenant, User, type JobStatus } from "../../../db/models/index";
import { conflict, forbidden, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/utils/auth.server";
import { isUuid } from "~/utils/crypto.server";
import { can } from "~/utils/permissions";
import { zonedToUtc } from "./local-time";

// Jobs made and changed by hand in the office (CONTRACT section 12): the commands the job form,
// the cancel/reopen buttons, a booking request's "Create job", the schedule page (issue 17) and
// the demo seed all call. Each locks the job row it changes in the same transaction.

export function assertManagesRecords(actor: Actor) {
  if (!can(actor.role, "manage_records")) throw forbidden("Your role cannot create or change records.");
}

/** A schedule: who and when, as instants. All empty = unscheduled. */
export type Schedule = { assigneeId: string | null; start: Date | null; end: Date | null };
/** The same as the forms post it: wall-clock `YYYY-MM-DDTHH:MM` in the tenant's time zone. */
export type LocalSchedule = { assigneeId?: string | null; scheduledStart?: string | null; scheduledEnd?: string | null };

/**
 * The one rule for a job's status when its schedule changes: an unscheduled or scheduled job
 * is `scheduled` exactly when it has a start; a job already under way or done keeps its status.
 */
export function statusForSchedule(current: JobStatus, start: Date | null): JobStatus {
  if (current === "unscheduled" || current === "scheduled") return start ? "scheduled" : "unscheduled";
  return current;
}

export async function tenantTimeZone(tenantId: string, t: Tx): Promise<string> {
  const tenant = await Tenant.findByPk(tenantId, { attributes: ["timeZone"], transaction: t });
  return tenant?.timeZone ?? "UTC";
}

/** Local form times to instants in the tenant's zone. */
export async function scheduleFromLocal(tenantId: string, input: LocalSchedule, t: Tx): Promise<Schedule> {
  const zone = await tenantTimeZone(tenantId, t);
  return {
    assigneeId: input.assigneeId || null,
    start: input.scheduledStart ? zonedToUtc(input.scheduledStart, zone) : null,
    end: input.scheduledEnd ? zonedToUtc(input.scheduledEnd, zone) : null,
  };
}

async function assertAssignable(tenantId: string, assigneeId: string | null, t: Tx) {
  if (!assigneeId) return;
  const member = isUuid(assigneeId) && (await User.findOne({ where: { tenantId, id: assigneeId }, attributes: ["id"], transaction: t }));
  if (!member) throw validationFailed({ assigneeId: ["Choose a member of your team."] });
}

/** Records a status change in the job's event stream (what the field app and the job page show). */
async function statusEvent(actor: Actor, job: Job, from: JobStatus | null, t: Tx) {
  if (from === job.status) return;
  await JobEvent.create({ tenantId: actor.tenantId, jobId: job.id, userId: actor.userId, fromStatus: from, toStatus: job.status, occurredAt: new Date() }, { transaction: t });
}

/**
 * Sets a locked job's technician and times and, by `statusForSchedule`, its status. A cancelled
 * job is 409 (reopen it first). Field errors name the form's fields.
 */
export async function applySchedule(actor: Actor, job: Job, s: Schedule, t: Tx): Promise<{ changed: boolean }> {
  if (job.status === "cancelled") throw conflict("This job is cancelled. Reopen it before scheduling it.");
  if (s.end && !s.start) throw validationFailed({ scheduledStart: ["Enter a start, or clear the end."] });
  if (s.start && s.end && s.end < s.start) throw validationFailed({ scheduledEnd: ["The end is before the start."] });
  await assertAssignable(actor.tenantId, s.assigneeId, t);
  const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
  const changed = job.assigneeId !== s.assigneeId || !same(job.scheduledStart, s.start) || !same(job.scheduledEnd, s.end);
  const from = job.status;
  const isNew = job.isNewRecord;
  job.set({ assigneeId: s.assigneeId, scheduledStart: s.start, scheduledEnd: s.end, status: statusForSchedule(job.status, s.start) });
  await job.save({ transaction: t });
  if (!isNew) await statusEvent(actor, job, from, t);
  return { changed };
}

/** The job, locked for this transaction; another tenant's id is "not found" like a missing one. */
export async function lockJob(actor: Actor, jobId: string, t: Tx): Promise<Job> {
  const job = isUuid(jobId) && (await Job.findOne({ where: { tenantId: actor.tenantId, id: jobId }, transaction: t, lock: t.LOCK.UPDATE }));
  if (!job) throw notFound("Job not found.");
  return job;
}

/** Moves a job to a technician and times (the schedule page's one action; all empty = unschedule). */
export async function scheduleJob(actor: Actor, jobId: string, input: LocalSchedule) {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    const result = await applySchedule(actor, job, await scheduleFromLocal(actor.tenantId, input, t), t);
    return { job, ...result };
  });
}
