// The price book (/settings/price-book): services and products a line item can be picked from.
import { UniqueConstraintError } from "sequelize";
import { inTenant } from "../../../db/index";
import { PriceBookItem } from "../../../db/models";
import { notFound, validationFailed } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { centsToInput, ppmToPercent, trimDecimal } from "./line-items";
import type { PriceBookItemValue } from "./price-book-form";

export async function listPriceBook(actor: Actor) {
  return inTenant(actor.tenantId, async (t) =>
    (
      await PriceBookItem.findAll({
        where: { tenantId: actor.tenantId },
        order: [
          ["name", "ASC"],
          ["id", "ASC"],
        ],
        limit: 1000,
        transaction: t,
      })
    ).map((p) => ({
      id: p.id,
      kind: p.kind,
      name: p.name,
      description: p.description ?? "",
      unitPriceCents: Number(p.unitPriceCents),
      unitPrice: centsToInput(p.unitPriceCents),
      taxRate: trimDecimal(p.taxRate),
    })),
  );
}

/** Adds an item, or changes one (`id`); a name already in the book is 422 beside the field. */
export async function savePriceBookItem(actor: Actor, v: PriceBookItemValue): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const values = {
      kind: v.kind,
      name: v.name,
      description: v.description,
      unitPriceCents: v.unitPrice,
      taxRate: trimDecimal(ppmToPercent(v.taxRate)),
    };
    try {
      if (v.id) {
        const item = await PriceBookItem.findOne({
          where: { tenantId: actor.tenantId, id: v.id },
          transaction: t,
          lock: t.LOCK.UPDATE,
        });
        if (!item) throw notFound("Price book item not found.");
        item.set(values);
        await item.save({ transaction: t });
      } else {
        await PriceBookItem.create({ tenantId: actor.tenantId, ...values }, { transaction: t });
      }
    } catch (e) {
      if (e instanceof UniqueConstraintError)
        throw validationFailed({ name: ["The price book already has an item with this name"] });
      throw e;
    }
  });
}

export async function removePriceBookItem(actor: Actor, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("Price book item not found.");
  await inTenant(actor.tenantId, async (t) => {
    const removed = await PriceBookItem.destroy({ where: { tenantId: actor.tenantId, id }, transaction: t });
    if (!removed) throw notFound("Price book item not found.");
  });
}
