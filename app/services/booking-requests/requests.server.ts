import { z } from "zod";
import { Op } from "sequelize";
import { inTenant } from "../../../db/index";
import { BookingRequest } from "../../../db/models/index";
import { conflict, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { keysetPage, type PageCursor } from "../records/keyset.server";
import { listSchemaBase } from "../records/list-params";
import { addressSql, containsPattern, CUSTOMER_SEARCH } from "../records/sql.server";
import { REQUEST_FILTERS, REQUEST_STATUSES, REQUEST_TRANSITIONS, type RequestStatus } from "../records/statuses";

// Booking requests customers sent from the portal, and their triage by the office.

export const requestListSchema = listSchemaBase.extend({ status: z.enum(REQUEST_FILTERS).catch("all") });
export type RequestListParams = z.infer<typeof requestListSchema> & PageCursor;

export type RequestListItem = {
  id: string;
  service: string;
  description: string | null;
  preferred_date: string | null;
  time_window: string;
  address: string | null;
  /** The customer's service property named in the portal: its label and address. */
  property: string | null;
  phone: string | null;
  status: RequestStatus;
  created_at: string;
  triaged_at: string | null;
  triaged_by_name: string | null;
  customer_id: string;
  customer_name: string;
  quote_id: string | null;
  quote_number: string | null;
  job_id: string | null;
};

/** Requests newest first, by status, searched by service or customer. */
export async function listRequests(actor: Actor, p: RequestListParams) {
  const where = ["r.tenant_id = $1"];
  const bind: unknown[] = [actor.tenantId];
  if (p.status !== "all") {
    bind.push(p.status);
    where.push(`r.status = $${bind.length}`);
  }
  if (p.q) {
    bind.push(containsPattern(p.q));
    where.push(`(lower(r.service) LIKE $${bind.length} OR ${CUSTOMER_SEARCH} LIKE $${bind.length})`);
  }
  return inTenant(actor.tenantId, (t) =>
    keysetPage<RequestListItem>(
      {
        select: `r.id, r.service, r.description, r.preferred_date::text, r.time_window, r.address, r.phone, r.status, r.created_at,
                 r.triaged_at, u.name AS triaged_by_name, r.customer_id, c.name AS customer_name,
                 r.quote_id, q.number AS quote_number, r.job_id,
                 nullif(concat_ws(' · ', nullif(p.label, ''), ${addressSql("p")}), '') AS property`,
        from: `booking_requests r
               JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
               LEFT JOIN users u ON u.tenant_id = r.tenant_id AND u.id = r.triaged_by
               LEFT JOIN quotes q ON q.tenant_id = r.tenant_id AND q.id = r.quote_id
               LEFT JOIN customer_properties p ON p.tenant_id = r.tenant_id AND p.id = r.property_id`,
        where,
        bind,
        key: { expr: "r.created_at", type: "timestamptz", dir: "desc" },
        id: "r.id",
        cursor: p,
      },
      t,
    ),
  );
}

export const triageSchema = z.object({
  requestId: z.string({ required_error: "Choose a booking request." }),
  status: z
    .enum(REQUEST_STATUSES, { errorMap: () => ({ message: "Choose scheduled, declined or archived." }) })
    .refine((s) => s !== "new", "Choose scheduled, declined or archived."),
});

/**
 * Moves a request to its next state in one conditional UPDATE, so two people triaging at
 * once cannot both win: the second finds the state changed and gets 409.
 */
export async function triageRequest(actor: Actor, requestId: string, to: RequestStatus) {
  if (!isUuid(requestId)) throw notFound("Booking request not found.");
  const from = REQUEST_STATUSES.filter((s) => REQUEST_TRANSITIONS[s].includes(to));
  return inTenant(actor.tenantId, async (t) => {
    const [, [updated]] = await BookingRequest.update(
      { status: to, triagedBy: actor.userId, triagedAt: new Date() },
      {
        where: { tenantId: actor.tenantId, id: requestId, status: { [Op.in]: from } },
        returning: ["service"],
        transaction: t,
      },
    );
    if (updated) return { service: updated.service };
    const current = await BookingRequest.findOne({
      where: { tenantId: actor.tenantId, id: requestId },
      attributes: ["status"],
      transaction: t,
    });
    if (!current) throw notFound("Booking request not found.");
    throw conflict(`This request is already ${current.status}; it cannot be marked ${to}.`);
  });
}
