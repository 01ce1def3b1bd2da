import { z } from "zod";
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { recordScope } from "~/utils/permissions";
import { jobAssignedSql } from "~/services/jobs/assigned";
import { keysetPage, type PageCursor } from "./keyset.server";
import { listSchemaBase } from "./list-params";
import { addressSql, containsPattern } from "./sql.server";
import { CLOSED_JOB_STATUSES, JOB_FILTERS } from "./statuses";

export const jobListSchema = listSchemaBase.extend({
  status: z.enum(JOB_FILTERS).catch("open"),
  /** A member id, `unassigned`, or empty for everyone. */
  assignee: z
    .union([z.literal("unassigned"), z.string().uuid()])
    .optional()
    .catch(undefined),
  customer: z.string().uuid().optional().catch(undefined),
});
export type JobListParams = z.infer<typeof jobListSchema> & PageCursor;

export type JobListItem = {
  id: string;
  title: string;
  status: string;
  scheduled_start: string | null;
  scheduled_end: string | null;
  customer_id: string;
  customer_name: string;
  assignee_name: string | null;
  /** The running clock, if any: since when, and since when on site. */
  clock_started_at: string | null;
  clock_on_site_at: string | null;
};

/** The sort key of the jobs_schedule_order index: by schedule, unscheduled last. */
const SCHEDULE_KEY = `coalesce(j.scheduled_start, 'infinity'::timestamptz)`;
/**
 * Finished jobs newest first by their date (the scheduled start, else when completed); one
 * with neither last, not first as 'infinity' would put it (jobs_finished_order, migration 0022).
 */
const FINISHED_KEY = `coalesce(j.scheduled_start, j.completed_at, '-infinity'::timestamptz)`;

/**
 * Jobs by schedule (finished ones newest first), filtered by status, assignee, customer and
 * title. A technician sees only the jobs assigned to them, whatever the filters say.
 */
export async function listJobs(actor: Actor, p: JobListParams) {
  const where = ["j.tenant_id = $1"];
  const bind: unknown[] = [actor.tenantId];
  const add = (cond: (n: string) => string, value: unknown) => {
    bind.push(value);
    where.push(cond(`$${bind.length}`));
  };
  if (recordScope(actor.role) !== "all") add((n) => jobAssignedSql("j", n), actor.userId);
  else if (p.assignee === "unassigned") where.push("j.assignee_id IS NULL");
  else if (p.assignee) add((n) => `j.assignee_id = ${n}`, p.assignee);
  if (p.customer) add((n) => `j.customer_id = ${n}`, p.customer);
  if (p.status === "open") where.push(`j.status NOT IN ('completed', 'cancelled')`);
  // jobs.invoice_id is kept by the database from invoices.job_id (migration 0071).
  else if (p.status === "to_invoice") where.push(`j.status = 'completed' AND j.invoice_id IS NULL`);
  else if (p.status !== "all") add((n) => `j.status = ${n}`, p.status);
  if (p.q) add((n) => `lower(j.title) LIKE ${n}`, containsPattern(p.q));
  const finished = (CLOSED_JOB_STATUSES as readonly string[]).includes(p.status) || p.status === "to_invoice";
  return inTenant(actor.tenantId, (t) =>
    keysetPage<JobListItem>(
      {
        select: `j.id, j.title, j.status, j.scheduled_start, j.scheduled_end, j.customer_id, c.name AS customer_name, u.name AS assignee_name,
                 k.started_at AS clock_started_at, k.on_site_at AS clock_on_site_at`,
        from: `jobs j
               JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
               LEFT JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
               LEFT JOIN LATERAL (
                 SELECT k.started_at, k.on_site_at FROM job_clocks k WHERE k.tenant_id = j.tenant_id AND k.job_id = j.id
                  ORDER BY k.started_at LIMIT 1) k ON true`,
        where,
        bind,
        key: finished
          ? { expr: FINISHED_KEY, type: "timestamptz", dir: "desc" }
          : { expr: SCHEDULE_KEY, type: "timestamptz", dir: "asc" },
        id: "j.id",
        cursor: p,
      },
      t,
    ),
  );
}

/** The members a job can be assigned to (for the assignee filter). */
export async function listAssignees(tenantId: string) {
  return inTenant(tenantId, (t) =>
    rows<{ id: string; name: string; role: string }>(
      `SELECT id, name, role FROM users WHERE tenant_id = $1 ORDER BY (role <> 'technician'), name, id LIMIT 500`,
      [tenantId],
      t,
    ),
  );
}

type ActivityItem =
  | { kind: "note"; id: string; at: string; who: string | null; body: string }
  | { kind: "status"; id: string; at: string; who: string | null; from: string | null; to: string };

/**
 * A job with what happened to it in the field: notes, status changes (one activity stream,
 * newest first) and time entries. A technician gets only jobs assigned to them; any other id
 * is "not found", exactly like another tenant's.
 */
