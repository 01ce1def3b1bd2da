import { Op } from "sequelize";
import { inTenant, type Tx } from "../../../db/index";
import { Customer, CustomerProperty, Job, JobEvent, Tenant, User, type JobStatus } from "../../../db/models/index";
import { conflict, forbidden, notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { formatDateTime } from "~/utils/format";
import { can } from "~/utils/permissions";
import { recordHistory } from "~/services/history/history.server";
import { utcToZoned, zonedToUtc } from "./local-time";
import { checklistText, setChecklist, stopClock } from "./checklist.server";
import { checklistLines, type JobFormInput } from "./schemas";
import { oneLineAddress } from "~/utils/address";
import { repeats } from "~/services/visits/repeat";
import { assertMayRepeat, createSeries, jobSeries } from "~/services/visits/series.server";

// Jobs made and changed by hand in the office: the commands the job form,
// the cancel/reopen buttons, a booking request's "Create job", the schedule page and
// the demo seed all call. Each locks the job row it changes in the same transaction.

export function assertManagesRecords(actor: Actor) {
  if (!can(actor.role, "manage_records")) throw forbidden("Your role cannot create or change records.");
}

/** A schedule: who and when, as instants. All empty = unscheduled. */
export type Schedule = { assigneeId: string | null; start: Date | null; end: Date | null };
/** The same as the forms post it: wall-clock `YYYY-MM-DDTHH:MM` in the tenant's time zone. */
export type LocalSchedule = {
  assigneeId?: string | null;
  scheduledStart?: string | null;
  scheduledEnd?: string | null;
};

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
  const member =
    isUuid(assigneeId) &&
    (await User.findOne({ where: { tenantId, id: assigneeId }, attributes: ["id"], transaction: t }));
  if (!member) throw validationFailed({ assigneeId: ["Choose a member of your team."] });
}

/** Records a status change in the job's event stream (what the field app and the job page show). */
async function statusEvent(actor: Actor, job: Job, from: JobStatus | null, t: Tx) {
  if (from === job.status) return;
  await JobEvent.create(
    {
      tenantId: actor.tenantId,
      jobId: job.id,
      userId: actor.userId,
      fromStatus: from,
      toStatus: job.status,
      occurredAt: new Date(),
    },
    { transaction: t },
  );
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
  const changed =
    job.assigneeId !== s.assigneeId || !same(job.scheduledStart, s.start) || !same(job.scheduledEnd, s.end);
  const from = job.status;
  const isNew = job.isNewRecord;
  job.set({
    assigneeId: s.assigneeId,
    scheduledStart: s.start,
    scheduledEnd: s.end,
    status: statusForSchedule(job.status, s.start),
  });
  await job.save({ transaction: t });
  if (!isNew) await statusEvent(actor, job, from, t);
  return { changed };
}

/** The job, locked for this transaction; another tenant's id is "not found" like a missing one. */
export async function lockJob(actor: Actor, jobId: string, t: Tx): Promise<Job> {
  const job =
    isUuid(jobId) &&
    (await Job.findOne({ where: { tenantId: actor.tenantId, id: jobId }, transaction: t, lock: t.LOCK.UPDATE }));
  if (!job) throw notFound("Job not found.");
  return job;
}

/** "Scheduled for Jun 16, 2026, 9:30 AM with Tom Tech", "Unscheduled": a schedule as a history line. */
async function scheduleSummary(tenantId: string, s: Schedule, t: Tx): Promise<string> {
  const who = s.assigneeId
    ? (await User.findOne({ where: { tenantId, id: s.assigneeId }, attributes: ["name"], transaction: t }))?.name
    : null;
  if (!s.start) return who ? `Unscheduled, assigned to ${who},` : "Unscheduled";
  return `Scheduled for ${formatDateTime(s.start, await tenantTimeZone(tenantId, t))}${who ? ` with ${who}` : ""}`;
}

async function assertCustomer(tenantId: string, customerId: string, t: Tx) {
  const customer =
    isUuid(customerId) &&
    (await Customer.findOne({ where: { tenantId, id: customerId }, attributes: ["id"], transaction: t }));
  if (!customer) throw validationFailed({ customerId: ["Choose a customer."] });
}

/**
 * The property a job names must be one of its customer's, in the tenant (the foreign key alone
 * would take another customer's). 422 beside the field otherwise (docs/decisions/221).
 */
