// Named tax rates and groups (/settings/taxes, docs/decisions/381-tax-rates.md): list, add,
// change while unused, make default, archive and restore, delete while unused (409 once a
// document, a job, a price book item or a group uses it).
import { UniqueConstraintError } from "sequelize";
import { inTenant, rows, type Tx } from "../../../db/index";
import { TaxGroupRate, TaxRate } from "../../../db/models/index";
import type { Actor } from "~/services/accounts/actor";
import { percentToPpm, ppmToPercent, trimDecimal } from "~/services/documents/line-items";
import { ppmToPercentText } from "~/services/money/prices";
import { conflict, notFound, validationFailed } from "~/utils/app-error";
import { isUuid } from "~/utils/crypto.server";
import type { RateBook, TaxChoice } from "./rate-book";
import type { TaxGroupValue, TaxRateValue } from "./schemas";

/** Every rate and group of the tenant, archived ones too (old documents name them). */
export async function loadRateBook(t: Tx, tenantId: string): Promise<RateBook> {
  const all = await TaxRate.findAll({ where: { tenantId }, order: [["name", "ASC"]], transaction: t });
  if (!all.length) return {};
  // Most businesses have rates and no group: then there are no members to read.
  const members = all.some((r) => r.isGroup)
    ? await TaxGroupRate.findAll({ where: { tenantId }, order: [["position", "ASC"]], transaction: t })
    : [];
  const byId = new Map(all.map((r) => [r.id, r]));
  const book: RateBook = {};
  for (const r of all) {
    const rates = r.isGroup
      ? members
          .filter((m) => m.groupId === r.id)
          .map((m) => byId.get(m.rateId)!)
          .filter(Boolean)
          .map((m) => ({ key: m.id, name: m.name, ppm: percentToPpm(String(m.rate)) }))
      : [{ key: r.id, name: r.name, ppm: percentToPpm(String(r.rate)) }];
    book[r.id] = {
      id: r.id,
      name: r.name,
      isGroup: r.isGroup,
      archived: !!r.archivedAt,
      isDefault: r.isDefault,
      percent: ppmToPercentText(rates.reduce((a, m) => a + m.ppm, 0)),
      members: rates,
    } satisfies TaxChoice;
  }
  return book;
}

export const rateBookOf = (actor: Actor) => inTenant(actor.tenantId, (t) => loadRateBook(t, actor.tenantId));

/** The rates and groups a new line may pick (not archived), rates first, then groups, by name. */
export const choosable = (book: RateBook): TaxChoice[] =>
  Object.values(book)
    .filter((c) => !c.archived)
    .sort((a, b) => Number(a.isGroup) - Number(b.isGroup) || a.name.localeCompare(b.name));

/** The default rate or group, if one is set. */
export const defaultChoice = (book: RateBook): TaxChoice | null =>
  Object.values(book).find((c) => c.isDefault && !c.archived) ?? null;

/**
 * A line's tax as stored: the named rate or group chosen, else the typed percent matched to a
 * rate (not a group, not archived) of that percent, else the percent as typed. Returns the id and
 * the line's total percent (ppm). An unknown id is the field's error.
 */
export function resolveLineTax(
  book: RateBook,
  line: { taxRateId: string | null; taxRate: number },
  keep: ReadonlySet<string> = new Set(),
): { taxRateId: string | null; taxRatePpm: number } | { error: string } {
  if (line.taxRateId) {
    const c = book[line.taxRateId];
    // An archived rate stays on a line that already had it; a new line cannot pick it.
    if (!c || (c.archived && !keep.has(c.id))) return { error: "Choose a tax rate from the list" };
    return { taxRateId: c.id, taxRatePpm: c.members.reduce((a, m) => a + m.ppm, 0) };
  }
  if (line.taxRate > 0) {
    const match = Object.values(book)
      .filter((c) => !c.isGroup && !c.archived && c.members[0]!.ppm === line.taxRate)
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name))[0];
    if (match) return { taxRateId: match.id, taxRatePpm: line.taxRate };
  }
  return { taxRateId: null, taxRatePpm: line.taxRate };
}