export async function getJob(actor: Actor, id: string) {
  if (!isUuid(id)) throw notFound("Job not found.");
  return inTenant(actor.tenantId, async (t) => {
    const ownOnly = recordScope(actor.role) !== "all";
    const job = await one<{
      id: string;
      title: string;
      description: string | null;
      status: string;
      scheduled_start: string | null;
      scheduled_end: string | null;
      address: string | null;
      external_id: string | null;
      completed_at: string | null;
      created_at: string;
      updated_at: string;
      customer_id: string;
      customer_name: string;
      customer_phone: string | null;
      customer_email: string | null;
      customer_address: string | null;
      assignee_id: string | null;
      assignee_name: string | null;
      property_label: string | null;
      property_address: string | null;
    }>(
      `SELECT j.id, j.title, j.description, j.status, j.scheduled_start, j.scheduled_end, j.address, j.external_id,
              j.completed_at, j.created_at, j.updated_at, j.customer_id, c.name AS customer_name, c.phone AS customer_phone,
              c.email AS customer_email,
              ${addressSql("c")} AS customer_address,
              j.assignee_id, u.name AS assignee_name,
              -- The service property the job names (section 14), if any.
              p.label AS property_label,
              ${addressSql("p")} AS property_address
         FROM jobs j
         JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
         LEFT JOIN users u ON u.tenant_id = j.tenant_id AND u.id = j.assignee_id
         LEFT JOIN customer_properties p ON p.tenant_id = j.tenant_id AND p.id = j.property_id
        WHERE j.tenant_id = $1 AND j.id = $2 ${ownOnly ? `AND ${jobAssignedSql("j", "$3")}` : ""}`,
      ownOnly ? [actor.tenantId, id, actor.userId] : [actor.tenantId, id],
      t,
    );
    if (!job) throw notFound("Job not found.");
    const bind = [actor.tenantId, id];
    const notes = await rows<{ id: string; at: string; who: string | null; body: string }>(
      `SELECT n.id, n.occurred_at AS at, u.name AS who, n.body FROM job_notes n
         LEFT JOIN users u ON u.tenant_id = n.tenant_id AND u.id = n.author_id
        WHERE n.tenant_id = $1 AND n.job_id = $2 ORDER BY n.occurred_at DESC LIMIT 200`,
      bind,
      t,
    );
    const events = await rows<{ id: string; at: string; who: string | null; from: string | null; to: string }>(
      `SELECT e.id, e.occurred_at AS at, u.name AS who, e.from_status AS "from", e.to_status AS "to" FROM job_events e
         LEFT JOIN users u ON u.tenant_id = e.tenant_id AND u.id = e.user_id
        WHERE e.tenant_id = $1 AND e.job_id = $2 ORDER BY e.occurred_at DESC LIMIT 200`,
      bind,
      t,
    );
    const timeEntries = await rows<{
      id: string;
      started_at: string;
      ended_at: string;
      minutes: number;
      who: string | null;
      note: string | null;
    }>(
      `SELECT te.id, te.started_at, te.ended_at, round(extract(epoch FROM te.ended_at - te.started_at) / 60)::int AS minutes,
              u.name AS who, te.note
         FROM time_entries te LEFT JOIN users u ON u.tenant_id = te.tenant_id AND u.id = te.user_id
        WHERE te.tenant_id = $1 AND te.job_id = $2 AND te.kind <> 'break' ORDER BY te.started_at DESC LIMIT 200`,
      bind,
      t,
    );
    const clock = await one<{ started_at: string; on_site_at: string | null; who: string | null }>(
      `SELECT k.started_at, k.on_site_at, u.name AS who FROM job_clocks k
         LEFT JOIN users u ON u.tenant_id = k.tenant_id AND u.id = k.user_id
        WHERE k.tenant_id = $1 AND k.job_id = $2`,
      bind,
      t,
    );
    const checklist = await rows<{ id: string; label: string; done_at: string | null; who: string | null }>(
      `SELECT i.id, i.label, i.done_at, u.name AS who FROM job_checklist_items i
         LEFT JOIN users u ON u.tenant_id = i.tenant_id AND u.id = i.done_by
        WHERE i.tenant_id = $1 AND i.job_id = $2 ORDER BY i.position, i.id`,
      bind,
      t,
    );
    const signature = await jobSignature(actor.tenantId, id, t);
    const activity: ActivityItem[] = [
      ...notes.map((n) => ({ kind: "note" as const, ...n })),
      ...events.map((e) => ({ kind: "status" as const, ...e })),
    ].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime());
    return {
      job,
      activity,
      timeEntries,
      totalMinutes: timeEntries.reduce((s, e) => s + e.minutes, 0),
      clock,
      checklist,
      signature,
    };
  });
}

export type ShownSignature = { signer_name: string; image: string | null; signed_at: string; who: string | null };

/** The customer's signature on a job, its drawing as a data URL (shown on the job and its invoice). */
export async function jobSignature(tenantId: string, jobId: string, t: Tx): Promise<ShownSignature | null> {
  const found = await one<{ signer_name: string; image: Buffer | null; signed_at: string; who: string | null }>(
    `SELECT s.signer_name, s.image, s.signed_at, u.name AS who FROM job_signatures s
       LEFT JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.collected_by
      WHERE s.tenant_id = $1 AND s.job_id = $2`,
    [tenantId, jobId],
    t,
  );
  if (!found) return null;
  return { ...found, image: found.image ? `data:image/png;base64,${found.image.toString("base64")}` : null };
}

/** The signature collected when the job was completed, for the invoice made from it. */
export async function signatureOfJob(actor: Actor, jobId: string): Promise<ShownSignature | null> {
  return inTenant(actor.tenantId, (t) => jobSignature(actor.tenantId, jobId, t));
}
