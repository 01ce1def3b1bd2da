/**
 * The field page's photos with JavaScript (docs/decisions/217): a photo taken or chosen is
 * resized, queued in IndexedDB at once (shown on the card straight away) and uploaded when the
 * network allows, one at a time, with retries that back off. The upload is the idempotent
 * `PUT /api/field/jobs/<jobId>/photos/<photoId>`: a retry after a lost answer, or a second tab
 * sending the same photo, stores it once.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { PhotoQueue, type QueuedPhoto } from "./photo-queue";
import { NotAPhoto, resizePhoto } from "./photo-resize";
import { uuid } from "./sync-store";

const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

export type PhotoPhase = "starting" | "idle" | "uploading" | "offline" | "retrying" | "signed-out" | "unavailable";
/** A photo as a card shows it: waiting (or being sent), sent in this visit, or refused. */
export type ShownPhoto = {
  id: string;
  jobId: string;
  url: string;
  state: "waiting" | "uploading" | "uploaded" | "refused";
  message?: string;
};

type Outcome =
  | { kind: "stored" }
  | { kind: "refused"; status: number; message: string }
  | { kind: "retry"; status: number; message: string; after: number | null };

async function upload(p: QueuedPhoto): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(
      `/api/field/jobs/${encodeURIComponent(p.jobId)}/photos/${encodeURIComponent(p.id)}?takenAt=${encodeURIComponent(p.takenAt)}`,
      {
        method: "PUT",
        headers: { "Content-Type": p.contentType, Accept: "application/json" },
        credentials: "same-origin",
        body: p.blob,
      },
    );
  } catch {
    return { kind: "retry", status: 0, message: "The server could not be reached.", after: null };
  }
  const body = await res.json().catch(() => null);
  if (res.ok) return { kind: "stored" };
  const message: string = body?.error?.message ?? `The server answered ${res.status}.`;
  if (res.status === 413) {
    return { kind: "refused", status: 413, message: `This photo is too large to upload (over 5 MiB). ${message}` };
  }
  if (res.status === 401 || res.status === 408 || res.status === 429 || res.status >= 500) {
    const after = Number(res.headers.get("Retry-After"));
    return {
      kind: "retry",
      status: res.status,
      message,
      after: Number.isFinite(after) && after > 0 ? after * 1000 : null,
    };
  }
  // 403, 404 (the job is gone or not yours), 409, 415, 422 (e.g. an impossible time): sending it again changes nothing.
  return { kind: "refused", status: res.status, message };
}

