// Record history (docs/decisions/120): who did what to a record, and when. Every change a
// person or the system makes to a customer, quote, job, invoice or booking request writes one
// entry here, in the transaction of the change, so the history never tells of a change that
// rolled back.
import { inTenant, rows, type Tx } from "../../../db/index";
import { RecordHistoryEntry, User, type HistorySource, type RecordType } from "../../../db/models";
import { humanize } from "~/utils/format";
import { historySentence, type HistoryLine } from "./types";

/**
 * Who acted. A staff `Actor` fits as it is (`{tenantId, userId, role}`); the portal passes
 * the customer's name with `source: "portal"`; the field app, imports and the system say so.
 * Without `name`, a user's current name is looked up and kept with the entry.
 */
export type HistoryActor = {
  tenantId: string;
  userId?: string | null;
  name?: string | null;
  source?: HistorySource;
};

export type HistoryInput = {
  recordType: RecordType;
  recordId: string;
  /** A machine name: `created`, `updated`, `sent`, `approved`, `converted`, `payment_recorded`... */
  action: string;
  /**
   * What happened, written to be followed by " by <who>": "Sent", "Approved in the portal",
   * "Created from quote Q-0004", "Payment of $120.00 by check recorded".
   */
  summary: string;
  details?: Record<string, unknown>;
  occurredAt?: Date;
};

/** Where an entry came from when the actor does not say: a user is staff, no user the system. */
export const historySource = (actor: HistoryActor): HistorySource =>
  actor.source ?? (actor.userId ? "staff" : "system");

/** Writes one history entry in the caller's transaction. */
export async function recordHistory(t: Tx, actor: HistoryActor, input: HistoryInput): Promise<void> {
  let name = actor.name ?? null;
  if (!name && actor.userId) {
    const user = await User.findOne({
      where: { tenantId: actor.tenantId, id: actor.userId },
      attributes: ["name"],
      transaction: t,
    });
    name = user?.name ?? null;
  }
  await RecordHistoryEntry.create(
    {
      tenantId: actor.tenantId,
      recordType: input.recordType,
      recordId: input.recordId,
      action: input.action,
      summary: input.summary.slice(0, 500),
      source: historySource(actor),
      userId: actor.userId ?? null,
      actorName: name,
      details: input.details ?? null,
      ...(input.occurredAt ? { occurredAt: input.occurredAt } : {}),
    },
    { transaction: t, returning: false },
  );
}

/** One line as a page shows it: "Sent by Olive Owner", and when. */
export type HistoryItem = HistoryLine;
export { historySentence };

const LIMIT = 100;

/**
 * A record's history, newest first. A job's status changes live in job_events (written by the
 * offline sync procedure and the field page) and are merged in here.
 */
export async function listHistory(
  t: Tx,
  tenantId: string,
  recordType: RecordType,
  recordId: string,
  limit = LIMIT,
): Promise<HistoryItem[]> {
  const entries = await RecordHistoryEntry.findAll({
    where: { tenantId, recordType, recordId },
    order: [
      ["occurredAt", "DESC"],
      ["id", "DESC"],
    ],
    limit,
    transaction: t,
  });
  const items: HistoryItem[] = entries.map((e) => ({
    id: e.id,
    at: e.occurredAt.toISOString(),
    action: e.action,
    summary: e.summary,
    who: e.actorName,
    source: e.source,
  }));
  if (recordType !== "job") return items;
  // Raw SQL: a join to the member's name, read-only.
  const events = await rows<{ id: string; at: Date; who: string | null; role: string | null; to: string }>(
    `SELECT e.id, e.occurred_at AS at, u.name AS who, u.role, e.to_status AS "to" FROM job_events e
       LEFT JOIN users u ON u.tenant_id = e.tenant_id AND u.id = e.user_id
      WHERE e.tenant_id = $1 AND e.job_id = $2 ORDER BY e.occurred_at DESC LIMIT $3`,
    [tenantId, recordId, limit],
    t,
  );
  const statusItems: HistoryItem[] = events.map((e) => ({
    id: e.id,
    at: new Date(e.at).toISOString(),
    action: "status_changed",
    summary: `Marked ${humanize(e.to).toLowerCase()}`,
    who: e.who,
    // Technicians change a job's status from the field; the office cancels and reopens on its pages.
    source: e.role && e.role !== "technician" ? "staff" : "field",
  }));
  return [...items, ...statusItems].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}

/** A record page's history, in its own read (the page has already checked the record is visible). */
export function historyOf(tenantId: string, recordType: RecordType, recordId: string): Promise<HistoryItem[]> {
  return inTenant(tenantId, (t) => listHistory(t, tenantId, recordType, recordId));
}
