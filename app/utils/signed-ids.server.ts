import { createHmac } from "node:crypto";
import { env } from "./env.server";
import { safeEqual } from "./crypto.server";

/**
 * Tokens that name a row: `<base64url(tenant id ‖ row id)>.<base64url(HMAC-SHA256)>` under
 * PORTAL_TOKEN_SECRET (a comma list rotates: the first signs, all verify). The HMAC covers a
 * purpose ("portal", "calendar"), so a token made for one kind of link never opens another.
 * Nothing secret is stored: the row says whether the link still works (revoked, expired).
 */
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const bytesUuid = (b: Buffer) => b.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
const sign = (secret: string, purpose: string, payload: string) =>
  createHmac("sha256", secret).update(`${purpose}|${payload}`).digest("base64url");

export type TokenPurpose = "portal" | "calendar" | "unsubscribe";

export function signIdToken(purpose: TokenPurpose, tenantId: string, rowId: string): string {
  const payload = Buffer.concat([uuidBytes(tenantId), uuidBytes(rowId)]).toString("base64url");
  return `${payload}.${sign(env().PORTAL_TOKEN_SECRET[0], purpose, payload)}`;
}

/** The ids a token names, or null for anything forged, tampered, malformed or of another purpose. */
export function verifyIdToken(purpose: TokenPurpose, token: string): { tenantId: string; rowId: string } | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  if (!env().PORTAL_TOKEN_SECRET.some((s) => safeEqual(signature, sign(s, purpose, payload)))) return null;
  const bytes = Buffer.from(payload, "base64url");
  if (bytes.length !== 32) return null;
  return { tenantId: bytesUuid(bytes.subarray(0, 16)), rowId: bytesUuid(bytes.subarray(16)) };
}
