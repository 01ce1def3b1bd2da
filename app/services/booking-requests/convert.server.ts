import { z } from "zod";
import { inTenant, type Tx } from "../../../db/index";
import { BookingRequest, Quote } from "../../../db/models/index";
import { conflict, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { formatDate } from "~/utils/format";
import { recordHistory } from "~/services/history/history.server";
import { assertManagesRecords, createJob, tenantTimeZone } from "~/services/jobs/jobs.server";
import { zonedToday } from "~/services/jobs/local-time";
import { nextDocumentNumber } from "~/services/records/numbering.server";

// A booking request turned into work (docs/decisions/127): a draft quote
// or an unscheduled job, prefilled from what the customer typed, linked both ways (the
// request names it; its page names the request). The request row is locked first, so two
// clicks, or two people at once, land on the same record.

export type ConvertTarget = "quote" | "job";

/** POST /requests/<id>/convert: what to make from the request. */
export const convertRequestSchema = z.object({
  to: z.enum(["quote", "job"], { errorMap: () => ({ message: "Choose Create quote or Create job." }) }),
});
const WINDOW_LABELS: Record<string, string> = {
  any: "any time",
  morning: "morning",
  afternoon: "afternoon",
  evening: "evening",
};
const QUOTE_VALID_DAYS = 30;

/** What the customer told us, as the notes of the quote or the job's description. */
export function requestNotes(
  r: Pick<BookingRequest, "description" | "address" | "phone" | "preferredDate" | "timeWindow">,
): string {
  return [
    r.description?.trim() || null,
    r.address ? `Address: ${r.address}` : null,
    r.phone ? `Phone: ${r.phone}` : null,
    r.preferredDate
      ? `Preferred date: ${formatDate(r.preferredDate)} (${WINDOW_LABELS[r.timeWindow] ?? r.timeWindow})`
      : null,
  ]
    .filter(Boolean)
    .join("\n");
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);

async function quoteFrom(actor: Actor, r: BookingRequest, t: Tx): Promise<Quote> {
  const today = zonedToday(await tenantTimeZone(actor.tenantId, t));
  const quote = await Quote.create(
    {
      tenantId: actor.tenantId,
      customerId: r.customerId,
      number: await nextDocumentNumber(t, actor.tenantId, "quote"),
      title: r.service,
      status: "draft",
      issueDate: today,
      validUntil: addDays(today, QUOTE_VALID_DAYS),
      currency: "USD",
      notes: requestNotes(r) || null,
      propertyId: r.propertyId,
    },
    { transaction: t },
  );
  await recordHistory(t, actor, {
    recordType: "quote",
    recordId: quote.id,
    action: "created",
    summary: `Created from the booking request “${r.service}”`,
  });
  return quote;
}

/**
 * Makes the quote or job once: a request already converted to that kind answers the same record.
 * A declined or archived request that was never converted is 409.
 */
export async function convertRequest(
  actor: Actor,
  requestId: string,
  to: ConvertTarget,
): Promise<{ to: ConvertTarget; id: string; created: boolean; label: string }> {
  assertManagesRecords(actor);
  return inTenant(actor.tenantId, async (t) => {
    const r =
      isUuid(requestId) &&
      (await BookingRequest.findOne({
        where: { tenantId: actor.tenantId, id: requestId },
        transaction: t,
        lock: t.LOCK.UPDATE,
      }));
    if (!r) throw notFound("Booking request not found.");
    if (to === "quote" && r.quoteId) return { to, id: r.quoteId, created: false, label: "quote" };
    if (to === "job" && r.jobId) return { to, id: r.jobId, created: false, label: "job" };
    if (r.status === "declined" || (r.status === "archived" && !r.quoteId && !r.jobId)) {
      throw conflict(`This request is ${r.status}; it cannot be turned into a ${to}.`);
    }
    let id: string;
    let label: string;
    if (to === "quote") {
      const quote = await quoteFrom(actor, r, t);
      id = quote.id;
      label = `quote ${quote.number}`;
    } else {
      const job = await createJob(
        actor,
        {
          customerId: r.customerId,
          title: r.service,
          description: requestNotes(r) || undefined,
          address: r.address ?? undefined,
          propertyId: r.propertyId ?? undefined,
        },
        t,
        `Created from the booking request “${r.service}”`,
      );
      id = job.id;
      label = "job";
    }
    const from = r.status;
    r.set({
      ...(to === "quote" ? { quoteId: id } : { jobId: id }),
      ...(from === "new" ? { status: "scheduled", triagedBy: actor.userId, triagedAt: new Date() } : {}),
    });
    await r.save({ transaction: t });
    await recordHistory(t, actor, {
      recordType: "booking_request",
      recordId: r.id,
      action: "converted",
      summary: `Turned into a ${label}`,
      details: { to, id },
    });
    return { to, id, created: true, label };
  });
}

/** The booking request a quote or job was made from, for its page ("From booking request"). */
export async function requestBehind(tenantId: string, kind: ConvertTarget, id: string) {
  return inTenant(tenantId, async (t) => {
    const r = await BookingRequest.findOne({
      where: { tenantId, ...(kind === "quote" ? { quoteId: id } : { jobId: id }) },
      attributes: ["id", "service", "createdAt"],
      transaction: t,
    });
    return r ? { id: r.id, service: r.service, createdAt: r.createdAt.toISOString() } : null;
  });
}
