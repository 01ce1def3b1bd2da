import { inTenant, one, type Tx } from "../../../db/index";
import { countFailure, rateLimited, RULES } from "~/services/limits/rate-limit.server";
import { AppError } from "~/utils/app-error";
import { verifyPortalToken } from "./links.server";

/** An open portal: the link a valid token names, its customer and the business. */
export type Portal = {
  token: string;
  tenantId: string;
  linkId: string;
  customerId: string;
  tenantName: string;
  timeZone: string;
  linkExpiresAt: Date;
  /** Today in the business's time zone (YYYY-MM-DD): quotes expire and visits are booked by its calendar. */
  today: string;
};

const forged = () =>
  new AppError(
    "NOT_FOUND",
    "Check that you opened the whole link from your email or text message. If it still does not open, ask the business that sent it for a new link.",
  );
const gone = (business: string) =>
  new AppError("GONE", `This link has expired or was turned off. Please ask ${business} to send you a new link.`);
const tooMany = (seconds: number) =>
  rateLimited(
    seconds,
    "Too many links that do not work were opened from your network. Please wait a few minutes and try again.",
  );

/**
 * Opens the portal a token names and runs `fn` in ONE transaction of its tenant, so a write
 * and its state checks see the link as it is (a write takes `lock`: a share lock on the link
 * row, so a revoke waits for it). Forged, tampered, expired and revoked tokens answer 404 /
 * 410 and count against the caller's IP; over 30 in 10 minutes they answer 429. Only failures
 * are counted and limited: the signature is checked first (an HMAC compared in constant time,
 * no database), so a valid link still opens from an office whose shared address went over the
 * limit, and a guessed token cannot pass for a valid one (docs/decisions/022).
 */
export async function withPortal<T>(
  token: string,
  ip: string,
  fn: (portal: Portal, t: Tx) => Promise<T>,
  opts: { lock?: boolean } = {},
): Promise<T> {
  let badLink: AppError | null = null;
  try {
    const claims = verifyPortalToken(token);
    if (!claims) throw (badLink = forged());
    return await inTenant(claims.tenantId, async (t) => {
      // Raw SQL on purpose: every portal request opens with this, so the link, its business
      // and "today" in the business's zone come in one round trip, judged on the database's
      // clock (the same clock that wrote expires_at); two model reads would double it.
      const link = await one<{
        customer_id: string;
        expires_at: Date;
        usable: boolean;
        name: string;
        time_zone: string;
        today: string;
      }>(
        `SELECT pl.customer_id, pl.expires_at, (pl.revoked_at IS NULL AND pl.expires_at > now()) AS usable,
                tn.name, tn.time_zone, (now() AT TIME ZONE tn.time_zone)::date::text AS today
           FROM portal_links pl JOIN tenants tn ON tn.id = $1
          WHERE pl.tenant_id = $1 AND pl.id = $2 ${opts.lock ? "FOR SHARE OF pl" : ""}`,
        [claims.tenantId, claims.linkId],
        t,
      );
      if (!link) throw (badLink = forged());
      if (!link.usable) throw (badLink = gone(link.name));
      const portal: Portal = {
        token,
        tenantId: claims.tenantId,
        linkId: claims.linkId,
        customerId: link.customer_id,
        tenantName: link.name,
        timeZone: link.time_zone,
        linkExpiresAt: link.expires_at,
        today: link.today,
      };
      return fn(portal, t);
    });
  } catch (error) {
    if (error === badLink) {
      // Past the limit the count goes on, and the answer is 429 until the window ends.
      const over = await countFailure(RULES.portalBadToken(), ip);
      if (over > 0) throw tooMany(over);
    }
    throw error;
  }
}
