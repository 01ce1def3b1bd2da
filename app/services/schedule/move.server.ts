import { inTenant, one } from "../../../db/index";
import { Customer, Job, User } from "../../../db/models/index";
import { conflict, notFound } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import type { Actor } from "~/services/accounts/actor";
import {
  applySchedule,
  assertManagesRecords,
  lockJob,
  scheduleFromLocal,
  tenantTimeZone,
  type LocalSchedule,
} from "~/services/jobs/jobs.server";
import { utcToZoned } from "~/services/jobs/local-time";
import { recordHistory } from "~/services/history/history.server";
import { notify } from "~/services/events/events.server";
import { clock, clockRange, longDate } from "./days";

export type MoveResult = { jobId: string; title: string; changed: boolean; message: string };

/**
 * POST /jobs/<id>/schedule: gives a job its technician and times, or
 * takes them away (all empty). The board's drag and drop and the no-JavaScript form both land
 * here. The job row is locked for the whole change; a completed or cancelled job is 409.
 * The job's calendar SEQUENCE is bumped by the database (migration 0030), and the technician's
 * next sync returns their open assigned jobs, so a job moved away leaves their list.
 */
export async function moveJob(actor: Actor, jobId: string, input: LocalSchedule): Promise<MoveResult> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.status === "completed") throw conflict(`“${job.title}” is completed; it can no longer be moved.`);
    if (job.status === "cancelled") throw conflict(`“${job.title}” is cancelled. Reopen it before scheduling it.`);
    // The job's own time stands for its one visit; a job with several is moved visit by visit.
    const visits = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM visits WHERE tenant_id = $1 AND job_id = $2`,
      [actor.tenantId, job.id],
      t,
    );
    if (visits!.n > 1)
      throw conflict(
        `“${job.title}” has ${visits!.n} visits: move each visit on the schedule or from the job's page instead.`,
      );
    const wasScheduled = !!job.scheduledStart;
    const underWay = job.status === "en_route" || job.status === "in_progress" || job.status === "on_hold";
    const schedule = await scheduleFromLocal(actor.tenantId, input, t);
    if (underWay && !schedule.start)
      throw conflict(`“${job.title}” is under way; move it to another time instead of unscheduling it.`);
    const { changed } = await applySchedule(actor, job, schedule, t);
    const zone = await tenantTimeZone(actor.tenantId, t);
    const assignee = schedule.assigneeId
      ? await User.findOne({
          where: { tenantId: actor.tenantId, id: schedule.assigneeId },
          attributes: ["name"],
          transaction: t,
        })
      : null;
    let message: string;
    let summary: string;
    const who = assignee ? `with ${assignee.name}` : "unassigned";
    if (!schedule.start) {
      message = wasScheduled ? `“${job.title}” is unscheduled.` : `“${job.title}” is not scheduled.`;
      summary = schedule.assigneeId ? `Taken off the schedule (kept ${who})` : "Taken off the schedule";
    } else {
      const start = utcToZoned(schedule.start, zone);
      const end = schedule.end ? utcToZoned(schedule.end, zone) : null;
      const when = `${longDate(start.slice(0, 10))}, ${end ? clockRange(start, end) : clock(start)}`;
      message = `“${job.title}” is booked ${when}, ${who}.`;
      summary = `${wasScheduled ? "Moved to" : "Scheduled for"} ${when}, ${who}`;
    }
    // The job's history says who moved it (docs/decisions/120); an unchanged save adds nothing.
    if (changed) {
      await recordHistory(t, actor, {
        recordType: "job",
        recordId: job.id,
        action: "scheduled",
        summary,
        details: {
          assigneeId: schedule.assigneeId,
          start: schedule.start?.toISOString() ?? null,
          end: schedule.end?.toISOString() ?? null,
        },
      });
      // Every open board (and the job's page) of the tenant reloads: delivered at commit.
      await notify(t, actor.tenantId, { type: "job.scheduled", id: job.id });
    }
    return { jobId: job.id, title: job.title, changed, message };
  });
}

/** The no-JavaScript form's job, its current schedule as wall clock, and the team to choose from. */
export async function scheduleFormChoices(actor: Actor, jobId: string, timeZone: string) {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const job =
      isUuid(jobId) && (await Job.findOne({ where: { tenantId: actor.tenantId, id: jobId }, transaction: t }));
    if (!job) throw notFound("Job not found.");
    const customer = await Customer.findOne({
      where: { tenantId: actor.tenantId, id: job.customerId },
      attributes: ["name"],
      transaction: t,
    });
    const members = await User.findAll({
      where: { tenantId: actor.tenantId },
      attributes: ["id", "name", "role"],
      order: [
        ["name", "ASC"],
        ["id", "ASC"],
      ],
      limit: 500,
      transaction: t,
    });
    return {
      job: {
        id: job.id,
        title: job.title,
        status: job.status,
        customerName: customer?.name ?? "",
        address: job.address,
      },
      // Technicians first: they are who jobs go to; anyone else may be booked too.
      members: [
        ...members.filter((m) => m.role === "technician"),
        ...members.filter((m) => m.role !== "technician"),
      ].map((m) => ({ id: m.id, name: m.name, role: m.role })),
      values: {
        assigneeId: job.assigneeId ?? "",
        scheduledStart: job.scheduledStart ? utcToZoned(job.scheduledStart, timeZone) : "",
        scheduledEnd: job.scheduledEnd ? utcToZoned(job.scheduledEnd, timeZone) : "",
      },
    };
  });
}
