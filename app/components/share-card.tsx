import { CopyButton } from "./copy-button";
import { DateTime } from "./records";

export type Share = {
  url: string;
  expiresAt: string;
  subject: string;
  body: string;
  mailto: string | null;
  email: string | null;
};

/** A sent document (with `status`: whether its e-mail went out)'s portal link and a ready message (mailto and text to copy): email delivery is not ours (yet). */
export function ShareCard({ share, intro, status }: { share: Share; intro: string; status?: React.ReactNode }) {
  return (
    <section className="card share-card" id="share" aria-labelledby="share-title">
      <h2 id="share-title">Send it to the customer</h2>
      {status}
      <p className="muted">
        {intro} The link works until <DateTime value={share.expiresAt} />.
      </p>
      <div className="share-link">
        <label htmlFor="share-url" className="label">
          Portal link
        </label>
        <div className="form-row">
          <input id="share-url" type="text" readOnly value={share.url} className="mono grow" />
          <CopyButton text={share.url} label="Copy link" />
        </div>
      </div>
      <div className="share-message">
        <label htmlFor="share-text" className="label">
          Message
        </label>
        <textarea id="share-text" readOnly rows={9} value={`${share.subject}\n\n${share.body}`} />
        <div className="form-row">
          {share.mailto ? (
            <a href={share.mailto} className="btn btn-primary">
              Email {share.email}
            </a>
          ) : (
            <span className="muted small">No email address on file: copy the message into a text or email.</span>
          )}
          <CopyButton text={share.body} label="Copy message" />
        </div>
      </div>
    </section>
  );
}
