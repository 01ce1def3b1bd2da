import { queueInviteEmail } from "~/services/messages/compose.server";
import { inTenant, one, rows } from "../../../db/index";
import { assertPasswordNotCommon } from "~/services/accounts/accounts.server";
import { AppError, conflict, forbidden, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid, randomToken, sha256 } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { hashPassword } from "~/services/accounts/passwords.server";
import { mayManageMember, type Role } from "~/utils/permissions";

/**
 * One-time invite links for members who have no password yet (imported or added on /team).
 * The token is `<tenant id, base64url>.<32 random bytes>`; only sha256 of the random part is
 * stored. The tenant part keeps the lookup tenant-scoped, as the session lookup is.
 */
export const INVITE_DAYS = 7;

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const bytesUuid = (b: Buffer) => b.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");

function parseToken(token: string): { tenantId: string; hash: string } | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [tenantPart, secret, extra] = token.split(".");
  if (!tenantPart || !secret || extra !== undefined || secret.length < 40) return null;
  const bytes = Buffer.from(tenantPart, "base64url");
  if (bytes.length !== 16) return null;
  const tenantId = bytesUuid(bytes);
  return isUuid(tenantId) ? { tenantId, hash: sha256(secret) } : null;
}

/** The invite's public URL, from APP_URL (never the Host header). */
export const inviteUrl = (token: string) => `${env().APP_URL}/invite/${token}`;

/**
 * Creates an invite for a member of the actor's tenant who has no password yet; an earlier
 * unused invite of theirs stops working. Members with a password are refused: an invite sets
 * a password, so it would let whoever holds it take over an account that already signs in.
 * An invite signs its holder in as the member, so it follows the role rule of /team: only an
 * owner invites an owner, and nobody invites a member above their own role. A refusal changes
 * nothing (the member's current invite keeps working).
 */
export async function createInvite(actor: Actor, userId: string) {
  if (!isUuid(userId)) throw notFound("Team member not found.");
  const secret = randomToken(32);
  const token = `${uuidBytes(actor.tenantId).toString("base64url")}.${secret}`;
  return inTenant(actor.tenantId, async (t) => {
    const member = await one<{ name: string; email: string; role: Role; has_password: boolean }>(
      `SELECT name, email, role, password_hash IS NOT NULL AS has_password FROM users WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [actor.tenantId, userId],
      t,
    );
    if (!member) throw notFound("Team member not found.");
    assertMayInvite(actor.role, member.role);
    if (member.has_password)
      throw conflict(`${member.name} already signs in with a password, so there is nothing to invite them to.`);
    await rows(
      `UPDATE invites SET revoked_at = now() WHERE tenant_id = $1 AND user_id = $2 AND used_at IS NULL AND revoked_at IS NULL`,
      [actor.tenantId, userId],
      t,
    );
    const invite = await one<{ expires_at: Date }>(
      `INSERT INTO invites (tenant_id, user_id, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING expires_at`,
      [actor.tenantId, userId, sha256(secret), actor.userId, INVITE_DAYS],
      t,
    );
    // The new member gets the link by e-mail too, written with the invite (docs/decisions/140).
    const emailed = await queueInviteEmail(
      t,
      actor.tenantId,
      member,
      inviteUrl(token),
      invite!.expires_at,
      actor.userId,
    );
    return {
      url: inviteUrl(token),
      expiresAt: invite!.expires_at.toISOString(),
      memberName: member.name,
      emailedTo: emailed ? member.email : null,
    };
  });
}

/** Refuses an invite (making one or showing its page) for a member above the actor's role. */
export function assertMayInvite(actorRole: Role, memberRole: Role) {
  if (!mayManageMember(actorRole, memberRole))
    throw forbidden(
      memberRole === "owner"
        ? "Only an owner can invite an owner."
        : "You cannot invite a member whose role is above your own.",
    );
}

export type InviteState = "valid" | "used" | "expired" | "replaced" | "invalid";

type InviteRow = {
  user_id: string;
  used_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
  has_password: boolean;
  name: string;
  email: string;
  tenant_name: string;
};

async function findInvite(token: string) {
  const key = parseToken(token);
  if (!key) return null;
  const row = await inTenant(key.tenantId, (t) =>
    one<InviteRow>(
      `SELECT i.user_id, i.used_at, i.revoked_at, i.expires_at <= now() AS expired, u.password_hash IS NOT NULL AS has_password,
              u.name, u.email, tn.name AS tenant_name
         FROM invites i
         JOIN users u ON u.tenant_id = i.tenant_id AND u.id = i.user_id
         JOIN tenants tn ON tn.id = i.tenant_id
        WHERE i.tenant_id = $1 AND i.token_hash = $2`,
      [key.tenantId, key.hash],
      t,
    ),
  );
  return row ? { ...key, row } : null;
}

function stateOf(row: InviteRow): InviteState {
  if (row.used_at || row.has_password) return "used";
  if (row.revoked_at) return "replaced";
  if (row.expired) return "expired";
  return "valid";
}

/** What an invite link shows: who it is for, or why it no longer works. */
export async function inviteStatus(
  token: string,
): Promise<
  { state: "valid"; name: string; email: string; tenantName: string } | { state: Exclude<InviteState, "valid"> }
> {
  const found = await findInvite(token);
  if (!found) return { state: "invalid" };
  const state = stateOf(found.row);
  if (state !== "valid") return { state };
  return { state, name: found.row.name, email: found.row.email, tenantName: found.row.tenant_name };
}

export const INVITE_MESSAGES: Record<Exclude<InviteState, "valid">, string> = {
  invalid: "This invite link is not valid. Check that you copied the whole link, or ask for a new one.",
  used: "This invite link has already been used. Sign in with your email and password.",
  expired: "This invite link has expired. Ask your manager for a new one.",
  replaced: "A newer invite was sent for this account, so this one no longer works. Use the latest link.",
};

/**
 * Sets the member's password and uses up the invite, exactly once: the invite row is claimed
 * by a conditional UPDATE and the password set only where none is, in one transaction.
 */
export async function acceptInvite(token: string, password: string): Promise<{ tenantId: string; userId: string }> {
  const found = await findInvite(token);
  if (!found) throw new AppError("GONE", INVITE_MESSAGES.invalid, { status: 404 });
  assertPasswordNotCommon(password);
  const passwordHash = await hashPassword(password);
  return inTenant(found.tenantId, async (t) => {
    const claimed = await one<{ user_id: string }>(
      `UPDATE invites SET used_at = now()
        WHERE tenant_id = $1 AND token_hash = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [found.tenantId, found.hash],
      t,
    );
    const user = claimed
      ? await one<{ id: string }>(
          `UPDATE users SET password_hash = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2 AND password_hash IS NULL RETURNING id`,
          [found.tenantId, claimed.user_id, passwordHash],
          t,
        )
      : undefined;
    if (!user) {
      const state = stateOf(found.row) === "valid" ? "used" : stateOf(found.row);
      throw new AppError("GONE", INVITE_MESSAGES[state as Exclude<InviteState, "valid">]);
    }
    return { tenantId: found.tenantId, userId: user.id };
  });
}