export function usePhotoQueue(userId: string) {
  const [queued, setQueued] = useState<QueuedPhoto[]>([]);
  const [uploaded, setUploaded] = useState<Array<{ id: string; jobId: string; url: string }>>([]);
  const [phase, setPhase] = useState<{ phase: PhotoPhase; message?: string; retryAt?: number }>({ phase: "starting" });
  const [current, setCurrent] = useState<string | null>(null);
  const store = useRef<PhotoQueue | null>(null);
  const running = useRef(false);
  const again = useRef(false);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const urls = useRef(new Map<string, string>());

  const urlOf = useCallback((p: { id: string; blob?: Blob }) => {
    let url = urls.current.get(p.id);
    if (!url && p.blob) {
      url = URL.createObjectURL(p.blob);
      urls.current.set(p.id, url);
    }
    return url ?? "";
  }, []);

  const refresh = useCallback(async () => {
    if (store.current) setQueued(await store.current.all());
  }, []);

  /** One pass: send every waiting photo, oldest first; on a passing failure, try again later. */
  const run = useCallback(async () => {
    const s = store.current;
    if (!s) return;
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    clearTimeout(timer.current);
    const work = async () => {
      for (;;) {
        again.current = false;
        const waiting = (await s.all()).filter((p) => !p.refused);
        setQueued(await s.all());
        if (!waiting.length) {
          setPhase((st) => (st.phase === "signed-out" ? st : { phase: "idle" }));
          return;
        }
        if (!navigator.onLine) {
          setPhase({ phase: "offline" });
          return;
        }
        for (const p of waiting) {
          setPhase({ phase: "uploading" });
          setCurrent(p.id);
          const outcome = await upload(p);
          setCurrent(null);
          if (outcome.kind === "retry") {
            if (outcome.status === 401) {
              setPhase({
                phase: "signed-out",
                message: "Your session has ended. Sign in again to send your photos; they are kept on this device.",
              });
              return;
            }
            const step = BACKOFF_MS[Math.min(failures.current, BACKOFF_MS.length - 1)];
            failures.current++;
            const wait = Math.max(outcome.after ?? 0, step * (0.8 + Math.random() * 0.4));
            setPhase({
              phase: navigator.onLine ? "retrying" : "offline",
              message: outcome.message,
              retryAt: Date.now() + wait,
            });
            clearTimeout(timer.current);
            timer.current = setTimeout(() => void runRef.current(), wait);
            return;
          }
          failures.current = 0;
          if (outcome.kind === "stored") {
            await s.remove(p.id);
            setUploaded((list) => [...list, { id: p.id, jobId: p.jobId, url: urlOf(p) }]);
          } else {
            await s.refuse(p, { status: outcome.status, message: outcome.message });
          }
          setQueued(await s.all());
        }
        if (!again.current) {
          setPhase({ phase: "idle" });
          return;
        }
      }
    };
    try {
      // One tab at a time sends this user's photos (another tab's copy is idempotent anyway).
      if (navigator.locks) await navigator.locks.request(`fieldwork-photos-${userId}`, work);
      else await work();
    } catch {
      setPhase({ phase: "retrying", message: "The photos could not be sent.", retryAt: Date.now() + 30_000 });
      timer.current = setTimeout(() => void runRef.current(), 30_000);
    } finally {
      running.current = false;
      if (again.current) void runRef.current();
    }
  }, [userId, urlOf]);

  const runRef = useRef(run);
  runRef.current = run;

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const s = await PhotoQueue.open(userId);
        if (cancelled) return;
        store.current = s;
        await refresh();
        setPhase({ phase: "idle" });
        void runRef.current();
      } catch {
        setPhase({ phase: "unavailable", message: "This browser cannot keep photos offline." });
      }
    })();
    const online = () => {
      failures.current = 0;
      void runRef.current();
    };
    const offline = () =>
      setPhase((st) =>
        st.phase === "uploading" || st.phase === "idle" || st.phase === "retrying" ? { phase: "offline" } : st,
      );
    const visible = () => document.visibilityState === "visible" && void refresh().then(() => runRef.current());
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", visible);
    const kept = urls.current;
    return () => {
      cancelled = true;
      clearTimeout(timer.current);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", visible);
      for (const url of kept.values()) URL.revokeObjectURL(url);
      kept.clear();
    };
  }, [userId, refresh]);

  /** Resizes and queues a photo for a job, then tries to send it. Answers an error message, or null. */
  const add = useCallback(
    async (jobId: string, file: File): Promise<string | null> => {
      const s = store.current;
      if (!s) return "Photos cannot be kept on this device.";
      let blob: Blob;
      try {
        blob = await resizePhoto(file);
      } catch (error) {
        return error instanceof NotAPhoto ? error.message : "The photo could not be resized.";
      }
      // The camera's file is new; a gallery photo keeps the time it was taken (or saved).
      const taken = file.lastModified > 0 && file.lastModified <= Date.now() ? file.lastModified : Date.now();
      await s.add({
        id: uuid(),
        jobId,
        takenAt: new Date(taken).toISOString(),
        contentType: blob.type || "image/jpeg",
        blob,
        size: blob.size,
      });
      await refresh();
      failures.current = 0;
      void runRef.current();
      return null;
    },
    [refresh],
  );

  const dismiss = useCallback(
    async (id: string) => {
      await store.current?.remove(id);
      await refresh();
    },
    [refresh],
  );

  const shown: ShownPhoto[] = [
    ...uploaded.map((p) => ({ ...p, state: "uploaded" as const })),
    ...queued.map((p) => ({
      id: p.id,
      jobId: p.jobId,
      url: urlOf(p),
      state: p.refused ? ("refused" as const) : p.id === current ? ("uploading" as const) : ("waiting" as const),
      message: p.refused?.message,
    })),
  ];

  return {
    ready: phase.phase !== "starting" && phase.phase !== "unavailable",
    phase,
    /** Why waiting photos are held up, for the sync bar (none while they go out or wait for the network). */
    note:
      phase.phase === "signed-out"
        ? phase.message
        : phase.phase === "retrying" && queued.some((p) => !p.refused)
          ? `Photos: ${phase.message ?? "the server could not be reached."} They are tried again shortly.`
          : undefined,
    /** Photos still to send (refused ones are not waiting). */
    waiting: queued.filter((p) => !p.refused).length,
    photosOf: (jobId: string) => shown.filter((p) => p.jobId === jobId),
    add,
    dismiss,
    uploadNow: () => {
      failures.current = 0;
      void runRef.current();
    },
  };
}

export type PhotoQueueApi = ReturnType<typeof usePhotoQueue>;