export async function propertyOf(
  tenantId: string,
  customerId: string,
  propertyId: string | undefined,
  t: Tx,
): Promise<string | null> {
  if (!propertyId) return null;
  const found =
    isUuid(propertyId) &&
    (await CustomerProperty.findOne({
      where: { tenantId, customerId, id: propertyId },
      attributes: ["id"],
      transaction: t,
    }));
  if (!found) throw validationFailed({ propertyId: ["Choose one of this customer's properties."] });
  return found.id;
}

/**
 * A new job: `scheduled` with a start, else `unscheduled`. Runs in `t` when given (a booking
 * request's conversion), whose `summary` then says where it came from.
 */
export async function createJob(actor: Actor, input: JobFormInput, t?: Tx, summary = "Created"): Promise<Job> {
  assertManagesRecords(actor);
  if (!t) return inTenant(actor.tenantId, (tx) => createJob(actor, input, tx, summary));
  await assertCustomer(actor.tenantId, input.customerId, t);
  const propertyId = await propertyOf(actor.tenantId, input.customerId, input.propertyId, t);
  const job = Job.build({
    tenantId: actor.tenantId,
    customerId: input.customerId,
    title: input.title.trim(),
    description: input.description?.trim() || null,
    address: input.address?.trim() || null,
    propertyId,
    status: "unscheduled",
  });
  const schedule = await scheduleFromLocal(actor.tenantId, input, t);
  // A recurring job's visits come from its series (the job's row then follows them).
  const recurring = repeats(input);
  await applySchedule(actor, job, recurring ? { ...schedule, start: null, end: null } : schedule, t);
  await setChecklist(actor.tenantId, job.id, checklistLines(input.checklist), t);
  await recordHistory(t, actor, { recordType: "job", recordId: job.id, action: "created", summary });
  if (recurring) {
    await createSeries(actor, job, input, await tenantTimeZone(actor.tenantId, t), t);
    await job.reload({ transaction: t });
  } else if (schedule.start || schedule.assigneeId) {
    await recordHistory(t, actor, {
      recordType: "job",
      recordId: job.id,
      action: "scheduled",
      summary: await scheduleSummary(actor.tenantId, schedule, t),
    });
  }
  return job;
}

/** Changes a job's details and schedule; a cancelled job is 409 (reopen it first). */
export async function updateJob(actor: Actor, jobId: string, input: JobFormInput): Promise<Job> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.status === "cancelled") throw conflict("This job is cancelled. Reopen it before changing it.");
    await assertCustomer(actor.tenantId, input.customerId, t);
    const propertyId = await propertyOf(actor.tenantId, input.customerId, input.propertyId, t);
    job.set({
      customerId: input.customerId,
      title: input.title.trim(),
      description: input.description?.trim() || null,
      address: input.address?.trim() || null,
      propertyId,
    });
    const changedDetails = job.changed() || [];
    const schedule = await scheduleFromLocal(actor.tenantId, input, t);
    // A recurring job's visits are changed from each visit's page; its row follows them.
    const series = await jobSeries(actor.tenantId, job.id, t);
    const recurring = !series && repeats(input);
    if (recurring) await assertMayRepeat(actor.tenantId, job.id, t);
    const { changed } = series
      ? { changed: false }
      : await applySchedule(actor, job, recurring ? { ...schedule, start: null, end: null } : schedule, t);
    if (recurring) {
      await createSeries(actor, job, input, await tenantTimeZone(actor.tenantId, t), t);
      await job.reload({ transaction: t });
    }
    if (await setChecklist(actor.tenantId, job.id, checklistLines(input.checklist), t))
      changedDetails.push("checklist");
    if (changedDetails.length)
      await recordHistory(t, actor, { recordType: "job", recordId: job.id, action: "updated", summary: "Edited" });
    if (changed && !recurring)
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: job.id,
        action: "scheduled",
        summary: await scheduleSummary(actor.tenantId, schedule, t),
      });
    return job;
  });
}

/** Cancels a job that is not done; cancelling a cancelled job again changes nothing. */
export async function cancelJob(actor: Actor, jobId: string): Promise<Job> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.status === "cancelled") return job;
    if (job.status === "completed") throw conflict("This job is completed; it cannot be cancelled.");
    const from = job.status;
    job.status = "cancelled";
    await job.save({ transaction: t });
    // A cancelled job leaves no clock running: the time on it so far is logged (decision 212).
    await stopClock(actor.tenantId, job.id, new Date(), t);
    // The status change is the job event (docs/decisions/120: no second history line for it).
    await statusEvent(actor, job, from, t);
    return job;
  });
}

