import type { z } from "zod";
import { inTenant, one, rows } from "../../../db/index";
import { addLoginEmails } from "../../../db/login-emails";
import { AppError, conflict, forbidden, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { mayGrant, ROLES, type Role } from "~/utils/permissions";
import { addMemberSchema } from "./schemas";

// The forms' schemas live in ./schemas (the browser validates with them too); re-exported for
// the callers that know them from here.
export { addMemberSchema, changeRoleSchema, roleSchema } from "./schemas";

// The team: members and their roles. (The tenant's time zone is a company setting: app/services/company.)

export type Member = {
  id: string;
  name: string;
  email: string;
  role: Role;
  phone: string | null;
  has_password: boolean;
  invite_expires_at: string | null;
  created_at: string;
};

/** Members by role (owners first), each with whether they can sign in and any pending invite. */
export function listMembers(tenantId: string): Promise<Member[]> {
  return memberRows(tenantId);
}

export async function getMember(tenantId: string, id: string): Promise<Member> {
  const member = isUuid(id) ? (await memberRows(tenantId, id))[0] : undefined;
  if (!member) throw notFound("Team member not found.");
  return member;
}

function memberRows(tenantId: string, id?: string) {
  return inTenant(tenantId, (t) =>
    rows<Member>(
      `SELECT u.id, u.name, u.email, u.role, u.phone, u.password_hash IS NOT NULL AS has_password, u.created_at,
              (SELECT max(i.expires_at) FROM invites i
                WHERE i.tenant_id = u.tenant_id AND i.user_id = u.id AND i.used_at IS NULL AND i.revoked_at IS NULL
                  AND i.expires_at > now()) AS invite_expires_at
         FROM users u WHERE u.tenant_id = $1 ${id ? "AND u.id = $2" : ""}
        ORDER BY array_position($${id ? 3 : 2}::text[], u.role), u.name, u.id
        LIMIT 1000`,
      id ? [tenantId, id, ROLES] : [tenantId, ROLES],
      t,
    ),
  );
}

/**
 * Changes a member's role. Only an owner grants or takes away the owner role, and the last
 * owner is never demoted: the tenant's owner rows are locked first, so two demotions at once
 * cannot leave it with none. The session lookup reads the role on every request, so the
 * change applies to the member's next request.
 */
export async function changeRole(actor: Actor, userId: string, role: Role) {
  if (!isUuid(userId)) throw notFound("Team member not found.");
  return inTenant(actor.tenantId, async (t) => {
    const owners = await rows<{ id: string }>(
      `SELECT id FROM users WHERE tenant_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE`,
      [actor.tenantId],
      t,
    );
    const member = await one<{ role: Role; name: string }>(
      `SELECT role, name FROM users WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [actor.tenantId, userId],
      t,
    );
    if (!member) throw notFound("Team member not found.");
    if (member.role === role) return { name: member.name, role, changed: false };
    if ((member.role === "owner" || role === "owner") && actor.role !== "owner") {
      throw forbidden("Only an owner can make someone an owner or change an owner's role.");
    }
    if (!mayGrant(actor.role, role) || !mayGrant(actor.role, member.role)) {
      throw forbidden("You cannot give or change a role above your own.");
    }
    if (member.role === "owner" && owners.length <= 1) {
      throw conflict(`${member.name} is the only owner. Make someone else an owner first.`);
    }
    await one(
      `UPDATE users SET role = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2`,
      [actor.tenantId, userId, role],
      t,
    );
    // An open invite signs its holder in as the member: one made by someone who may not act on
    // the new role (an admin's invite for a member now made owner) stops working.
    await rows(
      `UPDATE invites i SET revoked_at = now()
        WHERE i.tenant_id = $1 AND i.user_id = $2 AND i.used_at IS NULL AND i.revoked_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM users c WHERE c.tenant_id = i.tenant_id AND c.id = i.created_by
                             AND array_position($4::text[], c.role) <= array_position($4::text[], $3::text))`,
      [actor.tenantId, userId, role, ROLES],
      t,
    );
    return { name: member.name, role, changed: true };
  });
}

/**
 * Adds a member without a password; they sign in through an invite (like an imported member).
 * Never a role above the adder's own. An e-mail known in another business is added like any
 * new e-mail; only this team's own members are "already" there.
 */
export async function addMember(actor: Actor, input: z.infer<typeof addMemberSchema>) {
  if (input.role === "owner" && actor.role !== "owner") throw forbidden("Only an owner can add another owner.");
  if (!mayGrant(actor.role, input.role)) throw forbidden("You cannot give a role above your own.");
  try {
    return await inTenant(actor.tenantId, async (t) => {
      const user = (await one<{ id: string }>(
        `INSERT INTO users (tenant_id, email, name, role) VALUES ($1, $2, $3, $4) RETURNING id`,
        [actor.tenantId, input.email, input.name, input.role],
        t,
      ))!;
      await addLoginEmails(actor.tenantId, [{ id: user.id, email: input.email }], t);
      return user;
    });
  } catch (error) {
    if ((error as { name?: string }).name === "SequelizeUniqueConstraintError") {
      throw new AppError("VALIDATION_FAILED", "Some fields are not valid.", {
        fields: { email: ["Already a member of your team."] },
      });
    }
    throw error;
  }
}
