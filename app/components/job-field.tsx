// What the field did to a job, as the office sees it: who is on site since when,
// the checklist as ticked, the customer's signature; and the address and phone as links.
import { mapsLink, telLink } from "~/services/field/protocol";
import { dateTimeFormat, formatDateTime } from "~/utils/format";
import { useTimeZone } from "./records";

export function formatClockTime(iso: string, timeZone: string): string {
  return dateTimeFormat({ hour: "numeric", minute: "2-digit", timeZone }).format(new Date(iso));
}

/** "On site since 9:12 AM" (or "On the way since 8:50 AM"), in the company's time zone. */
export function ClockSince({
  startedAt,
  onSiteAt,
  who,
}: {
  startedAt: string;
  onSiteAt: string | null;
  who?: string | null;
}) {
  return <ClockSinceIn startedAt={startedAt} onSiteAt={onSiteAt} who={who} timeZone={useTimeZone()} />;
}

/** `ClockSince` in a given zone: for markup rendered apart from the page (no root data there). */
export function ClockSinceIn({
  startedAt,
  onSiteAt,
  who,
  timeZone,
}: {
  startedAt: string;
  onSiteAt: string | null;
  who?: string | null;
  timeZone: string;
}) {
  const since = onSiteAt ?? startedAt;
  return (
    <span className={`clock-since ${onSiteAt ? "clock-on-site" : "clock-on-way"}`}>
      <span className="clock-dot" aria-hidden="true" />
      {onSiteAt ? "On site since " : "On the way since "}
      <time dateTime={new Date(since).toISOString()}>{formatClockTime(since, timeZone)}</time>
      {who ? <span className="muted"> · {who}</span> : null}
    </span>
  );
}

/** The address as a link that opens the phone's maps app (Google Maps in a browser). */
export function AddressLink({ address }: { address: string }) {
  return (
    <a href={mapsLink(address)} target="_blank" rel="noopener noreferrer" className="address-link">
      {address}
      <span className="visually-hidden"> (directions, opens maps)</span>
    </a>
  );
}

export function PhoneLink({ phone }: { phone: string }) {
  return <a href={telLink(phone)}>{phone}</a>;
}

export type ShownChecklistItem = { id: string; label: string; done_at: string | null; who: string | null };

export function ChecklistView({ items }: { items: ShownChecklistItem[] }) {
  const timeZone = useTimeZone();
  const done = items.filter((i) => i.done_at).length;
  return (
    <>
      <p className="muted small">
        {done} of {items.length} ticked
      </p>
      <ul className="checklist-view">
        {items.map((i) => (
          <li key={i.id} className={i.done_at ? "is-done" : undefined}>
            <span className="checklist-mark" aria-hidden="true">
              {i.done_at ? "✓" : "○"}
            </span>
            <span className="checklist-label">{i.label}</span>
            <span className="visually-hidden">{i.done_at ? " (ticked)" : " (not ticked)"}</span>
            {i.done_at ? (
              <span className="checklist-meta muted small">
                Ticked by {i.who ?? "a former member"}, {formatDateTime(i.done_at, timeZone)}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

export type ShownSignature = { signer_name: string; image: string | null; signed_at: string; who: string | null };

/** The customer's signature: the drawing, or the name typed on a phone without JavaScript. */
export function SignatureView({ signature }: { signature: ShownSignature }) {
  const timeZone = useTimeZone();
  return (
    <figure className="signature-view">
      {signature.image ? (
        <img src={signature.image} alt={`Signature of ${signature.signer_name}`} className="signature-image" />
      ) : (
        <p className="signature-typed">Typed name: {signature.signer_name}</p>
      )}
      <figcaption className="small">
        Signed by {signature.signer_name}, {formatDateTime(signature.signed_at, timeZone)}
        {signature.who ? <>; collected by {signature.who}</> : null}
      </figcaption>
    </figure>
  );
}
