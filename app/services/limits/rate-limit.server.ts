import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { db } from "../../../db/index";
import { AppError } from "~/utils/app-error";

type Limiter = RateLimiterPostgres;
const limiters = new Map<string, Limiter>();

/**
 * Counters live in PostgreSQL (table rate_limits) so every app server shares them and a
 * restart forgets nothing. One limiter per rule, created on first use.
 */
function limiter(name: string, points: number, durationSeconds: number, blockSeconds = 0): Limiter {
  let l = limiters.get(name);
  if (!l) {
    l = new RateLimiterPostgres({
      storeClient: db(),
      storeType: "sequelize",
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: name,
      points,
      duration: durationSeconds,
      blockDuration: blockSeconds,
    });
    limiters.set(name, l);
  }
  return l;
}

/** The request limits: per sign-in, per session and per tenant (docs/decisions/). */
export const RULES = {
  loginPair: () => limiter("login_pair", 10, 15 * 60, 15 * 60),
  /** Failures from browsers not known to the account (OWASP device cookies: docs/decisions/101). */
  loginAccount: () => limiter("login_account", 100, 60 * 60),
  /** Failures from one browser that signed in to the account before: it alone is slowed. */
  loginDevice: () => limiter("login_device", 10, 15 * 60, 15 * 60),
  /** New businesses per address: a signup flood cannot fill the database. */
  signupIp: () => limiter("signup_ip", 30, 60 * 60),
  portalBadToken: () => limiter("portal_bad_token", 30, 10 * 60),
};

export const rateLimited = (retryAfterSeconds: number, message = "Too many attempts. Try again later.") =>
  new AppError("RATE_LIMITED", message, {
    headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/** Seconds until the key may try again, or 0 when it is not over the limit. */
export async function blockedFor(l: Limiter, key: string): Promise<number> {
  const res = await l.get(key);
  if (!res) return 0;
  return res.remainingPoints <= 0 ? res.msBeforeNext / 1000 : 0;
}

/** Counts one failure; returns the seconds to wait when this failure went over the limit. */
export async function countFailure(l: Limiter, key: string): Promise<number> {
  try {
    await l.consume(key, 1);
    return 0;
  } catch (res) {
    if (res instanceof RateLimiterRes) return res.msBeforeNext / 1000;
    throw res;
  }
}

export async function resetKey(l: Limiter, key: string) {
  await l.delete(key);
}
