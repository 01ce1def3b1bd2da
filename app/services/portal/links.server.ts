import { inTenant, one, rows } from "../../../db/index";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/utils/auth.server";
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
  return inTenant(actor.tenantId, async (t) => {
    const customer = await one(`SELECT 1 FROM customers WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, customerId], t);
    if (!customer) throw notFound("Customer not found.");
    const link = await one<{ id: string }>(
      `INSERT INTO portal_links (tenant_id, customer_id, created_by, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4)) RETURNING id`,
      [actor.tenantId, customerId, actor.userId, days],
      t,
    );
    const [view] = await linkViews(actor.tenantId, `pl.id = $2`, [link!.id], t);
    return view;
  });
}

/** Revokes a link of the actor's tenant; revoking twice is harmless. Returns its customer id. */
export async function revokePortalLink(actor: Actor, linkId: string): Promise<{ customerId: string }> {
  if (!isUuid(linkId)) throw notFound("Portal link not found.");
  return inTenant(actor.tenantId, async (t) => {
    // The first revocation stamps it; a second finds it revoked and changes nothing. (Not
    // coalesce(revoked_at, now()): Citus refuses now() inside COALESCE, docs/decisions/228.)
    const row =
      (await one<{ customer_id: string }>(
        `UPDATE portal_links SET revoked_at = now(), revoked_by = $3
          WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING customer_id`,
        [actor.tenantId, linkId, actor.userId],
        t,
      )) ?? (await one<{ customer_id: string }>(`SELECT customer_id FROM portal_links WHERE tenant_id = $1 AND id = $2`, [actor.tenantId, linkId], t));
    if (!row) throw notFound("Portal link not found.");
    return { customerId: row.customer_id };
  });
}

/** A customer's links, newest first, with their URLs. */
export async function listPortalLinks(actor: Actor, customerId: string): Promise<PortalLinkView[]> {
  if (!isUuid(customerId)) return [];
  return inTenant(actor.tenantId, (t) => linkViews(actor.tenantId, `pl.customer_id = $2`, [customerId], t));
}

async function linkViews(tenantId: string, where: string, bind: unknown[], t: Parameters<typeof rows>[2]): Promise<PortalLinkView[]> {
  const found = await rows<{ id: string; expires_at: Date; revoked_at: Date | null; created_at: Date; created_by_name: string | null }>(
    `SELECT pl.id, pl.expires_at, pl.revoked_at, pl.created_at, u.name AS created_by_name
       FROM portal_links pl LEFT JOIN users u ON u.tenant_id = pl.tenant_id AND u.id = pl.created_by
      WHERE pl.tenant_id = $1 AND ${where} ORDER BY pl.created_at DESC LIMIT 50`,
    [tenantId, ...bind],
    t,
  );
  const now = Date.now();
  return found.map((r) => ({
    id: r.id,
    url: portalUrl(signPortalToken(tenantId, r.id)),
    expiresAt: r.expires_at.toISOString(),
    revokedAt: r.revoked_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    createdByName: r.created_by_name,
    state: (r.revoked_at ? "revoked" : r.expires_at.getTime() <= now ? "expired" : "active") as PortalLinkView["state"],
  }));
}
