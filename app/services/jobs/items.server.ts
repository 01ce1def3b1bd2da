// A job's line items and how it is billed (docs/decisions/371-job-items-and-per-visit-billing.md).
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { recordHistory } from "~/services/history/history.server";
import { milliToDecimal, ppmToPercent } from "~/services/documents/line-items";
import type { Actor } from "~/services/accounts/actor";
import { assertManagesRecords, lockJob } from "./jobs.server";
import type { JobItemValue } from "./items-form";
import { isUuid } from "~/utils/crypto.server";
import { conflict, notFound } from "~/utils/app-error";
import type { JobBilling } from "../../../db/models/index";

export type JobItemRow = {
  id: string;
  position: number;
  description: string;
  quantity: string;
  unit_price_cents: string;
  tax_rate: string;
  per_visit: boolean;
};

export type BillableVisit = {
  id: string;
  starts_at: string;
  ends_at: string | null;
  status: string;
  invoice_id: string | null;
  invoice_number: string | null;
  crew: string | null;
};

/** The job's items, billing and visits with their invoices, for /jobs/<id>/items. 404 for a job the tenant does not have. */
export async function jobBilling(actor: Actor, jobId: string) {
  assertManagesRecords(actor);
  if (!isUuid(jobId)) throw notFound("Job not found.");
  return inTenant(actor.tenantId, async (t) => {
    const job = await one<{ id: string; title: string; billing: JobBilling; status: string; time_zone: string }>(
      `SELECT j.id, j.title, j.billing, j.status, tn.time_zone FROM jobs j JOIN tenants tn ON tn.id = j.tenant_id
        WHERE j.tenant_id = $1 AND j.id = $2`,
      [actor.tenantId, jobId],
      t,
    );
    if (!job) throw notFound("Job not found.");
    const items = await rows<JobItemRow>(
      `SELECT id, position, description, quantity::text, unit_price_cents, tax_rate::text, per_visit FROM job_items
        WHERE tenant_id = $1 AND job_id = $2 ORDER BY position, id`,
      [actor.tenantId, jobId],
      t,
    );
    const visits = await rows<BillableVisit>(
      `SELECT v.id, v.starts_at, v.ends_at, v.status, i.id AS invoice_id, i.number AS invoice_number,
              (SELECT string_agg(u.name, ', ' ORDER BY u.name) FROM visit_assignees a
                 JOIN users u ON u.tenant_id = $1 AND u.id = a.user_id
                WHERE a.tenant_id = $1 AND a.visit_id = v.id) AS crew
         FROM visits v
         LEFT JOIN invoices i ON i.tenant_id = $1 AND i.visit_id = v.id
        WHERE v.tenant_id = $1 AND v.job_id = $2
        ORDER BY v.starts_at, v.id`,
      [actor.tenantId, jobId],
      t,
    );
    return { job, items, visits };
  });
}

async function changed(t: Tx, actor: Actor, jobId: string, summary: string) {
  await recordHistory(t, actor, {
    recordType: "job",
    recordId: jobId,
    action: "edited",
    summary: summary.slice(0, 500),
  });
}

/** Adds a line item at the end of the job's list. */
export async function addJobItem(actor: Actor, jobId: string, v: JobItemValue): Promise<void> {
  assertManagesRecords(actor);
  await inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    // The job's row is locked: the count and the next position hold until the insert.
    const list = await one<{ n: number; next: number }>(
      `SELECT count(*)::int AS n, coalesce(max(position), 0) + 1 AS next FROM job_items WHERE tenant_id = $1 AND job_id = $2`,
      [actor.tenantId, job.id],
      t,
    );
    if (list!.n >= 200) throw conflict("A job has at most 200 line items.");
    await rows(
      `INSERT INTO job_items (tenant_id, job_id, position, description, quantity, unit_price_cents, tax_rate, per_visit)
       VALUES ($1, $2, $3, $4, $5::numeric, $6, $7::numeric, $8)`,
      [
        actor.tenantId,
        job.id,
        list!.next,
        v.description,
        milliToDecimal(v.quantity),
        v.unitPrice,
        ppmToPercent(v.taxRate),
        v.perVisit,
      ],
      t,
    );
    await changed(t, actor, job.id, `Line item added: ${v.description}${v.perVisit ? " (billed per visit)" : ""}`);
  });
}

async function itemOf(t: Tx, actor: Actor, jobId: string, itemId: string) {
  const item =
    isUuid(itemId) &&
    (await one<{ id: string; description: string }>(
      `SELECT id, description FROM job_items WHERE tenant_id = $1 AND job_id = $2 AND id = $3`,
      [actor.tenantId, jobId, itemId],
      t,
    ));
  if (!item) throw notFound("Line item not found.");
  return item;
}

/** Removes one of the job's line items. */
export async function removeJobItem(actor: Actor, jobId: string, itemId: string): Promise<void> {
  assertManagesRecords(actor);
  await inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    const item = await itemOf(t, actor, job.id, itemId);
    await rows(`DELETE FROM job_items WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, item.id], t);
    await changed(t, actor, job.id, `Line item removed: ${item.description}`);
  });
}

/** Bills one item on every visit's invoice, or once on the job's. */
export async function setItemPerVisit(actor: Actor, jobId: string, itemId: string, perVisit: boolean): Promise<void> {
  assertManagesRecords(actor);
  await inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    const item = await itemOf(t, actor, job.id, itemId);
    await rows(
      `UPDATE job_items SET per_visit = $3 WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, item.id, perVisit],
      t,
    );
    await changed(t, actor, job.id, `${item.description}: billed ${perVisit ? "per visit" : "once, with the job"}`);
  });
}

/** On completion (one invoice) or per visit (an invoice per completed visit). */
export async function setJobBilling(actor: Actor, jobId: string, billing: JobBilling): Promise<void> {
  assertManagesRecords(actor);
  await inTenant(actor.tenantId, async (t) => {
    const job = await lockJob(actor, jobId, t);
    if (job.billing === billing) return;
    job.set({ billing });
    await job.save({ transaction: t });
    await changed(t, actor, job.id, billing === "per_visit" ? "Billed per visit" : "Billed on completion");
  });
}

/**
 * Completed visits of jobs billed per visit that have no invoice yet, oldest first (the
 * dashboard's list). It starts from the jobs billed per visit (their own partial index), so a
 * tenant whose jobs are billed on completion reads nothing.
 */
export const VISITS_TO_INVOICE_SQL = `SELECT v.id, v.job_id, j.title, v.starts_at, c.name AS customer
         FROM visits v
         JOIN jobs j ON j.tenant_id = $1 AND j.id = v.job_id AND j.billing = 'per_visit'
         JOIN customers c ON c.tenant_id = $1 AND c.id = j.customer_id
        WHERE v.tenant_id = $1 AND v.status = 'completed'
          AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.tenant_id = $1 AND i.visit_id = v.id)
        ORDER BY v.starts_at, v.id
        LIMIT $2`;

export async function visitsToInvoice(tenantId: string, limit = 10) {
  return inTenant(tenantId, (t) =>
    rows<{ id: string; job_id: string; title: string; starts_at: string; customer: string }>(
      VISITS_TO_INVOICE_SQL,
      [tenantId, limit],
      t,
    ),
  );
}
