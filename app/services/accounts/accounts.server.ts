import { randomUUID } from "node:crypto";
import { inTenant, one } from "../../../db/index";
import { AppError } from "~/utils/app-error";
import { blockedFor, countFailure, rateLimited, resetKey, RULES } from "~/http/rate-limit.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import type { SignupInput } from "./schemas";

/** Creates a tenant and its owner in one transaction. */
export async function signup(input: SignupInput): Promise<{ tenantId: string; userId: string }> {
  const passwordHash = await hashPassword(input.password);
  try {
    // The tenant id is chosen here so the new rows are written inside their own tenant scope.
    const tenantId = randomUUID();
    return await inTenant(tenantId, async (t) => {
      await one(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [tenantId, input.businessName], t);
      const user = await one<{ id: string }>(
        `INSERT INTO users (tenant_id, email, name, role, password_hash) VALUES ($1, $2, $3, 'owner', $4) RETURNING id`,
        [tenantId, input.email, input.name, passwordHash],
        t,
      );
      return { tenantId, userId: user!.id };
    });
  } catch (error) {
    if ((error as { name?: string }).name === "SequelizeUniqueConstraintError") {
      throw new AppError("VALIDATION_FAILED", "Some fields are not valid.", {
        fields: { email: ["An account with this email already exists. Sign in instead."] },
      });
    }
    throw error;
  }
}

export const LOGIN_FAILED = "The email or password is not right.";

/**
 * Checks a sign-in. Unknown email and wrong password take the same time and give the same
 * answer. Failures are counted per email+IP (10 in a row lock the pair for 15 minutes) and
 * per account (100 an hour), in PostgreSQL.
 */
export async function login(email: string, password: string, ip: string): Promise<{ tenantId: string; userId: string }> {
  const pairKey = `${email}|${ip}`;
  const pair = RULES.loginPair();
  const account = RULES.loginAccount();
  const wait = Math.max(await blockedFor(pair, pairKey), await blockedFor(account, email));
  if (wait > 0) throw rateLimited(wait, "Too many failed sign-in attempts. Try again later.");

  // Sign-in is the one lookup by email across tenants (a SECURITY DEFINER function, migration 0009).
  const user = await one<{ id: string; tenant_id: string; password_hash: string | null }>(
    `SELECT id, tenant_id, password_hash FROM app_login_lookup($1)`,
    [email],
  );
  if (user?.password_hash && (await verifyPassword(user.password_hash, password))) {
    await resetKey(pair, pairKey);
    return { tenantId: user.tenant_id, userId: user.id };
  }
  if (!user?.password_hash) await verifyPassword(null, password);
  await countFailure(pair, pairKey);
  const res = await pair.get(pairKey);
  if (res && res.remainingPoints <= 0) await pair.block(pairKey, 15 * 60);
  await countFailure(account, email);
  throw new AppError("UNAUTHENTICATED", LOGIN_FAILED, { status: 401 });
}

