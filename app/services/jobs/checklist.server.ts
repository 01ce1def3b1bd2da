import { Op } from "sequelize";
import { inTenant, type Tx } from "../../../db/index";
import { JobChecklistItem, JobClock, TimeEntry } from "../../../db/models/index";
import { checklistLines } from "./schemas";

// A job's checklist (docs/decisions/213) as the office sets it: from the job form's lines or a
// quote's items. The technician's ticks go through the sync (job.checklist).

/**
 * Makes the job's checklist these labels, in this order. An item whose text is unchanged keeps
 * its tick (the first unticked-or-ticked item of that text, in order); items no longer listed go.
 */
export async function setChecklist(tenantId: string, jobId: string, labels: string[], t: Tx): Promise<boolean> {
  const existing = await JobChecklistItem.findAll({
    where: { tenantId, jobId },
    order: [
      ["position", "ASC"],
      ["id", "ASC"],
    ],
    transaction: t,
    lock: t.LOCK.UPDATE,
  });
  const same = existing.length === labels.length && existing.every((item, i) => item.label === labels[i]);
  if (same) return false;
  const unused = [...existing];
  const kept = new Set<string>();
  for (const [position, label] of labels.entries()) {
    const at = unused.findIndex((item) => item.label === label);
    if (at >= 0) {
      const [item] = unused.splice(at, 1);
      kept.add(item.id);
      if (item.position !== position) await item.update({ position }, { transaction: t });
    } else {
      await JobChecklistItem.create({ tenantId, jobId, position, label }, { transaction: t });
    }
  }
  if (unused.length)
    await JobChecklistItem.destroy({
      where: { tenantId, jobId, id: { [Op.in]: unused.map((i) => i.id) } },
      transaction: t,
    });
  return true;
}

/** The job form's text: one item per line. */
export async function checklistText(tenantId: string, jobId: string, t: Tx): Promise<string> {
  const items = await JobChecklistItem.findAll({
    where: { tenantId, jobId },
    attributes: ["label"],
    order: [
      ["position", "ASC"],
      ["id", "ASC"],
    ],
    transaction: t,
  });
  return items.map((i) => i.label).join("\n");
}

/** The ids of a job's checklist items, in order (the demo seed ticks them). */
export async function checklistItemIds(tenantId: string, jobId: string): Promise<string[]> {
  return inTenant(tenantId, async (t) =>
    (
      await JobChecklistItem.findAll({
        where: { tenantId, jobId },
        attributes: ["id"],
        order: [
          ["position", "ASC"],
          ["id", "ASC"],
        ],
        transaction: t,
      })
    ).map((i) => i.id),
  );
}

/** A quote's chosen items as checklist lines (a job made from the quote). */
export const checklistFromItems = (descriptions: string[]) => checklistLines(descriptions.join("\n"));

/**
 * Stops every running clock of a job (each crew member's) into its owner's time entry (the office
 * cancelled the job): the same rule as the field's stop (migration 0084), at most 24 hours.
 */
export async function stopClock(tenantId: string, jobId: string, at: Date, t: Tx): Promise<void> {
  const clocks = await JobClock.findAll({
    where: { tenantId, jobId },
    order: [["userId", "ASC"]],
    transaction: t,
    lock: t.LOCK.UPDATE,
  });
  for (const clock of clocks) {
    const started = clock.startedAt.getTime();
    const end = new Date(Math.min(Math.max(at.getTime(), started), started + 24 * 3600_000));
    await TimeEntry.create(
      { tenantId, jobId, userId: clock.userId, startedAt: clock.startedAt, endedAt: end, visitId: clock.visitId },
      { transaction: t },
    );
    await clock.destroy({ transaction: t });
  }
}
