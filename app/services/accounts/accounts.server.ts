import { randomUUID } from "node:crypto";
import { inTenant, one, rows } from "../../../db/index";
import { addLoginEmails } from "../../../db/login-emails";
import { AppError, validationFailed } from "~/utils/app-error";
import { blockedFor, countFailure, rateLimited, resetKey, RULES } from "~/services/limits/rate-limit.server";
import { hashPassword, isCommonPassword, verifyPassword } from "./passwords.server";
import type { SignupInput } from "./schemas";

/** Refuses a password from the common-password list, beside the field (signup, invite). */
export function assertPasswordNotCommon(password: string) {
  if (isCommonPassword(password)) {
    throw validationFailed({ password: ["This password is on a list of commonly used passwords. Choose another."] });
  }
}

/**
 * Creates a tenant and its owner in one transaction. An e-mail known in another business is no
 * obstacle and no message tells of it: the new business is its own tenant.
 * At most `RULES.signupIp` new businesses an hour from one address.
 */
export async function signup(input: SignupInput, ip: string): Promise<{ tenantId: string; userId: string }> {
  assertPasswordNotCommon(input.password);
  const limit = RULES.signupIp();
  const wait = await countFailure(limit, ip);
  if (wait > 0) throw rateLimited(wait, "Too many new accounts from this network. Try again later.");
  const passwordHash = await hashPassword(input.password);
  // The tenant id is chosen here so the new rows are written inside their own tenant scope.
  const tenantId = randomUUID();
  return inTenant(tenantId, async (t) => {
    if (!(await one(`SELECT 1 FROM pg_timezone_names WHERE name = $1`, [input.timeZone], t))) {
      throw validationFailed({ timeZone: ["This time zone is not supported."] });
    }
    await one(
      `INSERT INTO tenants (id, name, time_zone) VALUES ($1, $2, $3)`,
      [tenantId, input.businessName, input.timeZone],
      t,
    );
    const user = await one<{ id: string }>(
      `INSERT INTO users (tenant_id, email, name, role, password_hash) VALUES ($1, $2, $3, 'owner', $4) RETURNING id`,
      [tenantId, input.email, input.name, passwordHash],
      t,
    );
    await addLoginEmails(tenantId, [{ id: user!.id, email: input.email }], t);
    return { tenantId, userId: user!.id };
  });
}

export const LOGIN_FAILED = "The email or password is not right.";

/** A business the password opened: sign-in asks which one when there are several. */
export type LoginChoice = { tenantId: string; userId: string; tenantName: string };

/**
 * Checks a sign-in and answers every user row (one per business) the password opens.
 * Unknown email and wrong password take the same time and give the same answer.
 *
 * Lockout without denial of service (OWASP device cookies, docs/decisions/101): a browser that
 * signed in to this e-mail before (`trustedDevice`, the nonce of its signed device cookie) is
 * counted on its own (10 failures lock that browser for 15 minutes) and is not held back by the
 * failures of other browsers. Every other browser is counted per e-mail+IP (10 in a row lock the
 * pair for 15 minutes) and per account (100 an hour lock all untrusted browsers out). The
 * counters live in PostgreSQL.
 */
export async function login(
  email: string,
  password: string,
  ip: string,
  trustedDevice: string | null,
): Promise<LoginChoice[]> {
  const pairKey = `${email}|${ip}`;
  const pair = RULES.loginPair();
  const account = RULES.loginAccount();
  const device = RULES.loginDevice();
  const wait = trustedDevice
    ? await blockedFor(device, `${email}|${trustedDevice}`)
    : Math.max(await blockedFor(pair, pairKey), await blockedFor(account, email));
  if (wait > 0) throw rateLimited(wait, "Too many failed sign-in attempts. Try again later.");

  // Sign-in is the one lookup by e-mail across tenants (SECURITY DEFINER, migration 0010).
  const found = await rows<{ id: string; tenant_id: string; password_hash: string | null; tenant_name: string }>(
    `SELECT id, tenant_id, password_hash, tenant_name FROM app_login_lookup($1) ORDER BY tenant_name, tenant_id`,
    [email],
  );
  const withPassword = found.filter((u) => u.password_hash);
  // The verifications run side by side; with no user row one decoy verify takes their time.
  const matches = withPassword.length
    ? (
        await Promise.all(withPassword.map(async (u) => ((await verifyPassword(u.password_hash, password)) ? u : null)))
      ).filter((u) => u !== null)
    : (await verifyPassword(null, password), []);
  if (matches.length) {
    await resetKey(trustedDevice ? device : pair, trustedDevice ? `${email}|${trustedDevice}` : pairKey);
    return matches.map((u) => ({ tenantId: u.tenant_id, userId: u.id, tenantName: u.tenant_name }));
  }
  // The 10th failure in a row locks for 15 minutes from now (not from the first failure).
  const [limiter, key] = trustedDevice ? [device, `${email}|${trustedDevice}`] : [pair, pairKey];
  await countFailure(limiter, key);
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0) await limiter.block(key, 15 * 60);
  if (!trustedDevice) await countFailure(account, email);
  throw new AppError("UNAUTHENTICATED", LOGIN_FAILED, { status: 401 });
}
