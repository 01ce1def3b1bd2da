import { literal, Op } from "sequelize";
import { inTenant, type Tx } from "../../../db/index";
import { Customer, PortalLink, Tenant, User } from "../../../db/models";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { signIdToken, verifyIdToken } from "~/utils/signed-ids.server";

/**
 * Portal links. The token is signed over (tenant id, link id) by `signIdToken` (purpose
 * "portal"). The database stores only the link row (tenant, customer, expiry, revoked), never
 * a token, so reading it does not open any portal; expiry and revocation live in the row, so a
 * link can be revoked at once.
 */
export const signPortalToken = (tenantId: string, linkId: string): string => signIdToken("portal", tenantId, linkId);

/** The ids a token names, or null for anything forged, tampered or malformed. */
export function verifyPortalToken(token: string): { tenantId: string; linkId: string } | null {
  const ids = verifyIdToken("portal", token);
  return ids && { tenantId: ids.tenantId, linkId: ids.rowId };
}

/** The public URL, always from APP_URL (never the Host header). */
export const portalUrl = (token: string) => `${env().APP_URL}/portal/${token}`;

/**
 * What a document's page offers to share it: the customer's live portal link and a ready message
 * (subject and body, and a mailto: link when the customer has an e-mail); null without a live link.
 * `message` writes the subject and the lines between the greeting and the sign-off.
 */
export async function portalShare(
  t: Tx,
  tenantId: string,
  customerId: string,
  message: (business: string, url: string) => { subject: string; lines: string[] },
) {
  const live = await PortalLink.findOne({
    where: { tenantId, customerId, revokedAt: null, expiresAt: { [Op.gt]: new Date() } },
    order: [["expiresAt", "DESC"]],
    transaction: t,
  });
  if (!live) return null;
  const tenant = await Tenant.findOne({ where: { id: tenantId }, attributes: ["name"], transaction: t });
  if (!tenant) throw notFound();
  const customer = await Customer.findOne({
    where: { tenantId, id: customerId },
    attributes: ["name", "email"],
    transaction: t,
  });
  const url = portalUrl(signPortalToken(tenantId, live.id));
  const { subject, lines } = message(tenant.name, url);
  const firstName = (customer?.name ?? "").split(" ")[0] || "there";
  const body = [`Hi ${firstName},`, "", ...lines, "", "Thank you,", tenant.name].join("\n");
  const mailto = customer?.email
    ? `mailto:${customer.email}?${new URLSearchParams({ subject, body }).toString().replace(/\+/g, "%20")}`
    : null;
  return { url, expiresAt: live.expiresAt.toISOString(), subject, body, mailto, email: customer?.email ?? null };
}

export type PortalLinkView = {
  id: string;
  url: string;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  createdByName: string | null;
  state: "active" | "expired" | "revoked";
};

/** Creates a link for a customer of the actor's tenant (404 for another tenant's customer). */
export async function createPortalLink(actor: Actor, customerId: string, days: number): Promise<PortalLinkView> {
  if (!isUuid(customerId)) throw notFound("Customer not found.");
  if (!Number.isSafeInteger(days)) throw new TypeError("createPortalLink: days must be a whole number");
  return inTenant(actor.tenantId, async (t) => {
    const customer = await Customer.findOne({
      where: { tenantId: actor.tenantId, id: customerId },
      attributes: ["id"],
      transaction: t,
    });
    if (!customer) throw notFound("Customer not found.");
    // The expiry is counted on the database's clock, like the checks that read it (withPortal).
    const link = await PortalLink.create(
      {
        tenantId: actor.tenantId,
        customerId,
        createdBy: actor.userId,
        expiresAt: literal(`now() + make_interval(days => ${days})`),
      },
      { transaction: t },
    );
    const [view] = await linkViews(actor.tenantId, { id: link.id }, t);
    return view;
  });
}

/** Revokes a link of the actor's tenant; revoking twice is harmless. Returns its customer id. */
export async function revokePortalLink(actor: Actor, linkId: string): Promise<{ customerId: string }> {
  if (!isUuid(linkId)) throw notFound("Portal link not found.");
  return inTenant(actor.tenantId, async (t) => {
    // The row lock makes a revoke wait for a portal write holding the link (withPortal's share lock).
    const link = await PortalLink.findOne({
      where: { tenantId: actor.tenantId, id: linkId },
      lock: t.LOCK.UPDATE,
      transaction: t,
    });
    if (!link) throw notFound("Portal link not found.");
    if (!link.revokedAt) await link.update({ revokedAt: new Date(), revokedBy: actor.userId }, { transaction: t });
    return { customerId: link.customerId };
  });
}

/** A customer's links, newest first, with their URLs. */
export async function listPortalLinks(actor: Actor, customerId: string): Promise<PortalLinkView[]> {
  if (!isUuid(customerId)) return [];
  return inTenant(actor.tenantId, (t) => linkViews(actor.tenantId, { customerId }, t));
}

async function linkViews(
  tenantId: string,
  where: { id: string } | { customerId: string },
  t: Tx,
): Promise<PortalLinkView[]> {
  const found = await PortalLink.findAll({
    where: { tenantId, ...where },
    attributes: ["id", "expiresAt", "revokedAt", "createdAt", "createdBy"],
    order: [["createdAt", "DESC"]],
    limit: 50,
    transaction: t,
  });
  const creatorIds = [...new Set(found.map((l) => l.createdBy).filter((id): id is string => !!id))];
  const creators = creatorIds.length
    ? await User.findAll({
        where: { tenantId, id: { [Op.in]: creatorIds } },
        attributes: ["id", "name"],
        transaction: t,
      })
    : [];
  const nameOf = new Map(creators.map((c) => [c.id, c.name]));
  const now = Date.now();
  return found.map((r) => ({
    id: r.id,
    url: portalUrl(signPortalToken(tenantId, r.id)),
    expiresAt: r.expiresAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    createdByName: (r.createdBy && nameOf.get(r.createdBy)) ?? null,
    state: (r.revokedAt ? "revoked" : r.expiresAt.getTime() <= now ? "expired" : "active") as PortalLinkView["state"],
  }));
}
