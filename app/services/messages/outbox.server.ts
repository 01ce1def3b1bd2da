// The transactional outbox (docs/decisions/140): a command that tells someone of its effect
// writes the e-mail with `queueMessage(t, ...)` inside its own transaction, so the message
// exists exactly when the effect does. The worker (worker.server.ts) delivers it.
import { randomUUID } from "node:crypto";
import { inTenant, one, rows, type Tx } from "../../../db/index";
import { Tenant } from "../../../db/models";
import type { MessageKind, MessageStatus, RecordType } from "../../../db/enums";
import type { Actor } from "~/services/accounts/actor";
import { mailMode, messageIdDomain, type MailMode } from "./config.server";
import { withLink } from "./links.server";
import type { Business } from "./templates.server";
import { DEFAULT_BRAND_COLOR } from "~/services/company/schemas";
import { emailLogo, logoMetaIn } from "~/services/company/logo.server";

export type NewMessage = {
  tenantId: string;
  kind: MessageKind;
  to: { address: string; name?: string | null };
  subject: string;
  html: string;
  text: string;
  /** The business's name, shown as the sender; replies go to the company e-mail. */
  business: Business;
  record?: { type: RecordType; id: string };
  /** What the bodies' {{link}} stands for (links.server.ts). */
  linkRef?: string | null;
  /** For "once" messages (reminders): a second row with the same key is not written. */
  dedupeKey?: string;
  createdBy?: string | null;
  /**
   * For automatic reminders: the signed one-click unsubscribe URL the `List-Unsubscribe` and
   * `List-Unsubscribe-Post` headers name (RFC 8058, docs/decisions/341).
   */
  listUnsubscribe?: string | null;
};

export type Queued = { id: string; status: MessageStatus } | null;

/** Wakes this server's worker once the transaction that queued a message has committed. */
export function wakeWorker() {
  (globalThis as { __messagesWake?: () => void }).__messagesWake?.();
}

/**
 * Writes one e-mail in the caller's transaction. Null when e-mail is off (production without
 * SMTP_URL) or when a message with the same dedupe key exists; in development without
 * SMTP_URL the row is kept in the local outbox (`local`) instead of being queued.
 */
export async function queueMessage(t: Tx, m: NewMessage, mode: MailMode = mailMode()): Promise<Queued> {
  if (mode === "off") return null;
  const id = randomUUID();
  const status: MessageStatus = mode === "smtp" ? "queued" : "local";
  // Raw SQL for ON CONFLICT DO NOTHING: a reminder's key already used writes nothing (and
  // does not abort the caller's transaction as a failed model insert would).
  const row = await one<{ id: string }>(
    `INSERT INTO messages (tenant_id, id, kind, status, to_address, to_name, reply_to, from_name, subject, text_body, html_body,
                           message_id, record_type, record_id, dedupe_key, created_by, link_ref, list_unsubscribe)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
     ON CONFLICT DO NOTHING RETURNING id`,
    [
      m.tenantId,
      id,
      m.kind,
      status,
      m.to.address.trim().toLowerCase(),
      m.to.name ?? null,
      m.business.email ?? null,
      m.business.name.slice(0, 200),
      m.subject.slice(0, 300),
      m.text,
      m.html,
      `<${id}@${messageIdDomain()}>`,
      m.record?.type ?? null,
      m.record?.id ?? null,
      m.dedupeKey ?? null,
      m.createdBy ?? null,
      m.linkRef ?? null,
      m.listUnsubscribe ?? null,
    ],
    t,
  );
  if (!row) return null;
  if (status === "queued") t.afterCommit(() => wakeWorker());
  return { id: row.id, status };
}

/** The business as its messages show it (company settings). */
export async function businessOf(t: Tx, tenantId: string): Promise<Business> {
  const tenant = await Tenant.findOne({
    where: { id: tenantId },
    attributes: ["name", "email", "phone", "address", "brandColor"],
    transaction: t,
  });
  const logo = await logoMetaIn(t, tenantId);
  return {
    name: tenant?.name ?? "Fieldwork",
    email: tenant?.email ?? null,
    phone: tenant?.phone ?? null,
    address: tenant?.address ?? null,
    color: tenant?.brandColor ?? DEFAULT_BRAND_COLOR,
    logo: logo ? emailLogo(tenantId, logo) : null,
  };
}

export type MessageLine = {
  id: string;
  kind: MessageKind;
  status: MessageStatus;
  to: string;
  subject: string;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  smtpResponse: string | null;
  lastError: string | null;
  nextAttemptAt: string;
};

const LINE = `id, kind, status, to_address AS "to", subject, attempts, created_at AS "createdAt", sent_at AS "sentAt",
  smtp_response AS "smtpResponse", last_error AS "lastError", next_attempt_at AS "nextAttemptAt"`;

/** The latest e-mail about a record (the quote page says whether it went out). */
export async function latestMessageFor(actor: Actor, type: RecordType, id: string): Promise<MessageLine | null> {
  return inTenant(
    actor.tenantId,
    async (t) =>
      (await one<MessageLine>(
        `SELECT ${LINE} FROM messages WHERE tenant_id = $1 AND record_type = $2 AND record_id = $3 ORDER BY created_at DESC, id LIMIT 1`,
        [actor.tenantId, type, id],
        t,
      )) ?? null,
  );
}

export type OutboxMessage = MessageLine & {
  toName: string | null;
  fromName: string;
  replyTo: string | null;
  messageId: string;
  text: string;
  html: string;
};
type OutboxRow = OutboxMessage & { linkRef: string | null };

/** The outbox page: the tenant's latest messages, newest first, with what the customer reads. */
export async function outboxPage(actor: Actor, opts: { page: number; perPage?: number }) {
  const perPage = opts.perPage ?? 20;
  return inTenant(actor.tenantId, async (t) => {
    const total = (await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1`,
      [actor.tenantId],
      t,
    ))!.n;
    const list = await rows<OutboxRow>(
      `SELECT ${LINE}, to_name AS "toName", from_name AS "fromName", reply_to AS "replyTo", message_id AS "messageId",
              text_body AS text, html_body AS html, link_ref AS "linkRef"
         FROM messages WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [actor.tenantId, perPage, (Math.max(1, opts.page) - 1) * perPage],
      t,
    );
    // Shown as sent: with the link put in (the owner and admin may see portal and invite links).
    const messages: OutboxMessage[] = list.map(({ linkRef, ...m }) => ({
      ...m,
      text: withLink(m.text, actor.tenantId, linkRef) ?? m.text,
      html: withLink(m.html, actor.tenantId, linkRef) ?? m.html,
    }));
    return { total, perPage, page: Math.max(1, opts.page), messages };
  });
}
