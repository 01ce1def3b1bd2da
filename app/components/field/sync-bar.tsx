import { useEffect, useState } from "react";
import { formatTime } from "./project";
import type { SyncState } from "./use-field-sync";

const plural = (n: number) => (n === 1 ? "1 action" : `${n} actions`);
const photoPlural = (n: number) => (n === 1 ? "1 photo" : `${n} photos`);
/** "2 actions and 1 photo", "1 photo", "3 actions". */
const waitingLabel = (actions: number, photos: number) =>
  [actions ? plural(actions) : "", photos ? photoPlural(photos) : ""].filter(Boolean).join(" and ");

function useSecondsUntil(at: number | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [at]);
  return at ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** The outbox at a glance: how many actions wait, whether the device is online, what happens next. */
export function SyncBar({
  state,
  pending: actions,
  photos = 0,
  photoNote,
  onSync,
  timeZone,
}: {
  state: SyncState;
  pending: number;
  /** Photos waiting in the photo queue (use-photo-queue). */
  photos?: number;
  /** Why the photos are not going out, when they are held up (signed out, server unreachable). */
  photoNote?: string;
  onSync: () => void;
  timeZone: string;
}) {
  const pending = actions + photos;
  const seconds = useSecondsUntil(state.retryAt);
  // Before the outbox is open, the bar's place, empty: the server's page and the first render in
  // the browser agree, and the bar that comes moves nothing below it (CSS: hidden, and gone when
  // the browser runs no script).
  if (state.phase === "starting")
    return (
      <div className="sync-bar sync-placeholder" aria-hidden="true">
        <span className="sync-text" />
      </div>
    );
  if (state.phase === "unavailable") {
    return (
      <div className="sync-bar sync-muted" role="status">
        <span>{state.message}</span>
      </div>
    );
  }
  const offline = state.phase === "offline";
  const tone =
    state.phase === "signed-out" || state.phase === "retrying"
      ? "sync-error"
      : offline
        ? "sync-offline"
        : pending
          ? "sync-waiting"
          : "sync-ok";
  let detail: React.ReactNode;
  if (state.phase === "signed-out") {
    detail = (
      <>
        {state.message} <a href="/login?redirectTo=%2Ffield">Sign in</a>
      </>
    );
  } else if (offline) {
    detail = pending
      ? "You are offline. They are kept on this device and sent when the connection is back."
      : "You are offline. What you do here is kept on this device.";
  } else if (state.phase === "syncing") {
    detail = "Sending…";
  } else if (state.phase === "retrying") {
    detail = `${state.message ?? "The server could not be reached."} Trying again${seconds ? ` in ${seconds} s` : ""}.`;
  } else if (state.lastSyncedAt) {
    detail = (
      <>
        Last synced at{" "}
        <time dateTime={state.lastSyncedAt} suppressHydrationWarning>
          {formatTime(state.lastSyncedAt, timeZone)}
        </time>
      </>
    );
  }
  return (
    <div className={`sync-bar ${tone}`} role="status" aria-live="polite">
      <span className="sync-dot" aria-hidden="true" />
      <div className="sync-text">
        <strong>{pending ? `${waitingLabel(actions, photos)} waiting to sync` : "All changes synced"}</strong>
        {detail ? <span className="sync-detail">{detail}</span> : null}
        {photoNote && !offline ? <span className="sync-detail">{photoNote}</span> : null}
      </div>
      {pending && !offline && state.phase !== "syncing" ? (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onSync}>
          Sync now
        </button>
      ) : null}
    </div>
  );
}
