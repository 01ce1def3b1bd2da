import { Form } from "@remix-run/react";
import type { FeedView, MemberFeed } from "~/services/schedule/calendar-feeds.server";
import { ROLE_LABELS, type Role } from "~/utils/permissions";
import { CopyButton } from "../copy-button";
import { CsrfInput } from "../forms";
import { DateTime } from "../records";

// "Subscribe in your calendar" on /settings/calendar: a member's own feed link (every role),
// and for an owner or admin every member's. The link works in any calendar that subscribes to
// an iCalendar URL; the buttons post to /settings/calendar/feeds and .../<id>/revoke.

const webcal = (url: string) => url.replace(/^https?:/, "webcal:");

function CreateFeedForm({
  userId,
  label,
  secondary,
  who,
}: {
  userId: string;
  label: string;
  secondary?: boolean;
  who?: string;
}) {
  return (
    <Form method="post" action="/settings/calendar/feeds" className="inline-form">
      <CsrfInput />
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className={`btn ${secondary ? "btn-secondary" : "btn-primary"} btn-sm`}>
        {label}
        {who ? <span className="visually-hidden"> the calendar link of {who}</span> : null}
      </button>
    </Form>
  );
}

function RevokeFeedForm({ feed, who }: { feed: FeedView; who: string }) {
  return (
    <Form method="post" action={`/settings/calendar/feeds/${feed.id}/revoke`} className="inline-form">
      <CsrfInput />
      <button type="submit" className="btn btn-ghost btn-sm">
        Turn off<span className="visually-hidden"> the calendar link of {who}</span>
      </button>
    </Form>
  );
}

export function CalendarFeedsSection({ own, team }: { own: MemberFeed; team: MemberFeed[] | null }) {
  return (
    <section className="card feed-card" id="calendar-feed" aria-labelledby="feed-title">
      <div className="card-header">
        <h2 id="feed-title">Subscribe in your calendar</h2>
        {own.feed ? (
          <span className="badge badge-success">Link on</span>
        ) : (
          <span className="badge badge-muted">No link yet</span>
        )}
      </div>
      <p className="muted">
        Your jobs from 30 days back to 90 days ahead, with the customer's address and phone, in Google Calendar, Outlook
        or Apple Calendar. A moved job moves there too, and a cancelled one is marked cancelled. Calendars check a
        subscription every few hours. Anyone with the link can see these jobs: keep it to yourself, and turn it off if
        it leaks.
      </p>
      {own.feed ? (
        <div className="feed-link">
          <label htmlFor="own-feed-url" className="label">
            Your calendar link
          </label>
          <div className="feed-url-row">
            <input
              id="own-feed-url"
              className="link-url"
              readOnly
              value={own.feed.url}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={own.feed.url} label="Copy link" />
          </div>
          <p className="feed-actions">
            <a
              className="btn btn-secondary btn-sm"
              href={`https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal(own.feed.url))}`}
              rel="noopener noreferrer"
              target="_blank"
            >
              Add to Google Calendar
            </a>
            <a className="btn btn-secondary btn-sm" href={webcal(own.feed.url)}>
              Open in Outlook or Apple Calendar
            </a>
          </p>
          <div className="feed-manage">
            <span className="muted small">
              Made <DateTime value={own.feed.createdAt} />
              {own.feed.createdByName ? ` by ${own.feed.createdByName}` : ""}.
            </span>
            <CreateFeedForm userId={own.userId} label="Replace link" secondary />
            <RevokeFeedForm feed={own.feed} who="yours" />
          </div>
        </div>
      ) : (
        <CreateFeedForm userId={own.userId} label="Create my calendar link" />
      )}

      {team ? (
        <>
          <h3 className="section-gap">Links of the team</h3>
          <p className="muted small">
            As an owner or admin you can make a link for anyone (to set up a technician's phone) and turn any link off.
          </p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Member</th>
                  <th>Calendar link</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.map((m) => (
                  <tr key={m.userId}>
                    <td>
                      <strong>{m.name}</strong>{" "}
                      <span className="badge badge-muted">{ROLE_LABELS[m.role as Role] ?? m.role}</span>
                    </td>
                    <td className="link-cell">
                      {m.feed ? (
                        <input
                          className="link-url"
                          readOnly
                          value={m.feed.url}
                          aria-label={`Calendar link of ${m.name}`}
                          onFocus={(e) => e.currentTarget.select()}
                        />
                      ) : (
                        <span className="muted">No link</span>
                      )}
                    </td>
                    <td className="num">
                      <div className="feed-row-actions">
                        <CreateFeedForm
                          userId={m.userId}
                          label={m.feed ? "Replace" : "Create"}
                          secondary={!!m.feed}
                          who={m.name}
                        />
                        {m.feed ? <RevokeFeedForm feed={m.feed} who={m.name} /> : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
