import { inTenant, one } from "../../../db/index";
import type { Actor } from "~/services/accounts/actor";

export type JobOrigins = {
  quote: { id: string; number: string } | null;
  request: { id: string; service: string; createdAt: string } | null;
};

/**
 * Where a job came from, for the links on its page: the quote it was converted from and the
 * booking request behind it (turned into this job, or into the quote that became it).
 */
export async function jobOrigins(actor: Actor, jobId: string): Promise<JobOrigins> {
  return inTenant(actor.tenantId, async (t) => {
    const row = await one<{
      quote_id: string | null;
      quote_number: string | null;
      request_id: string | null;
      request_service: string | null;
      request_created_at: Date | null;
    }>(
      `SELECT q.id AS quote_id, q.number AS quote_number,
              r.id AS request_id, r.service AS request_service, r.created_at AS request_created_at
         FROM jobs j
         LEFT JOIN quotes q ON q.tenant_id = j.tenant_id AND q.id = j.quote_id
         LEFT JOIN LATERAL (
           SELECT b.id, b.service, b.created_at FROM booking_requests b
            WHERE b.tenant_id = j.tenant_id
              AND (b.job_id = j.id OR (j.quote_id IS NOT NULL AND b.quote_id = j.quote_id)
                   OR b.id = q.booking_request_id)
            ORDER BY (b.job_id IS NOT DISTINCT FROM j.id) DESC, b.created_at LIMIT 1
         ) r ON true
        WHERE j.tenant_id = $1 AND j.id = $2`,
      [actor.tenantId, jobId],
      t,
    );
    return {
      quote: row?.quote_id ? { id: row.quote_id, number: row.quote_number! } : null,
      request: row?.request_id
        ? {
            id: row.request_id,
            service: row.request_service!,
            createdAt: new Date(row.request_created_at!).toISOString(),
          }
        : null,
    };
  });
}
