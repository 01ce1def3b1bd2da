import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");
export const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");
export const hmac = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("base64url");

/** Constant-time string comparison (false on different lengths without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export { UUID_RE, isUuid } from "../../db/ids";
