// The one link in a message that opens something (a portal, an invite) is never stored in the
// outbox: the database holds no portal token and no invite secret (docs/decisions/023, 012).
// A message's bodies hold LINK_PLACEHOLDER and the row a `link_ref`: `portal:<link id>` (the
// token is signed again when the message is sent: it is a signature over the id) or
// `sealed:<AES-256-GCM of the URL>` for an invite, whose secret exists nowhere else; the key
// comes from SESSION_SECRET (each secret of a rotation list is tried).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { portalUrl, signPortalToken } from "~/services/portal/links.server";
import { env } from "~/utils/env.server";

export const LINK_PLACEHOLDER = "{{link}}";

const keyOf = (secret: string) => createHash("sha256").update(`message-link:${secret}`).digest();

export const portalLinkRef = (linkId: string) => `portal:${linkId}`;

/** A secret URL sealed for the outbox (only this app's secrets open it). */
export function sealedLinkRef(url: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(env().SESSION_SECRET[0]), iv);
  const body = Buffer.concat([cipher.update(url, "utf8"), cipher.final()]);
  return `sealed:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

/** The URL a link_ref stands for; null when it cannot be opened (a secret rotated away). */
export function resolveLink(tenantId: string, ref: string | null): string | null {
  if (!ref) return null;
  if (ref.startsWith("portal:")) return portalUrl(signPortalToken(tenantId, ref.slice(7)));
  if (ref.startsWith("sealed:")) {
    const raw = Buffer.from(ref.slice(7), "base64url");
    for (const secret of env().SESSION_SECRET) {
      try {
        const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        // the next secret of the rotation list
      }
    }
  }
  return null;
}

/** The bodies with their link put in (what is sent, and what the outbox page shows). */
export function withLink(body: string, tenantId: string, ref: string | null): string | null {
  if (!body.includes(LINK_PLACEHOLDER)) return body;
  const url = resolveLink(tenantId, ref);
  return url === null ? null : body.replaceAll(LINK_PLACEHOLDER, url);
}
