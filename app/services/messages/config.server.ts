// Where e-mail goes (docs/decisions/140): an SMTP server when SMTP_URL is set; else, in
// development and tests, the local outbox (/settings/messages); else (production) nowhere:
// the send actions say so and offer the copy / mailto fallback.
import { env, MAIL_FROM_PATTERN } from "~/utils/env.server";

export type MailMode = "smtp" | "local" | "off";

export function mailMode(): MailMode {
  const e = env();
  if (e.SMTP_URL) return "smtp";
  return e.NODE_ENV === "production" ? "off" : "local";
}

/** The address every message is sent from (MAIL_FROM, else no-reply at APP_URL's host), and its display name when given. */
export function mailFrom(): { address: string; name: string | null } {
  const e = env();
  const m = e.MAIL_FROM ? MAIL_FROM_PATTERN.exec(e.MAIL_FROM) : null;
  if (m) return { address: (m[2] ?? m[3]).toLowerCase(), name: m[1]?.trim() || null };
  const host = new URL(e.APP_URL).hostname;
  return { address: `no-reply@${host.includes(".") ? host : `${host}.localdomain`}`, name: null };
}

/** The right-hand side of every Message-ID: the sending domain. */
export const messageIdDomain = () => mailFrom().address.split("@")[1];