/** The settings page: rates and groups with what uses them. */
export async function listTaxes(actor: Actor) {
  return inTenant(actor.tenantId, async (t) => {
    const book = await loadRateBook(t, actor.tenantId);
    const uses = await usesOf(t, actor.tenantId);
    const all = Object.values(book).sort(
      (a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name),
    );
    return all.map((c) => ({ ...c, uses: uses.get(c.id) ?? 0 }));
  });
}

/** How many lines, price book items and groups name each rate. */
async function usesOf(t: Tx, tenantId: string, id?: string): Promise<Map<string, number>> {
  const found = await rows<{ id: string; n: string }>(
    `SELECT tax_rate_id AS id, count(*) AS n FROM (
        SELECT tax_rate_id FROM quote_items WHERE tenant_id = $1 AND tax_rate_id IS NOT NULL AND ($2::uuid IS NULL OR tax_rate_id = $2)
        UNION ALL SELECT tax_rate_id FROM invoice_items WHERE tenant_id = $1 AND tax_rate_id IS NOT NULL AND ($2::uuid IS NULL OR tax_rate_id = $2)
        UNION ALL SELECT tax_rate_id FROM job_items WHERE tenant_id = $1 AND tax_rate_id IS NOT NULL AND ($2::uuid IS NULL OR tax_rate_id = $2)
        UNION ALL SELECT tax_rate_id FROM price_book_items WHERE tenant_id = $1 AND tax_rate_id IS NOT NULL AND ($2::uuid IS NULL OR tax_rate_id = $2)
        UNION ALL SELECT rate_id FROM tax_group_rates WHERE tenant_id = $1 AND ($2::uuid IS NULL OR rate_id = $2)
      ) u GROUP BY 1`,
    [tenantId, id ?? null],
    t,
  );
  return new Map(found.map((r) => [r.id, Number(r.n)]));
}

async function findTax(t: Tx, actor: Actor, id: string, lock = true) {
  if (!isUuid(id)) throw notFound("Tax rate not found.");
  const r = await TaxRate.findOne({
    where: { tenantId: actor.tenantId, id },
    transaction: t,
    ...(lock ? { lock: t.LOCK.UPDATE } : {}),
  });
  if (!r) throw notFound("Tax rate not found.");
  return r;
}

async function clearDefault(t: Tx, tenantId: string, except?: string) {
  await rows(
    `UPDATE tax_rates SET is_default = false, updated_at = now()
      WHERE tenant_id = $1 AND is_default AND ($2::uuid IS NULL OR id <> $2)`,
    [tenantId, except ?? null],
    t,
  );
}

const sameName = (e: unknown) => {
  if (e instanceof UniqueConstraintError) return validationFailed({ name: ["A rate or group already has this name"] });
  return e;
};

/** Adds a rate, or changes one not yet in use (a rate in use keeps its name and percent: 409). */
export async function saveTaxRate(actor: Actor, v: TaxRateValue): Promise<string> {
  return inTenant(actor.tenantId, async (t) => {
    const rate = trimDecimal(ppmToPercent(v.rate));
    try {
      let id: string;
      if (v.id) {
        const r = await findTax(t, actor, v.id);
        if (r.isGroup) throw notFound("Tax rate not found.");
        const changed = r.name !== v.name || percentToPpm(String(r.rate)) !== v.rate;
        if (changed && (await usesOf(t, actor.tenantId, r.id)).size)
          throw conflict(
            `“${r.name}” is in use, so its name and percent stay as they are on its documents. Archive it and add a new rate instead.`,
          );
        if (r.archivedAt && v.isDefault) throw conflict("An archived rate cannot be the default.");
        r.set({ name: v.name, rate });
        await r.save({ transaction: t });
        id = r.id;
      } else {
        id = (
          await TaxRate.create({ tenantId: actor.tenantId, name: v.name, rate, isGroup: false }, { transaction: t })
        ).id;
      }
      if (v.isDefault) await makeDefault(t, actor.tenantId, id);
      return id;
    } catch (e) {
      throw sameName(e);
    }
  });
}

