import { inTenant, rows } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { NEXT_STATUSES, type FieldJob, type JobStatus } from "./protocol";
import { addressSql } from "~/services/records/sql.server";

/** At most this many jobs in one answer: a day's work many times over. */
export const FIELD_JOBS_LIMIT = 200;

type JobRow = {
  id: string;
  title: string;
  status: JobStatus;
  scheduled_start: Date | null;
  scheduled_end: Date | null;
  address: string | null;
  description: string | null;
  customer_name: string;
  customer_phone: string | null;
  customer_notes: string | null;
  time_entries: number;
  logged_minutes: number;
  recent_notes: Array<{ id: string; body: string; occurredAt: string; authorName: string | null }> | null;
  clock_started_at: Date | null;
  clock_on_site_at: Date | null;
  checklist: Array<{ id: string; label: string; done: boolean }> | null;
  checklist_required: boolean;
  signer_name: string | null;
  signed_at: Date | null;
  signature_drawn: boolean | null;
  updated_at: Date;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

// The job with what a technician needs on site: customer (and the office's notes on them: a gate
// code, a dog), address (the job's own, else its service property's, else the customer's), time
// logged, last notes.
const SELECT_FIELD_JOB = `
  SELECT j.id, j.title, j.status, j.scheduled_start, j.scheduled_end, j.description, j.updated_at,
         coalesce(j.address, ${addressSql("p")}, ${addressSql("c")}) AS address,
         c.name AS customer_name, c.phone AS customer_phone, nullif(btrim(c.notes), '') AS customer_notes,
         te.time_entries, te.logged_minutes,
         (SELECT json_agg(n ORDER BY n."occurredAt" DESC) FROM (
            SELECT jn.id, jn.body, jn.occurred_at AS "occurredAt",
                   (SELECT u.name FROM users u WHERE u.tenant_id = jn.tenant_id AND u.id = jn.author_id) AS "authorName"
              FROM job_notes jn
             WHERE jn.tenant_id = j.tenant_id AND jn.job_id = j.id
             ORDER BY jn.occurred_at DESC LIMIT 3) n) AS recent_notes,
         k.started_at AS clock_started_at, k.on_site_at AS clock_on_site_at,
         (SELECT json_agg(json_build_object('id', i.id, 'label', i.label, 'done', i.done_at IS NOT NULL) ORDER BY i.position, i.id)
            FROM job_checklist_items i WHERE i.tenant_id = j.tenant_id AND i.job_id = j.id) AS checklist,
         tn.checklist_required,
         s.signer_name, s.signed_at, s.image IS NOT NULL AS signature_drawn
    FROM jobs j JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
    JOIN tenants tn ON tn.id = j.tenant_id
    LEFT JOIN customer_properties p ON p.tenant_id = j.tenant_id AND p.id = j.property_id
    LEFT JOIN job_clocks k ON k.tenant_id = j.tenant_id AND k.job_id = j.id
    LEFT JOIN job_signatures s ON s.tenant_id = j.tenant_id AND s.job_id = j.id
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS time_entries, round(coalesce(sum(extract(epoch FROM ended_at - started_at)), 0) / 60)::int AS logged_minutes
        FROM time_entries WHERE tenant_id = j.tenant_id AND job_id = j.id) te`;

function toFieldJob(r: JobRow): FieldJob {
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    nextStatuses: [...NEXT_STATUSES[r.status]],
    scheduledStart: iso(r.scheduled_start),
    scheduledEnd: iso(r.scheduled_end),
    address: r.address,
    description: r.description,
    customer: { name: r.customer_name, phone: r.customer_phone, notes: r.customer_notes },
    timeEntries: r.time_entries,
    loggedMinutes: r.logged_minutes,
    recentNotes: (r.recent_notes ?? []).map((n) => ({ ...n, occurredAt: new Date(n.occurredAt).toISOString() })),
    clock: r.clock_started_at ? { startedAt: iso(r.clock_started_at)!, onSiteAt: iso(r.clock_on_site_at) } : null,
    checklist: r.checklist ?? [],
    checklistRequired: r.checklist_required,
    signature: r.signer_name ? { name: r.signer_name, signedAt: iso(r.signed_at)!, drawn: !!r.signature_drawn } : null,
    updatedAt: iso(r.updated_at)!,
  };
}

/** The caller's open assigned jobs (not completed or cancelled), soonest first. */
export async function openAssignedJobs(actor: Actor): Promise<FieldJob[]> {
  const found = await inTenant(actor.tenantId, (t) =>
    rows<JobRow>(
      `${SELECT_FIELD_JOB}
        WHERE j.tenant_id = $1 AND j.assignee_id = $2 AND j.status NOT IN ('completed', 'cancelled')
        ORDER BY j.scheduled_start NULLS LAST, j.id LIMIT ${FIELD_JOBS_LIMIT}`,
      [actor.tenantId, actor.userId],
      t,
    ),
  );
  return found.map(toFieldJob);
}

/** The field page: open jobs, plus those the caller's jobs completed since midnight in `timeZone`. */
export async function fieldDay(actor: Actor, timeZone: string): Promise<{ open: FieldJob[]; doneToday: FieldJob[] }> {
  const [open, doneToday] = await Promise.all([
    openAssignedJobs(actor),
    inTenant(actor.tenantId, (t) =>
      rows<JobRow>(
        `${SELECT_FIELD_JOB}
          WHERE j.tenant_id = $1 AND j.assignee_id = $2 AND j.status = 'completed'
            AND j.completed_at >= (date_trunc('day', now() AT TIME ZONE $3) AT TIME ZONE $3)
          ORDER BY j.completed_at DESC LIMIT 50`,
        [actor.tenantId, actor.userId, timeZone],
        t,
      ),
    ),
  ]);
  return { open, doneToday: doneToday.map(toFieldJob) };
}
