import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState, PageHeader } from "~/components/layout";
import { DateTime, StatusBadge } from "~/components/records";
import { mailMode } from "~/services/messages/config.server";
import { outboxPage } from "~/services/messages/outbox.server";
import settingsStyles from "~/styles/settings.css";
import { actorOf, requireUserWithPermission } from "~/http/auth.server";

// GET /settings/messages (owner, admin: the roles with manage_team): every e-mail the business
// sent or is sending, newest first, readable as the customer sees it. Without SMTP_URL in
// development this is where messages go (docs/decisions/140).

export const meta: MetaFunction = () => [{ title: "Messages · Fieldwork" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: settingsStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithPermission(request, "manage_team");
  const page = Math.min(
    10_000,
    Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1),
  );
  const outbox = await outboxPage(actorOf(user), { page });
  return json({
    mode: mailMode(),
    ...outbox,
    // Only the body is shown inside the page (the document's head and title stay out).
    messages: outbox.messages.map((m) => ({ ...m, html: /<body[^>]*>([\s\S]*)<\/body>/i.exec(m.html)?.[1] ?? "" })),
  });
}

const STATUS_LABELS = {
  queued: "Waiting",
  sending: "Sending",
  sent: "Sent",
  failed: "Not delivered",
  local: "Local outbox",
} as const;

export default function MessagesPage() {
  const { mode, messages, total, page, perPage } = useLoaderData<typeof loader>();
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <>
      <PageHeader title="Messages" description="E-mails sent to your customers, your team and your office." />
      <div className="alert alert-info" role="note">
        <p>
          {mode === "smtp"
            ? "E-mails are delivered through your SMTP server. Each one is sent once; one that cannot be delivered is tried again later."
            : mode === "local"
              ? "No SMTP server is configured (SMTP_URL), so e-mails are kept here instead of being sent. Open one to read it as the customer would."
              : "E-mail is not configured on this server (SMTP_URL is not set): nothing is sent. Send portal links by hand from each quote or invoice."}
        </p>
      </div>
      {messages.length ? (
        <ol className="message-list" aria-label="Messages, newest first">
          {messages.map((m) => (
            <li key={m.id} className="card message">
              <h2 className="message-subject">{m.subject}</h2>
              <p className="muted small">
                <StatusBadge
                  status={m.status === "sent" ? "paid" : m.status === "failed" ? "void" : "draft"}
                  label={STATUS_LABELS[m.status]}
                />{" "}
                To {m.toName ? `${m.toName} <${m.to}>` : m.to} · <DateTime value={m.sentAt ?? m.createdAt} />
                {m.attempts > 1 ? ` · ${m.attempts} tries` : ""}
              </p>
              {m.status === "failed" || (m.status === "queued" && m.lastError) ? (
                <p className="small">Last error: {m.lastError}</p>
              ) : null}
              {m.smtpResponse ? (
                <p className="small muted">
                  Server answer: <span className="mono">{m.smtpResponse}</span>
                </p>
              ) : null}
              <details>
                <summary>Read the message</summary>
                <dl className="details small">
                  <dt>From</dt>
                  <dd>{m.fromName}</dd>
                  {m.replyTo ? (
                    <>
                      <dt>Replies go to</dt>
                      <dd>{m.replyTo}</dd>
                    </>
                  ) : null}
                  <dt>Message-ID</dt>
                  <dd className="mono">{m.messageId}</dd>
                </dl>
                {/* A whole e-mail document (its own head, table layout for mail programs) is not part of
                    this page: it is shown in a sandboxed frame, with no script and no navigation. */}
                <iframe className="email-preview" srcDoc={m.html} sandbox="" title={`The e-mail: ${m.subject}`} />
                <h3 className="small">Plain text</h3>
                <pre className="email-text">{m.text}</pre>
              </details>
            </li>
          ))}
        </ol>
      ) : (
        <EmptyState title="No messages yet">
          <p>Quotes you send, receipts, invites and reminders appear here.</p>
        </EmptyState>
      )}
      {pages > 1 ? (
        <nav className="pagination" aria-label="Pages">
          {page > 1 ? <Link to={`?page=${page - 1}`}>Newer</Link> : null}
          <span className="muted">
            {" "}
            Page {page} of {pages}{" "}
          </span>
          {page < pages ? <Link to={`?page=${page + 1}`}>Older</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
