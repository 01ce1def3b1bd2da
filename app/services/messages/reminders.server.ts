// Automatic reminders (docs/decisions/143): quote follow-ups, invoice reminders
// before and after the due date, visit reminders the day before. Each app server ticks; a
// tick asks the database for the reminders due whose key has no message yet
// (app_reminders_due, migration 0051) and writes each in its tenant's transaction with that
// key, so a reminder is written once whatever the number of servers or ticks (the key's
// unique index settles a race: the second insert writes nothing).
import { inTenant, one, rows, type Tx } from "../../../db/index";
import type { RecordType } from "../../../db/enums";
import { env, type Env } from "~/utils/env.server";
import { recordHistory } from "~/services/history/history.server";
import { notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { signIdToken } from "~/utils/signed-ids.server";
import { livePortalLink } from "~/services/quotes/quotes.server";
import { formatDate, formatDateTime, formatMoney } from "~/utils/format";
import { log } from "~/utils/log.server";
import { mailMode } from "./config.server";
import { LINK_PLACEHOLDER, portalLinkRef } from "./links.server";
import { emailLogo, logoMetaIn } from "~/services/company/logo.server";
import { queueMessage } from "./outbox.server";
import { renderEmail, type Business } from "./templates.server";
import { firstNames, visitWindow } from "~/utils/visit-window";
import { addressSql } from "~/services/records/sql.server";

// record_type is one of invoice, quote, job (the due query's three kinds).
type Due = {
  tenant_id: string;
  record_type: Extract<RecordType, "invoice" | "job"> | "quote";
  record_id: string;
  reminder: "invoice_before" | "invoice_after" | "quote_follow_up" | "visit";
  dedupe_key: string;
};

export const unsubscribeUrl = (tenantId: string, customerId: string) =>
  `${env().APP_URL}/unsubscribe/${signIdToken("unsubscribe", tenantId, customerId)}`;

type Row = {
  customer_id: string;
  name: string;
  email: string | null;
  auto_reminders: boolean;
  b_name: string;
  b_email: string | null;
  b_phone: string | null;
  b_address: string | null;
  b_color: string;
  time_zone: string;
  link_id: string | null;
};

/**
 * A visit of the job, still scheduled, with where it is (the job's address, else its property's,
 * else the customer's) and its crew's names in the order they were assigned.
 */
async function visitOf(tenantId: string, jobId: string, visitId: string | undefined, t: Tx) {
  if (!visitId || !isUuid(visitId)) return null;
  return one<{ starts_at: Date; ends_at: Date | null; address: string | null; crew: string[] | null }>(
    `SELECT v.starts_at, v.ends_at,
            coalesce(j.address, ${addressSql("p")}, ${addressSql("c")}) AS address,
            (SELECT array_agg(u.name ORDER BY a.created_at, u.id) FROM visit_assignees a
               JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
              WHERE a.tenant_id = v.tenant_id AND a.visit_id = v.id) AS crew
       FROM visits v JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
       JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
       LEFT JOIN customer_properties p ON p.tenant_id = j.tenant_id AND p.id = j.property_id
      WHERE v.tenant_id = $1 AND v.job_id = $2 AND v.id = $3 AND v.status = 'scheduled'`,
    [tenantId, jobId, visitId],
    t,
  );
}

/** Writes one due reminder; true when it was written (false: already written, or opted out meanwhile). */
async function queueReminder(d: Due): Promise<boolean> {
  return inTenant(d.tenant_id, async (t) => {
    const columns = {
      invoice: `customer_id, number, total_cents, amount_paid_cents, currency, due_date::text AS due_date FROM invoices`,
      quote: `customer_id, number, title, total_cents, currency FROM quotes`,
      job: `customer_id, title FROM jobs`,
    }[d.record_type];
    const doc = await one<Record<string, string | number | null>>(
      `SELECT ${columns} WHERE tenant_id = $1 AND id = $2`,
      [d.tenant_id, d.record_id],
      t,
    );
    // A visit reminder's key names its visit ("visit:<job>:<visit>:<day>", app_reminders_due).
    const visit =
      d.reminder === "visit" ? await visitOf(d.tenant_id, d.record_id, d.dedupe_key.split(":")[2], t) : null;
    if (d.reminder === "visit" && !visit) return false;
    if (!doc) return false;
    // The customer row is read again here: one who opted out since the query is not written to.
    // Locked for update: two reminder passes at once (two servers) take a customer's turn one
    // after the other, so the second finds the portal link the first made instead of making
    // another.
    // The link in a statement of its own: Citus refuses FOR SHARE with a subquery in the list
    // (docs/decisions/228-citus-run.md).
    const customer = await one<Omit<Row, "link_id">>(
      `SELECT c.id AS customer_id, c.name, c.email, c.auto_reminders, tn.name AS b_name, tn.email AS b_email, tn.phone AS b_phone, tn.address AS b_address, tn.brand_color AS b_color, tn.time_zone
         FROM customers c JOIN tenants tn ON tn.id = c.tenant_id WHERE c.tenant_id = $1 AND tn.id = $1 AND c.id = $2 FOR NO KEY UPDATE OF c`,
      [d.tenant_id, doc.customer_id],
      t,
    );
    if (!customer?.email || !customer.auto_reminders) return false;
    // A reminder that asks the customer to pay or approve carries a portal link that works:
    // theirs when it has a day left, else a new one made here, in the reminder's transaction
    // (docs/decisions/341). A visit reminder links the customer's page only when they have one.
    const link =
      d.record_type === "invoice" || d.record_type === "quote"
        ? { id: await livePortalLink(t, { tenantId: d.tenant_id, userId: null }, customer.customer_id) }
        : await one<{ id: string }>(
            `SELECT p.id FROM portal_links p WHERE p.tenant_id = $1 AND p.customer_id = $2 AND p.revoked_at IS NULL AND p.expires_at > now()
              ORDER BY p.expires_at DESC LIMIT 1`,
            [d.tenant_id, customer.customer_id],
            t,
          );
    const ctx = { ...customer, email: customer.email, link_id: link?.id ?? null };
    const business: Business = {
      name: ctx.b_name,
      email: ctx.b_email,
      phone: ctx.b_phone,
      address: ctx.b_address,
      color: ctx.b_color,
      logo: null,
    };
    const logo = await logoMetaIn(t, d.tenant_id);
    if (logo) business.logo = emailLogo(d.tenant_id, logo);
    const first = ctx.name.trim().split(/\s+/)[0] || "there";
    const action = ctx.link_id
      ? {
          label:
            d.record_type === "invoice"
              ? "View and pay"
              : d.record_type === "quote"
                ? "Review and approve"
                : "Open your page",
          url: LINK_PLACEHOLDER,
        }
      : undefined;
    let subject: string;
    let paragraphs: string[];
    let facts: Array<[string, string]> = [];
    if (d.record_type === "invoice") {
      const balance = formatMoney(Number(doc.total_cents) - Number(doc.amount_paid_cents), String(doc.currency).trim());
      const due = formatDate(String(doc.due_date));
      subject =
        d.reminder === "invoice_before"
          ? `Reminder: invoice ${doc.number} is due ${due}`
          : `Overdue: invoice ${doc.number} was due ${due}`;
      paragraphs = [
        d.reminder === "invoice_before"
          ? `A friendly reminder that invoice ${doc.number} is due on ${due}.`
          : `Our records show invoice ${doc.number} was due on ${due} and still has a balance.`,
        "If you have already paid, thank you, and please ignore this message.",
      ];
      facts = [
        ["Invoice", String(doc.number)],
        ["Balance due", balance],
        ["Due", due],
      ];
    } else if (d.record_type === "quote") {
      subject = `Following up on quote ${doc.number}`;
      paragraphs = [
        `We sent you quote ${doc.number}${doc.title ? ` for ${doc.title}` : ""} and wanted to check whether you have any questions.`,
        "You can review and approve it online.",
      ];
      facts = [
        ["Quote", String(doc.number)],
        ["Total", formatMoney(Number(doc.total_cents), String(doc.currency).trim())],
      ];
    } else {
      const v = visit!;
      const when = visitWindow(v.starts_at, v.ends_at, ctx.time_zone);
      const crew = firstNames(v.crew ?? []);
      subject = `Reminder: your visit ${formatDateTime(v.starts_at, ctx.time_zone)}`;
      paragraphs = [
        `This is a reminder of our visit tomorrow: ${doc.title}.`,
        `We will be there ${when}${v.address ? ` at ${v.address}` : ""}.`,
        ...(crew ? [`${(v.crew ?? []).length > 1 ? "Your technicians are" : "Your technician is"} ${crew}.`] : []),
      ];
      facts = [
        ["When", when],
        ...(v.address ? ([["Address", v.address]] as Array<[string, string]>) : []),
        ...(crew
          ? ([[(v.crew ?? []).length > 1 ? "Technicians" : "Technician", crew]] as Array<[string, string]>)
          : []),
      ];
    }
    const unsubscribe = unsubscribeUrl(d.tenant_id, ctx.customer_id);
    const { html, text } = renderEmail({
      business,
      preview: subject,
      greeting: `Hi ${first},`,
      paragraphs,
      facts,
      action,
      footer: "You receive automatic reminders from us.",
      unsubscribeUrl: unsubscribe,
    });
    const queued = await queueMessage(t, {
      tenantId: d.tenant_id,
      kind: "reminder",
      to: { address: ctx.email, name: ctx.name },
      subject,
      html,
      text,
      business,
      record: { type: d.record_type, id: d.record_id },
      dedupeKey: d.dedupe_key,
      linkRef: ctx.link_id ? portalLinkRef(ctx.link_id) : null,
      listUnsubscribe: unsubscribe,
    });
    return queued !== null;
  });
}

/** One pass: every due reminder (up to `limit`) written once; how many were written. */
export async function runReminders(limit = 500): Promise<number> {
  if (mailMode() === "off") return 0;
  const due = await rows<Due>(`SELECT * FROM app_reminders_due($1)`, [limit]);
  let written = 0;
  for (const d of due) {
    try {
      if (await queueReminder(d)) written++;
    } catch (error) {
      log.error("reminders: one could not be written", { key: d.dedupe_key, error: String(error) });
    }
  }
  if (written) log.info("reminders", { written });
  return written;
}

/** Starts this server's ticks (REMINDERS_INTERVAL_MS, default a minute; 0 turns them off here). */
export function startReminderSchedule(source: Pick<Env, "REMINDERS_INTERVAL_MS"> = env()) {
  const g = globalThis as { __remindersTimer?: NodeJS.Timeout };
  if (g.__remindersTimer) return;
  const intervalMs = source.REMINDERS_INTERVAL_MS;
  if (!(intervalMs > 0) || mailMode() === "off") return;
  let running = false;
  g.__remindersTimer = setInterval(() => {
    if (running) return;
    running = true;
    runReminders()
      .catch((error) => log.error("reminders failed", { error: String(error) }))
      .finally(() => (running = false));
  }, intervalMs);
  g.__remindersTimer.unref();
}

/** The unsubscribe link's effect: this customer gets no more automatic reminders. */
export async function stopReminders(tenantId: string, customerId: string): Promise<{ business: string } | null> {
  return inTenant(tenantId, async (t) => {
    const row = await one<{ name: string }>(
      `UPDATE customers c SET auto_reminders = false FROM tenants tn WHERE tn.id = c.tenant_id AND c.tenant_id = $1 AND c.id = $2 RETURNING tn.name`,
      [tenantId, customerId],
      t,
    );
    return row ? { business: row.name } : null;
  });
}

/** What the unsubscribe page names: the business, and whether reminders are on. */
export async function reminderState(
  tenantId: string,
  customerId: string,
): Promise<{ business: string; on: boolean } | null> {
  return inTenant(tenantId, async (t) => {
    const row = await one<{ name: string; on: boolean }>(
      `SELECT tn.name, c.auto_reminders AS on FROM customers c JOIN tenants tn ON tn.id = c.tenant_id WHERE c.tenant_id = $1 AND c.id = $2`,
      [tenantId, customerId],
      t,
    );
    return row ? { business: row.name, on: row.on } : null;
  });
}

/** The office turns a customer's automatic reminders on or off (the customer page). 404 for an unknown id. */
export async function setAutoReminders(actor: Actor, customerId: string, on: boolean): Promise<void> {
  if (!isUuid(customerId)) throw notFound("Customer not found.");
  await inTenant(actor.tenantId, async (t) => {
    const row = await one<{ name: string }>(
      `UPDATE customers SET auto_reminders = $3 WHERE tenant_id = $1 AND id = $2 RETURNING name`,
      [actor.tenantId, customerId, on],
      t,
    );
    if (!row) throw notFound("Customer not found.");
    await recordHistory(t, actor, {
      recordType: "customer",
      recordId: customerId,
      action: on ? "reminders_on" : "reminders_off",
      summary: on ? "Automatic reminders turned on" : "Automatic reminders turned off",
    });
  });
}
