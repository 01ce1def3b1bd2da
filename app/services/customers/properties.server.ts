// A customer's service properties (docs/decisions/154): listed and
// changed on the customer page; imported from another product's export; a job may name one.
import { fn, col } from "sequelize";
import { inTenant } from "../../../db/index";
import { Customer, CustomerProperty, Job } from "../../../db/models";
import { notFound } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import type { Actor } from "~/services/accounts/actor";
import { recordHistory } from "../history/history.server";
import type { PropertyInput, PropertyView } from "./property-schema";

export async function listProperties(actor: Actor, customerId: string): Promise<PropertyView[]> {
  if (!isUuid(customerId)) throw notFound("Customer not found.");
  return inTenant(actor.tenantId, async (t) => {
    const found = await CustomerProperty.findAll({
      where: { tenantId: actor.tenantId, customerId },
      order: [
        ["position", "ASC"],
        ["createdAt", "ASC"],
      ],
      transaction: t,
    });
    const counts = found.length
      ? ((await Job.findAll({
          attributes: ["propertyId", [fn("count", col("id")), "n"]],
          where: { tenantId: actor.tenantId, propertyId: found.map((p) => p.id) },
          group: ["propertyId"],
          raw: true,
          transaction: t,
        })) as unknown as { propertyId: string; n: string }[])
      : [];
    const jobs = new Map(counts.map((c) => [c.propertyId, Number(c.n)]));
    return found.map((p) => ({
      id: p.id,
      label: p.label,
      addressLine1: p.addressLine1,
      addressLine2: p.addressLine2,
      city: p.city,
      region: p.region,
      postalCode: p.postalCode,
      country: p.country,
      jobs: jobs.get(p.id) ?? 0,
    }));
  });
}

const fields = (v: PropertyInput) => ({
  label: v.label,
  addressLine1: v.addressLine1,
  addressLine2: v.addressLine2,
  city: v.city,
  region: v.region,
  postalCode: v.postalCode,
  country: v.country,
});

const describe = (v: PropertyInput) => [v.label, v.addressLine1, v.city].filter(Boolean).join(", ");

/** Adds a property (intent property.add) or changes one (property.save); 404 for another tenant's ids. */
export async function saveProperty(actor: Actor, customerId: string, v: PropertyInput): Promise<void> {
  if (!isUuid(customerId) || (v.propertyId !== undefined && !isUuid(v.propertyId)))
    throw notFound("Customer not found.");
  await inTenant(actor.tenantId, async (t) => {
    const customer = await Customer.findOne({
      where: { tenantId: actor.tenantId, id: customerId },
      attributes: ["id"],
      lock: t.LOCK.UPDATE,
      transaction: t,
    });
    if (!customer) throw notFound("Customer not found.");
    if (v.intent === "property.add") {
      const last = (await CustomerProperty.max("position", {
        where: { tenantId: actor.tenantId, customerId },
        transaction: t,
      })) as number | null;
      await CustomerProperty.create(
        { tenantId: actor.tenantId, customerId, position: (last ?? 0) + 1, ...fields(v) },
        { transaction: t },
      );
      await recordHistory(t, actor, {
        recordType: "customer",
        recordId: customerId,
        action: "property_added",
        summary: `Service property added: ${describe(v)}`,
      });
      return;
    }
    const property = await CustomerProperty.findOne({
      where: { tenantId: actor.tenantId, customerId, id: v.propertyId! },
      lock: t.LOCK.UPDATE,
      transaction: t,
    });
    if (!property) throw notFound("This service property does not exist.");
    await property.update(fields(v), { transaction: t });
    await recordHistory(t, actor, {
      recordType: "customer",
      recordId: customerId,
      action: "property_changed",
      summary: `Service property changed: ${describe(v)}`,
    });
  });
}
