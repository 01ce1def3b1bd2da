import { Form, Link, useNavigation } from "@remix-run/react";
import { CsrfInput } from "./forms";
import { PageHeader } from "./layout";
import { DateTime, StatusBadge } from "./records";

export type SendPreview = {
  id: string;
  number: string;
  status: string;
  sentAt: string | null;
  sendable: boolean;
  message: { to: { address: string; name: string } | null; subject: string; text: string } | null;
};

/**
 * The page between a document's Send button and the send itself: the message as the customer
 * will read it (recipient, subject, text) before the first send, and a plain question before a
 * resend. A form post, so it asks with JavaScript off too.
 */
export function SendConfirm({
  kind,
  doc,
  backTo,
  mailOff,
}: {
  kind: "quote" | "invoice";
  doc: SendPreview;
  backTo: string;
  mailOff: boolean;
}) {
  const busy = useNavigation().state === "submitting";
  const resend = doc.status !== "draft";
  const label = kind === "quote" ? "Quote" : "Invoice";
  const m = doc.message;
  return (
    <>
      <PageHeader
        title={resend ? `Send ${kind} ${doc.number} again?` : `Send ${kind} ${doc.number}`}
        description={
          <>
            <StatusBadge status={doc.status} />{" "}
            {doc.sentAt ? (
              <>
                First sent <DateTime value={doc.sentAt} />
              </>
            ) : (
              "Not sent yet"
            )}
          </>
        }
      />
      <section className="card narrow" aria-labelledby="message-title">
        {!doc.sendable ? (
          <p>
            {label} {doc.number} is {doc.status}: there is nothing to send. <Link to={backTo}>Back to the {kind}</Link>
          </p>
        ) : (
          <>
            {resend ? (
              <div className="alert alert-warning" role="note">
                <p>
                  This {kind} was already sent. Sending it again e-mails the customer the same message once more
                  {m?.to ? ` (to ${m.to.address})` : ""}.
                </p>
              </div>
            ) : null}
            <h2 id="message-title">The message</h2>
            {mailOff ? (
              <p className="muted">
                E-mail is not configured on this server, so nothing is e-mailed: after sending, the {kind}'s page gives
                you the link and this message to send yourself.
              </p>
            ) : !m?.to ? (
              <p className="muted">
                The customer has no e-mail address on file, so nothing is e-mailed: after sending, the {kind}'s page
                gives you the portal link and this message to send yourself.
              </p>
            ) : null}
            <dl className="details">
              <dt>To</dt>
              <dd>
                {m?.to ? (
                  <>
                    {m.to.name} &lt;{m.to.address}&gt;
                  </>
                ) : (
                  <span className="muted">No e-mail address</span>
                )}
              </dd>
              <dt>Subject</dt>
              <dd>{m?.subject}</dd>
            </dl>
            <pre className="message-preview" tabIndex={0} role="region" aria-label="The message">
              {m?.text}
            </pre>
            <Form method="post" className="form-actions">
              <CsrfInput />
              {resend ? <input type="hidden" name="resend" value="1" /> : null}
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {resend ? "Send again" : "Send"}
              </button>
              <Link to={backTo} className="btn btn-secondary">
                {resend ? "Don't send" : "Not now"}
              </Link>
            </Form>
          </>
        )}
      </section>
    </>
  );
}
