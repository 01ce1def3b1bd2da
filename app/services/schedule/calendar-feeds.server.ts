import ical, { ICalEventStatus } from "ical-generator";
import { Op } from "sequelize";
import { inTenant, rows } from "../../../db/index";
import { CalendarFeed, User } from "../../../db/models/index";
import { forbidden, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { isUuid } from "~/utils/crypto.server";
import { env } from "~/utils/env.server";
import { can, mayManageMember, type Role } from "~/utils/permissions";
import { signIdToken, verifyIdToken } from "~/utils/signed-ids.server";
import { KeptBySize } from "~/utils/kept-by-size";
import { addressSql } from "~/services/records/sql.server";
import { BOARD_VERSION } from "~/services/schedule/board.server";

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

/**
 * The window's visits of one member (in the crew; `$1` tenant, `$2` member) joined to their jobs
 * and customers. `first_visit`: the job's earliest-made visit, whose event keeps the job's UID
 * (the UID the job's one time had before visits), so subscribed calendars keep their events.
 */
const FEED_JOBS = `
  FROM visit_assignees a
  JOIN visits v ON v.tenant_id = a.tenant_id AND v.id = a.visit_id
  JOIN jobs j ON j.tenant_id = v.tenant_id AND j.id = v.job_id
  JOIN customers c ON c.tenant_id = j.tenant_id AND c.id = j.customer_id
  CROSS JOIN LATERAL (
    SELECT f.id = v.id AS first_visit FROM visits f WHERE f.tenant_id = v.tenant_id AND f.job_id = v.job_id
     ORDER BY f.created_at, f.id LIMIT 1) fv
  CROSS JOIN LATERAL (
    SELECT string_agg(u.name, ', ' ORDER BY m.created_at, u.id) AS crew, count(*)::int AS crew_size
      FROM visit_assignees m JOIN users u ON u.tenant_id = m.tenant_id AND u.id = m.user_id
     WHERE m.tenant_id = v.tenant_id AND m.visit_id = v.id) cr
 WHERE a.tenant_id = $1 AND a.user_id = $2
   AND v.starts_at >= now() - interval '${FEED_DAYS_BACK} days' AND v.starts_at < now() + interval '${FEED_DAYS_AHEAD} days'`;
const FEED_ADDRESS = `coalesce(j.address, ${addressSql("c")})`;

/**
 * Rendered feeds kept in memory as UTF-8 bytes, under the feed's id and the fingerprint of what the
 * file was made from (docs/decisions/183, 514). Calendars poll every few minutes and ical-generator costs
 * about 0.2 ms per event, so a 500-job feed is rendered once per change instead of once per poll.
 * The fingerprint is the tenant's board version (every committed write to visits, crews, jobs and
 * customers moves it), the names of the tenant's members (crews and the calendar's name), the
 * tenant's name, the app's address and the hour (the window's ends move with the clock: a visit
 * leaves the window's far ends up to an hour late). Reading it costs one short statement, not the
 * window's rows. A changed feed's older file ages out: up to a total size, the least recently used first.
 */
const rendered = new KeptBySize<Uint8Array<ArrayBuffer>>(32 * 1024 * 1024, (body) => body.byteLength);

type FeedJob = {
  id: string;
  visit_id: string;
  first_visit: boolean;
  crew: string | null;
  crew_size: number;
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
 * or names a revoked or unknown feed (all "not found" alike). One VEVENT per visit whose crew
 * has the member and that starts in the window, cancelled ones included as STATUS:CANCELLED so
 * a calendar that had them removes them; times in UTC; SEQUENCE counts the visit's moves.
 */
export async function feedCalendar(token: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const ids = verifyIdToken("calendar", token);
  if (!ids) return null;
  return inTenant(ids.tenantId, async (t) => {
    // The feed, whose it is, and the fingerprint's parts: one statement. Read before the rows (a
    // later snapshot), so a kept file is never older than the version it is kept under.
    const [feed] = await rows<{
      user_id: string;
      member: string | null;
      tenant: string | null;
      version: string;
      people: string;
    }>(
      `SELECT f.user_id, m.name AS member, tn.name AS tenant, ${BOARD_VERSION} AS version,
              (SELECT md5(string_agg(u.id::text || ':' || u.name, ',' ORDER BY u.id)) FROM users u WHERE u.tenant_id = $1) AS people
         FROM calendar_feeds f
         LEFT JOIN users m ON m.tenant_id = f.tenant_id AND m.id = f.user_id
         LEFT JOIN tenants tn ON tn.id = f.tenant_id
        WHERE f.tenant_id = $1 AND f.id = $2 AND f.revoked_at IS NULL`,
      [ids.tenantId, ids.rowId],
      t,
    );
    if (!feed) return null;
    const app = env().APP_URL;
    const hour = Math.floor(Date.now() / 3_600_000);
    const fingerprint = JSON.stringify([feed.version, feed.people, hour, feed.tenant, feed.member, app]);
    const key = `${ids.rowId} ${fingerprint}`;
    const known = rendered.get(key);
    if (known) return known;
    // A window of one member's jobs joined to their customers: one set-based read.
    const jobs = await rows<FeedJob>(
      `SELECT j.id, v.id AS visit_id, fv.first_visit, cr.crew, cr.crew_size, j.title, j.description,
              CASE WHEN j.status = 'cancelled' THEN 'cancelled' ELSE v.status END AS status,
              v.starts_at AS scheduled_start, v.ends_at AS scheduled_end,
              -- The job's UID keeps counting from the SEQUENCE it had (moves and new technicians of the job).
              CASE WHEN fv.first_visit THEN greatest(v.sequence, j.schedule_sequence) ELSE v.sequence END AS schedule_sequence,
              greatest(v.updated_at, j.updated_at) AS updated_at, v.created_at,
              ${FEED_ADDRESS} AS address, c.name AS customer_name, c.phone AS customer_phone
       ${FEED_JOBS}
        ORDER BY v.starts_at, v.id`,
      [ids.tenantId, feed.user_id],
      t,
    );
    const calendar = ical({
      name: `${feed.member ?? "Jobs"} · ${feed.tenant ?? "Fieldwork"}`,
      description: `Jobs assigned to ${feed.member ?? "this member"} at ${feed.tenant ?? "the business"}, from ${FEED_DAYS_BACK} days ago to ${FEED_DAYS_AHEAD} days ahead.`,
      prodId: { company: "Fieldwork", product: "Schedule", language: "EN" },
      // Calendars that honour it refresh the subscription every 15 minutes.
      ttl: 15 * 60,
    });
    for (const j of jobs) {
      const start = new Date(j.scheduled_start);
      const end = j.scheduled_end ? new Date(j.scheduled_end) : new Date(start.getTime() + DEFAULT_MINUTES * 60_000);
      const link = `${app}/jobs/${j.id}`;
      calendar.createEvent({
        // One event per visit: the job's first visit keeps the job's UID, the others their own.
        id: `${j.first_visit ? j.id : j.visit_id}@fieldwork`,
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
          j.crew_size > 1 ? `Crew: ${j.crew}` : "",
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
    return rendered.keep(key, new TextEncoder().encode(text.endsWith("\r\n") ? text : `${text}\r\n`));
  });
}
