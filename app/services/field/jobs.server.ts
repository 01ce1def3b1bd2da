import { inTenant, rows } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";
import { sqlList, UNDER_WAY_STATUSES } from "../../../db/enums";
import { NEXT_STATUSES, type CrewMember, type FieldJob, type FieldVisit, type JobStatus } from "./protocol";
import { addressSql } from "~/services/records/sql.server";

/** At most this many jobs in one answer: a day's work many times over. */
export const FIELD_JOBS_LIMIT = 200;

type JobRow = {
  id: string;
  visit_id: string | null;
  crew: CrewMember[] | null;
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

/**
 * The technician's work as the field app shows it (docs/decisions/320-crews-and-visit-sync.md):
 * one card per job, for the caller's visit of it that is under way, else their next open one;
 * a job without visits (not scheduled) assigned to them stands for itself. `src` names the job,
 * the visit and that visit's status and time.
 */
const OPEN_SOURCE = `
  SELECT * FROM (
    SELECT DISTINCT ON (v.job_id) v.job_id, v.id AS visit_id, v.status, v.starts_at, v.ends_at, v.completed_at
      FROM visit_assignees a JOIN visits v ON v.tenant_id = a.tenant_id AND v.id = a.visit_id
     WHERE a.tenant_id = $1 AND a.user_id = $2 AND v.status NOT IN ('completed', 'cancelled')
     ORDER BY v.job_id, (v.status IN (${sqlList(UNDER_WAY_STATUSES)})) DESC, v.starts_at, v.id) mine
  UNION ALL
  SELECT j.id, NULL, j.status, j.scheduled_start, j.scheduled_end, j.completed_at FROM jobs j
   WHERE j.tenant_id = $1 AND j.assignee_id = $2 AND j.status NOT IN ('completed', 'cancelled')
     AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.tenant_id = j.tenant_id AND v.job_id = j.id)`;

/** The caller's visits completed since midnight in $3, the latest per job. */
const DONE_SOURCE = `
  SELECT DISTINCT ON (v.job_id) v.job_id, v.id AS visit_id, v.status, v.starts_at, v.ends_at, v.completed_at
    FROM visit_assignees a JOIN visits v ON v.tenant_id = a.tenant_id AND v.id = a.visit_id
   WHERE a.tenant_id = $1 AND a.user_id = $2 AND v.status = 'completed'
     AND v.completed_at >= (date_trunc('day', now() AT TIME ZONE $3) AT TIME ZONE $3)
   ORDER BY v.job_id, v.completed_at DESC, v.id`;

// The job with what a technician needs on site: customer (and the office's notes on them: a gate
// code, a dog), address (the job's own, else its service property's, else the customer's), time
// logged, last notes, the visit's crew and the caller's own clock.
const selectFieldJobs = (source: string) => `
  WITH src AS (${source})
  SELECT j.id, src.visit_id, src.status, src.starts_at AS scheduled_start, src.ends_at AS scheduled_end,
         src.completed_at AS done_at, j.title, j.description, j.updated_at,
         (SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY a.created_at, u.id)
            FROM visit_assignees a JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
           WHERE a.tenant_id = j.tenant_id AND a.visit_id = src.visit_id) AS crew,
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
    FROM src JOIN jobs j ON j.tenant_id = $1 AND j.id = src.job_id
    JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
    JOIN tenants tn ON tn.id = j.tenant_id
    LEFT JOIN customer_properties p ON p.tenant_id = j.tenant_id AND p.id = j.property_id
    LEFT JOIN job_clocks k ON k.tenant_id = j.tenant_id AND k.job_id = j.id AND k.user_id = $2
    LEFT JOIN job_signatures s ON s.tenant_id = j.tenant_id AND s.job_id = j.id
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS time_entries, round(coalesce(sum(extract(epoch FROM ended_at - started_at)), 0) / 60)::int AS logged_minutes
        FROM time_entries WHERE tenant_id = j.tenant_id AND job_id = j.id AND kind <> 'break') te`;

function toFieldJob(r: JobRow): FieldJob {
  return {
    id: r.id,
    visitId: r.visit_id,
    crew: r.crew ?? [],
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

/** The caller's open assigned work (one card per job, see OPEN_SOURCE), soonest first. */
export async function openAssignedJobs(actor: Actor): Promise<FieldJob[]> {
  const found = await inTenant(actor.tenantId, (t) =>
    rows<JobRow>(
      `${selectFieldJobs(OPEN_SOURCE)}
        WHERE j.status NOT IN ('completed', 'cancelled')
        ORDER BY src.starts_at NULLS LAST, j.id LIMIT ${FIELD_JOBS_LIMIT}`,
      [actor.tenantId, actor.userId],
      t,
    ),
  );
  return found.map(toFieldJob);
}

/** The field page: open work, plus the caller's visits completed since midnight in `timeZone`. */
export async function fieldDay(actor: Actor, timeZone: string): Promise<{ open: FieldJob[]; doneToday: FieldJob[] }> {
  const [open, doneToday] = await Promise.all([
    openAssignedJobs(actor),
    inTenant(actor.tenantId, (t) =>
      rows<JobRow>(
        `${selectFieldJobs(DONE_SOURCE)} ORDER BY src.completed_at DESC LIMIT 50`,
        [actor.tenantId, actor.userId, timeZone],
        t,
      ),
    ),
  ]);
  // A job with a visit done today and another still open shows once, as open work.
  const openIds = new Set(open.map((j) => j.id));
  return { open, doneToday: doneToday.filter((j) => !openIds.has(j.id)).map(toFieldJob) };
}

/** How far the sync's `visits` reach: from the start of yesterday to this far ahead. */
export const SYNC_VISIT_DAYS_AHEAD = 14;

/**
 * The caller's visits from the start of yesterday (in the business's zone) to 14 days ahead,
 * whatever their status, with their crews: what a push answers beside `jobs`.
 */
export async function syncVisits(actor: Actor): Promise<FieldVisit[]> {
  const found = await inTenant(actor.tenantId, (t) =>
    rows<{
      id: string;
      job_id: string;
      starts_at: Date;
      ends_at: Date | null;
      status: FieldVisit["status"];
      crew: CrewMember[];
    }>(
      `SELECT v.id, v.job_id, v.starts_at, v.ends_at, v.status,
              (SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY c.created_at, u.id)
                 FROM visit_assignees c JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.user_id
                WHERE c.tenant_id = v.tenant_id AND c.visit_id = v.id) AS crew
         FROM visit_assignees a
         JOIN visits v ON v.tenant_id = a.tenant_id AND v.id = a.visit_id
         JOIN tenants tn ON tn.id = a.tenant_id
        WHERE a.tenant_id = $1 AND a.user_id = $2
          AND v.starts_at < now() + interval '${SYNC_VISIT_DAYS_AHEAD} days'
          AND coalesce(v.ends_at, v.starts_at) >= ((date_trunc('day', now() AT TIME ZONE tn.time_zone) - interval '1 day') AT TIME ZONE tn.time_zone)
        ORDER BY v.starts_at, v.id LIMIT ${FIELD_JOBS_LIMIT * 5}`,
      [actor.tenantId, actor.userId],
      t,
    ),
  );
  return found.map((v) => ({
    id: v.id,
    jobId: v.job_id,
    start: iso(v.starts_at)!,
    end: iso(v.ends_at),
    status: v.status,
    crew: v.crew ?? [],
  }));
}
