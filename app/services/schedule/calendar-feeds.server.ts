import ical, { ICalEventStatus } from "ical-generator";
import { Op } from "sequelize";
import { inTenant, rows } from "../../../db/index";
import { CalendarFeed, Tenant, User } from "../../../db/models/index";
import { forbidden, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { can, mayManageMember, type Role } from "~/utils/permissions";
import { signIdToken, verifyIdToken } from "~/utils/signed-ids.server";
import { addressSql } from "~/services/records/sql.server";

// Calendar feeds (docs/decisions/133): a member subscribes to their jobs
// in Google Calendar, Outlook or Apple Calendar with `APP_URL/calendar/<token>.ics`. The token
// is signed over (tenant, feed id) like a portal token; the row says whose jobs and whether it
// still works. A member makes and revokes their own; an owner or admin (manage_team) those of
// members at or below their own role (an admin never reaches an owner's link).

/** The feed covers jobs starting from 30 days back to 90 days ahead. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 90;
/** A job without an end is one hour long in a calendar, as on the board. */
const DEFAULT_MINUTES = 60;

export const feedUrl = (tenantId: string, feedId: string) =>
  `${env().APP_URL}/calendar/${signIdToken("calendar", tenantId, feedId)}.ics`;

export type FeedView = { id: string; url: string; createdAt: string; createdByName: string | null };
export type MemberFeed = { userId: string; name: string; role: string; feed: FeedView | null };

function mayManageFeedOf(actor: Actor, member: { id: string; role: Role }) {
  return actor.userId === member.id || (can(actor.role, "manage_team") && mayManageMember(actor.role, member.role));
}

/**
 * The feeds the settings page shows: the member's own, and for an owner or admin every
 * member's (technicians first), each with its live link if it has one.
 */
export async function feedsFor(actor: Actor): Promise<{ own: MemberFeed; team: MemberFeed[] | null }> {
  const all = can(actor.role, "manage_team");
  return inTenant(actor.tenantId, async (t) => {
    const members = await User.findAll({
      where: all ? { tenantId: actor.tenantId } : { tenantId: actor.tenantId, id: actor.userId },
      attributes: ["id", "name", "role"],
      order: [
        ["name", "ASC"],
        ["id", "ASC"],
      ],
      limit: 500,
      transaction: t,
    });
    const feeds = await CalendarFeed.findAll({
      where: { tenantId: actor.tenantId, revokedAt: null, userId: { [Op.in]: members.map((m) => m.id) } },
      transaction: t,
    });
    const creators = await User.findAll({
      where: { tenantId: actor.tenantId, id: { [Op.in]: [...new Set(feeds.map((f) => f.createdBy))] } },
      attributes: ["id", "name"],
      transaction: t,
    });
    const byUser = new Map(feeds.map((f) => [f.userId, f]));
    const nameOf = new Map(creators.map((c) => [c.id, c.name]));
    const view = (m: User): MemberFeed => {
      const f = byUser.get(m.id);
      return {
        userId: m.id,
        name: m.name,
        role: m.role,
        feed: f
          ? {
              id: f.id,
              url: feedUrl(actor.tenantId, f.id),
              createdAt: f.createdAt.toISOString(),
              createdByName: nameOf.get(f.createdBy) ?? null,
            }
          : null,
      };
    };
    const own = members.find((m) => m.id === actor.userId);
    const reachable = members.filter((m) => mayManageFeedOf(actor, m));
    const team = all
      ? [...reachable.filter((m) => m.role === "technician"), ...reachable.filter((m) => m.role !== "technician")]
      : null;
    return {
      own: own ? view(own) : { userId: actor.userId, name: "", role: actor.role, feed: null },
      team: team && team.map(view),
    };
  });
}

/**
 * A new feed link for a member, replacing their live one (which stops working): one live
 * link per member, enforced by a unique index; the member's row is locked so two clicks at
 * once make one link after the other, never two live ones. Another tenant's member: 404.
 */
export async function createFeed(
  actor: Actor,
  userId: string,
): Promise<{ userId: string; name: string; url: string; replaced: boolean }> {
  if (!isUuid(userId)) throw notFound("Team member not found.");
  if (actor.userId !== userId && !can(actor.role, "manage_team"))
    throw forbidden("Only an owner or admin can make a calendar link for someone else.");
  return inTenant(actor.tenantId, async (t) => {
    const member = await User.findOne({
      where: { tenantId: actor.tenantId, id: userId },
      attributes: ["id", "name", "role"],
      lock: t.LOCK.UPDATE,
      transaction: t,
    });
    if (!member) throw notFound("Team member not found.");
    if (!mayManageFeedOf(actor, member)) throw forbidden("Only an owner can make a calendar link for an owner.");
    const [replaced] = await CalendarFeed.update(
      { revokedAt: new Date(), revokedBy: actor.userId },
      { where: { tenantId: actor.tenantId, userId, revokedAt: null }, transaction: t },
    );
    const feed = await CalendarFeed.create(
      { tenantId: actor.tenantId, userId, createdBy: actor.userId },
      { transaction: t },
    );
    return { userId, name: member.name, url: feedUrl(actor.tenantId, feed.id), replaced: replaced > 0 };
  });
}

/** Revokes a feed link: it answers 404 from then on. Someone else's feed, for a member who may not manage it, is "not found". */
export async function revokeFeed(actor: Actor, feedId: string): Promise<{ userId: string; name: string }> {
  if (!isUuid(feedId)) throw notFound("Calendar link not found.");
  return inTenant(actor.tenantId, async (t) => {
    const feed = await CalendarFeed.findOne({
      where: { tenantId: actor.tenantId, id: feedId },
      lock: t.LOCK.UPDATE,
      transaction: t,
    });
    const member =
      feed &&
      (await User.findOne({
        where: { tenantId: actor.tenantId, id: feed.userId },
        attributes: ["id", "name", "role"],
        transaction: t,
      }));
    if (!feed || !member || !mayManageFeedOf(actor, member)) throw notFound("Calendar link not found.");
    if (!feed.revokedAt) await feed.update({ revokedAt: new Date(), revokedBy: actor.userId }, { transaction: t });
    return { userId: feed.userId, name: member.name };
  });
}

/** The window's jobs of one member joined to their customers (`$1` tenant, `$2` member). */
const FEED_JOBS = `
  FROM jobs j JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
 WHERE j.tenant_id = $1 AND j.assignee_id = $2
   AND j.scheduled_start >= now() - interval '${FEED_DAYS_BACK} days' AND j.scheduled_start < now() + interval '${FEED_DAYS_AHEAD} days'`;
const FEED_ADDRESS = `coalesce(j.address, ${addressSql("c")})`;

/**
 * Rendered feeds kept in memory, keyed by feed id, each with the fingerprint of everything it was
 * made from (docs/decisions/183). Calendars poll every few minutes and ical-generator costs about
 * 0.2 ms per event, so a 500-job feed is rendered once per change instead of once per poll. Bounded
 * by total size; the least recently used go first.
 */
const rendered = new Map<string, { fingerprint: string; body: string }>();
const RENDERED_MAX_BYTES = 32 * 1024 * 1024;
let renderedBytes = 0;

function remember(feedId: string, fingerprint: string, body: string) {
  const old = rendered.get(feedId);
  if (old) {
    rendered.delete(feedId);
    renderedBytes -= old.body.length;
  }
  rendered.set(feedId, { fingerprint, body });
  renderedBytes += body.length;
  for (const [id, entry] of rendered) {
    if (renderedBytes <= RENDERED_MAX_BYTES) break;
    rendered.delete(id);
    renderedBytes -= entry.body.length;
  }
}

function recall(feedId: string, fingerprint: string): string | null {
  const entry = rendered.get(feedId);
  if (!entry || entry.fingerprint !== fingerprint) return null;
  rendered.delete(feedId); // most recently used last
  rendered.set(feedId, entry);
  return entry.body;
}

type FeedJob = {
  id: string;
  title: string;
  description: string | null;
  status: string;
  scheduled_start: Date;
  scheduled_end: Date | null;
  schedule_sequence: number;
  updated_at: Date;
  created_at: Date;
  address: string | null;
  customer_name: string;
  customer_phone: string | null;
};

/**
 * The iCalendar file of a feed token, or null when the token is forged, of another purpose,
 * or names a revoked or unknown feed (all "not found" alike). One VEVENT per job of the
 * member's that starts in the window, cancelled ones included as STATUS:CANCELLED so a
 * calendar that had them removes them; times in UTC; SEQUENCE counts the job's moves.
 */
export async function feedCalendar(token: string): Promise<string | null> {
  const ids = verifyIdToken("calendar", token);
  if (!ids) return null;
  return inTenant(ids.tenantId, async (t) => {
    const feed = await CalendarFeed.findOne({
      where: { tenantId: ids.tenantId, id: ids.rowId, revokedAt: null },
      attributes: ["userId"],
      transaction: t,
    });
    if (!feed) return null;
    const [tenant, member] = await Promise.all([
      Tenant.findByPk(ids.tenantId, { attributes: ["name"], transaction: t }),
      User.findOne({ where: { tenantId: ids.tenantId, id: feed.userId }, attributes: ["name"], transaction: t }),
    ]);
    const app = env().APP_URL;
    // The fingerprint of every value the file is made from, hashed in the database (one row back
    // instead of the window's rows): a renamed customer, a moved or cancelled job, a job entering
    // or leaving the window each change it. Set-based, so raw SQL.
    const [{ digest }] = await rows<{ digest: string | null }>(
      `SELECT md5(string_agg(json_build_array(j.id, j.title, j.description, j.status, j.scheduled_start, j.scheduled_end, j.schedule_sequence,
                                       j.updated_at, j.created_at, ${FEED_ADDRESS}, c.name, c.phone)::text, E'\\n' ORDER BY j.scheduled_start, j.id)) AS digest
       ${FEED_JOBS}`,
      [ids.tenantId, feed.userId],
      t,
    );
    const fingerprint = JSON.stringify([digest, tenant?.name, member?.name, app]);
    const known = recall(ids.rowId, fingerprint);
    if (known !== null) return known;
    // A window of one member's jobs joined to their customers: one set-based read.
    const jobs = await rows<FeedJob>(
      `SELECT j.id, j.title, j.description, j.status, j.scheduled_start, j.scheduled_end, j.schedule_sequence, j.updated_at, j.created_at,
              ${FEED_ADDRESS} AS address, c.name AS customer_name, c.phone AS customer_phone
       ${FEED_JOBS}
        ORDER BY j.scheduled_start, j.id`,
      [ids.tenantId, feed.userId],
      t,
    );
    const calendar = ical({
      name: `${member?.name ?? "Jobs"} · ${tenant?.name ?? "Fieldwork"}`,
      description: `Jobs assigned to ${member?.name ?? "this member"} at ${tenant?.name ?? "the business"}, from ${FEED_DAYS_BACK} days ago to ${FEED_DAYS_AHEAD} days ahead.`,
      prodId: { company: "Fieldwork", product: "Schedule", language: "EN" },
      // Calendars that honour it refresh the subscription every 15 minutes.
      ttl: 15 * 60,
    });
    for (const j of jobs) {
      const start = new Date(j.scheduled_start);
      const end = j.scheduled_end ? new Date(j.scheduled_end) : new Date(start.getTime() + DEFAULT_MINUTES * 60_000);
      const link = `${app}/jobs/${j.id}`;
      calendar.createEvent({
        id: `${j.id}@fieldwork`,
        start,
        end,
        stamp: new Date(j.updated_at),
        created: new Date(j.created_at),
        lastModified: new Date(j.updated_at),
        sequence: j.schedule_sequence,
        summary: `${j.title} – ${j.customer_name}`,
        location: j.address,
        description: [
          `Customer: ${j.customer_name}`,
          `Phone: ${j.customer_phone ?? "not on file"}`,
          `Job: ${link}`,
          j.description ? `\n${j.description}` : "",
        ]
          .filter(Boolean)
          .join("\n"),
        url: link,
        status: j.status === "cancelled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      });
    }
    // Every content line ends with CRLF (RFC 5545 3.1), the last one too; ical-generator
    // leaves the last line's off.
    const text = calendar.toString();
    const body = text.endsWith("\r\n") ? text : `${text}\r\n`;
    remember(ids.rowId, fingerprint, body);
    return body;
  });
}
