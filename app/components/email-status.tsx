import { Link } from "@remix-run/react";
import { DateTime } from "~/components/records";
import type { MessageStatus } from "../../db/enums";
import type { MailMode } from "~/services/messages/config.server";

type Latest = {
  to: string;
  status: MessageStatus;
  sentAt: string | null;
  lastError: string | null;
  attempts: number;
  createdAt: string;
} | null;

/**
 * What became of a record's latest e-mail (docs/decisions/140), or, with e-mail off on this
 * server, that the link and message below are the way to reach the customer.
 */
export function EmailStatus({ mode, latest }: { mode: MailMode; latest: Latest }) {
  if (mode === "off") {
    return (
      <div className="alert alert-info" role="note">
        <p>
          E-mail is not configured on this server (no SMTP_URL), so nothing was e-mailed. Send the portal link yourself:
          copy the message below or open it in your e-mail program.
        </p>
      </div>
    );
  }
  if (!latest) return null;
  const line = (() => {
    switch (latest.status) {
      case "sent":
        return (
          <>
            E-mailed to <strong>{latest.to}</strong> <DateTime value={latest.sentAt ?? latest.createdAt} />.
          </>
        );
      case "queued":
        return latest.attempts > 0 ? (
          <>
            The e-mail to <strong>{latest.to}</strong> could not be delivered yet
            {latest.lastError ? ` (${latest.lastError})` : ""}; it will be tried again.
          </>
        ) : (
          <>
            The e-mail to <strong>{latest.to}</strong> is on its way.
          </>
        );
      case "sending":
        return (
          <>
            The e-mail to <strong>{latest.to}</strong> is being sent.
          </>
        );
      case "failed":
        return (
          <>
            The e-mail to <strong>{latest.to}</strong> could not be delivered
            {latest.lastError ? `: ${latest.lastError}` : ""}. Send the link yourself below.
          </>
        );
      case "local":
        return (
          <>
            The e-mail to <strong>{latest.to}</strong> was kept in the <Link to="/settings/messages">local outbox</Link>
            : no SMTP server is configured.
          </>
        );
    }
  })();
  return (
    <p className={`email-status email-${latest.status}`} role="status">
      {line}
    </p>
  );
}