/**
 * Puts a cancelled job back to `unscheduled` (its old times and technician are cleared, so it
 * shows in the schedule's unscheduled list to be placed again).
 */
export async function reopenJob(actor: Actor, jobId: string): Promise<Job> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.status !== "cancelled")
      throw conflict(`This job is ${job.status.replace(/_/g, " ")}; only a cancelled job can be reopened.`);
    job.set({ status: "unscheduled", scheduledStart: null, scheduledEnd: null });
    await job.save({ transaction: t });
    await statusEvent(actor, job, "cancelled", t);
    return job;
  });
}

/** The job form's values for an existing job (times as wall clock in the tenant's zone). */
export async function jobFormValues(actor: Actor, jobId: string) {
  return inTenant(actor.tenantId, async (t) => {
    const job =
      isUuid(jobId) && (await Job.findOne({ where: { tenantId: actor.tenantId, id: jobId }, transaction: t }));
    if (!job) throw notFound("Job not found.");
    const zone = await tenantTimeZone(actor.tenantId, t);
    return {
      id: job.id,
      status: job.status,
      title: job.title,
      values: {
        customerId: job.customerId,
        title: job.title,
        description: job.description ?? "",
        address: job.address ?? "",
        scheduledStart: job.scheduledStart ? utcToZoned(job.scheduledStart, zone) : "",
        scheduledEnd: job.scheduledEnd ? utcToZoned(job.scheduledEnd, zone) : "",
        assigneeId: job.assigneeId ?? "",
        propertyId: job.propertyId ?? "",
        checklist: await checklistText(actor.tenantId, job.id, t),
      },
      /** The job's series, described ("every week on Monday"), if it repeats. */
      series: (await jobSeries(actor.tenantId, job.id, t))?.description ?? null,
    };
  });
}

/** Customers to choose from (by name, at most `limit`, always including `include`) and the team. */
export async function jobFormChoices(
  actor: Actor,
  opts: { include?: string | null; q?: string | null; limit?: number } = {},
) {
  return inTenant(actor.tenantId, async (t) => {
    const where: Record<string | symbol, unknown> = { tenantId: actor.tenantId };
    if (opts.q)
      where[Op.or as unknown as string] = [
        { name: { [Op.iLike]: `%${opts.q}%` } },
        { company: { [Op.iLike]: `%${opts.q}%` } },
      ];
    const customers = await Customer.findAll({
      where,
      attributes: ["id", "name", "company"],
      order: [
        ["name", "ASC"],
        ["id", "ASC"],
      ],
      limit: opts.limit ?? 300,
      transaction: t,
    });
    if (opts.include && isUuid(opts.include) && !customers.some((c) => c.id === opts.include)) {
      const chosen = await Customer.findOne({
        where: { tenantId: actor.tenantId, id: opts.include },
        attributes: ["id", "name", "company"],
        transaction: t,
      });
      if (chosen) customers.unshift(chosen);
    }
    const members = await User.findAll({
      where: { tenantId: actor.tenantId },
      attributes: ["id", "name", "role"],
      order: [["name", "ASC"]],
      limit: 500,
      transaction: t,
    });
    return {
      customers: customers.map((c) => ({ id: c.id, label: c.company ? `${c.name} (${c.company})` : c.name })),
      members: members.map((m) => ({ id: m.id, name: m.name, role: m.role })),
      // The service properties of the customer chosen in advance (docs/decisions/221).
      properties:
        opts.include && customers.some((c) => c.id === opts.include)
          ? await customerPropertyChoices(actor.tenantId, opts.include, t)
          : [],
      propertiesOf: opts.include && customers.some((c) => c.id === opts.include) ? opts.include : null,
    };
  });
}

/** A customer's service properties as the job form's choices: "Rental · 915 Maple Ave, Round Rock". */
export async function customerPropertyChoices(
  tenantId: string,
  customerId: string,
  t: Tx,
): Promise<Array<{ id: string; label: string }>> {
  const list = await CustomerProperty.findAll({
    where: { tenantId, customerId },
    attributes: ["id", "label", "addressLine1", "addressLine2", "city", "region", "postalCode"],
    order: [
      ["position", "ASC"],
      ["id", "ASC"],
    ],
    limit: 200,
    transaction: t,
  });
  return list.map((p) => {
    const address = oneLineAddress(p);
    return { id: p.id, label: [p.label, address].filter(Boolean).join(" · ") || "Unnamed property" };
  });
}
