import { inTenant, one, rows } from "../../../db/index";
import { isUuid, randomToken, sha256 } from "~/utils/crypto.server";
import type { Role } from "~/utils/permissions";

export const SESSION_DAYS = 30;

export type SessionUser = {
  sessionId: string;
  tenantId: string;
  tenantName: string;
  timeZone: string;
  id: string;
  email: string;
  name: string;
  role: Role;
  flash: Record<string, unknown> | null;
};

/**
 * Creates a session row and returns the cookie value "<tenant id>.<secret>". Only the
 * sha256 of the secret is stored; the tenant id lets every lookup stay tenant-scoped.
 */
export async function createSession(
  tenantId: string,
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): Promise<string> {
  const secret = randomToken(32);
  await inTenant(tenantId, (t) =>
    rows(
      `INSERT INTO sessions (tenant_id, id, user_id, expires_at, ip, user_agent)
       VALUES ($1, $2, $3, now() + interval '${SESSION_DAYS} days', $4, $5)`,
      [tenantId, sha256(secret), userId, meta.ip ?? null, meta.userAgent?.slice(0, 500) ?? null],
      t,
    ),
  );
  return `${tenantId}.${secret}`;
}

function parse(token: string | null | undefined): { tenantId: string; id: string } | null {
  if (!token) return null;
  const dot = token.indexOf(".");
  const tenantId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (dot < 0 || !isUuid(tenantId) || secret.length < 20) return null;
  return { tenantId, id: sha256(secret) };
}

/**
 * The tenant a session cookie value names, without a database lookup: the cookie is signed, so
 * the tenant is the one the server wrote, though the session may have ended since.
 */
export function sessionTenantOf(token: string | null | undefined): string | null {
  const dot = token ? token.indexOf(".") : -1;
  if (!token || dot < 0 || token.length - dot - 1 < 20) return null;
  const tenantId = token.slice(0, dot);
  return isUuid(tenantId) ? tenantId : null;
}

/** The signed-in user behind a session cookie value, or null (unknown, expired or deleted). */
export async function findSessionUser(token: string | null | undefined): Promise<SessionUser | null> {
  const key = parse(token);
  if (!key) return null;
  // One round trip through a SECURITY DEFINER function (migration 0009), scoped by the
  // tenant and session id it is given: every request pays for this lookup.
  const row = await one<SessionUser>(`SELECT * FROM app_session_user($1, $2)`, [key.tenantId, key.id]);
  return row ?? null;
}

export async function deleteSession(token: string | null | undefined) {
  const key = parse(token);
  if (key)
    await inTenant(key.tenantId, (t) =>
      rows(`DELETE FROM sessions WHERE tenant_id = $1 AND id = $2`, [key.tenantId, key.id], t),
    );
}

/** Ends every session of a user (password set through an invite, role removed). */
export async function deleteUserSessions(tenantId: string, userId: string) {
  await inTenant(tenantId, (t) =>
    rows(`DELETE FROM sessions WHERE tenant_id = $1 AND user_id = $2`, [tenantId, userId], t),
  );
}

/**
 * Removes some keys of the flash in one statement. The root's loader and a page's loader run at
 * the same time, each with its own session lookup: each takes only the keys it showed, so
 * neither can wipe what the other has not read yet (the layout's message; the assistant's answer).
 */
export async function clearFlashKeys(user: Pick<SessionUser, "tenantId" | "sessionId">, keys: string[]) {
  await inTenant(user.tenantId, (t) =>
    rows(
      `UPDATE sessions SET flash = nullif(flash - $3::text[], '{}'::jsonb) WHERE tenant_id = $1 AND id = $2 AND flash IS NOT NULL`,
      [user.tenantId, user.sessionId, keys],
      t,
    ),
  );
}

/** A one-time message for the next page the user sees (stored on the session row). */
export async function setFlash(
  user: Pick<SessionUser, "tenantId" | "sessionId">,
  flash: Record<string, unknown> | null,
) {
  await inTenant(user.tenantId, (t) =>
    rows(
      `UPDATE sessions SET flash = $3 WHERE tenant_id = $1 AND id = $2`,
      [user.tenantId, user.sessionId, flash === null ? null : JSON.stringify(flash)],
      t,
    ),
  );
}