/** Adds a group of 2+ rates, or changes one not yet in use. */
export async function saveTaxGroup(actor: Actor, v: TaxGroupValue): Promise<string> {
  return inTenant(actor.tenantId, async (t) => {
    const members = await TaxRate.findAll({ where: { tenantId: actor.tenantId, id: v.rateIds }, transaction: t });
    if (members.length !== v.rateIds.length || members.some((m) => m.isGroup || m.archivedAt))
      throw validationFailed({ rateIds: ["Choose rates from the list (not groups, not archived)"] });
    const sum = members.reduce((a, m) => a + percentToPpm(String(m.rate)), 0);
    if (sum > 1_000_000) throw validationFailed({ rateIds: ["The rates add up to more than 100%"] });
    try {
      let id: string;
      if (v.id) {
        const g = await findTax(t, actor, v.id);
        if (!g.isGroup) throw notFound("Tax group not found.");
        const old = await TaxGroupRate.findAll({
          where: { tenantId: actor.tenantId, groupId: g.id },
          order: [["position", "ASC"]],
          transaction: t,
        });
        const changed = g.name !== v.name || old.map((m) => m.rateId).join() !== v.rateIds.join();
        if (changed && (await usesOf(t, actor.tenantId, g.id)).size)
          throw conflict(
            `“${g.name}” is in use, so its rates stay as they are. Archive it and add a new group instead.`,
          );
        g.set({ name: v.name });
        await g.save({ transaction: t });
        await TaxGroupRate.destroy({ where: { tenantId: actor.tenantId, groupId: g.id }, transaction: t });
        id = g.id;
      } else {
        id = (await TaxRate.create({ tenantId: actor.tenantId, name: v.name, isGroup: true }, { transaction: t })).id;
      }
      await TaxGroupRate.bulkCreate(
        v.rateIds.map((rateId, i) => ({ tenantId: actor.tenantId, groupId: id, rateId, position: i + 1 })),
        { transaction: t },
      );
      if (v.isDefault) await makeDefault(t, actor.tenantId, id);
      return id;
    } catch (e) {
      throw sameName(e);
    }
  });
}

async function makeDefault(t: Tx, tenantId: string, id: string) {
  await clearDefault(t, tenantId, id);
  await rows(
    `UPDATE tax_rates SET is_default = true, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
    t,
  );
}

/** Makes a rate or group the default of new lines (an archived one: 409). */
export async function setDefaultTax(actor: Actor, id: string): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const r = await findTax(t, actor, id);
    if (r.archivedAt) throw conflict(`“${r.name}” is archived. Restore it before making it the default.`);
    await makeDefault(t, actor.tenantId, r.id);
  });
}

/** Archives a rate or group: new lines can no longer pick it; the documents that carry it keep it. */
export async function archiveTax(actor: Actor, id: string): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const r = await findTax(t, actor, id);
    if (r.archivedAt) return;
    r.set({ archivedAt: new Date(), isDefault: false });
    await r.save({ transaction: t });
  });
}

/** Restores an archived rate or group (its name must be free among the active ones: 422). */
export async function restoreTax(actor: Actor, id: string): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const r = await findTax(t, actor, id);
    if (!r.archivedAt) return;
    r.set({ archivedAt: null });
    try {
      await r.save({ transaction: t });
    } catch (e) {
      throw sameName(e);
    }
  });
}

/** Deletes a rate or group nothing uses; one in use is 409 (archive it instead). */
export async function deleteTax(actor: Actor, id: string): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    const r = await findTax(t, actor, id);
    if ((await usesOf(t, actor.tenantId, r.id)).size)
      throw conflict(
        `“${r.name}” is in use on documents, jobs, the price book or a group, so it cannot be deleted. Archive it instead: it stays on those and new lines can no longer pick it.`,
      );
    await TaxRate.destroy({ where: { tenantId: actor.tenantId, id: r.id }, transaction: t });
  });
}

/** One rate or group by id (for the isolation checks and the edit form). */
export async function taxById(actor: Actor, id: string) {
  return inTenant(actor.tenantId, async (t) => {
    const r = await findTax(t, actor, id, false);
    const book = await loadRateBook(t, actor.tenantId);
    return book[r.id]!;
  });
}
