/**
 * The field page with JavaScript: actions go to the IndexedDB outbox at once (the page shows
 * them straight away) and are pushed to /api/offline-sync when the network allows, in order,
 * with retries that back off. See docs/offline-sync.md for the protocol.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import {
  MAX_MUTATIONS,
  type FieldJob,
  type MutationResult,
  type MutationType,
  type PushResponse,
} from "~/services/field/protocol";
import { project } from "./project";
import { SyncStore, uuid, type Queued } from "./sync-store";

export type SyncPhase = "starting" | "idle" | "syncing" | "offline" | "retrying" | "signed-out" | "unavailable";
export type SyncState = { phase: SyncPhase; retryAt?: number; lastSyncedAt?: string; message?: string };
export type Rejection = { key: string; what: string; message: string };

type Initial = { userId: string; open: FieldJob[]; doneToday: FieldJob[]; renderedAt: string };

/** The service worker's cache (public/field-sw.js). */
const FIELD_CACHE = "fieldwork-field-v1";

const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

async function post(clientId: string, mutations: Queued[]): Promise<PushResponse> {
  const res = await fetch("/api/offline-sync", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({
      clientId,
      mutations: mutations.map(({ id, type, occurredAt, args }) => ({ id, type, occurredAt, args })),
    }),
  });
  const body = await res.json().catch(() => null);
  if (res.ok && body?.success) return body.data as PushResponse;
  const retryAfter = Number(res.headers.get("Retry-After"));
  throw new HttpError(
    res.status,
    body?.error?.code,
    body?.error?.message ?? `The server answered ${res.status}.`,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
  );
}

export function useFieldSync(initial: Initial, describe: (m: Queued, jobs: FieldJob[]) => string) {
  const [jobs, setJobs] = useState({ open: initial.open, doneToday: initial.doneToday, at: initial.renderedAt });
  const [pending, setPending] = useState<Queued[]>([]);
  const [state, setState] = useState<SyncState>({ phase: "starting" });
  const [rejections, setRejections] = useState<Rejection[]>([]);
  const store = useRef<SyncStore | null>(null);
  const running = useRef(false);
  const again = useRef(false);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;
  // Every job this page has shown, as last seen: a refused action is described by its job even
  // when a sync in between dropped the job from the lists (the office cancelled it meanwhile).
  const seenJobs = useRef(new Map<string, FieldJob>());
  for (const j of [...jobs.open, ...jobs.doneToday]) seenJobs.current.set(j.id, j);

  const refreshPending = useCallback(async () => {
    if (store.current) setPending(await store.current.pending());
  }, []);

  const schedule = useCallback((ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void syncRef.current(), ms);
  }, []);

  /** One pass: push what waits (500 at a time), then settle the outcome. */
  const sync = useCallback(async () => {
    const s = store.current;
    if (!s) return;
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    clearTimeout(timer.current);
    try {
      const work = async () => {
        for (;;) {
          if (!navigator.onLine) {
            setState((st) => ({ ...st, phase: "offline", retryAt: undefined }));
            return;
          }
          const queued = await s.pending();
          setState((st) => ({ ...st, phase: "syncing", retryAt: undefined }));
          const batch = queued.slice(0, MAX_MUTATIONS);
          const data = await post(await s.clientId(), batch);
          await s.dropThrough(data.lastMutationId);
          const refused = data.results.filter((r: MutationResult) => r.status === "rejected");
          if (refused.length) {
            const byId = new Map(batch.map((m) => [m.id, m]));
            setRejections((list) => [
              ...list,
              ...refused.map((r) => ({
                key: uuid(),
                what: describe(byId.get(r.id)!, [...seenJobs.current.values()]),
                message: r.error?.message ?? "It could not be applied.",
              })),
            ]);
          }
          const rest = await s.pending();
          // Ids the server does not expect (it was restored from a backup): number them on from its last id.
          const renumber = rest.length > 0 && rest[0].id > data.lastMutationId + 1;
          if (renumber) await s.renumber(data.lastMutationId + 1);
          const at = new Date().toISOString();
          const open = data.jobs;
          // A job completed from here leaves the open list; keep showing it under "Done today".
          const processed = new Map(data.results.map((r) => [r.id, r.status]));
          const completed = new Set(
            batch
              .filter(
                (m) =>
                  m.type === "job.status" &&
                  m.args.status === "completed" &&
                  ["applied", "duplicate"].includes(processed.get(m.id) ?? ""),
              )
              .map((m) => String(m.args.jobId)),
          );
          // As the batch left it (checklist ticked, signed, clock stopped): the open copy with the batch's actions laid over.
          const landed = batch.filter((m) => ["applied", "duplicate"].includes(processed.get(m.id) ?? ""));
          const finished = project(
            jobsRef.current.open.filter((j) => completed.has(j.id)),
            [],
            landed,
          ).map(
            ({
              pendingNotes,
              pendingEntries,
              pendingMinutes,
              pendingStatus: _s,
              pendingClock: _c,
              pendingChecklist: _l,
              pendingSignature: _g,
              ...j
            }): FieldJob => ({
              ...j,
              // The notes sent with the batch stay on the card, newest first (the server's answer
              // lists open jobs only, so it has none of this job's).
              recentNotes: [
                ...pendingNotes
                  .map((n) => ({ id: `sent-${n.id}`, body: n.body, occurredAt: n.occurredAt, authorName: null }))
                  .reverse(),
                ...j.recentNotes,
              ],
              status: "completed",
              nextStatuses: [],
              clock: null,
              timeEntries: j.timeEntries + pendingEntries,
              loggedMinutes: j.loggedMinutes + pendingMinutes,
            }),
          );
          const done = [...finished, ...jobsRef.current.doneToday.filter((j) => !completed.has(j.id))];
          setJobs({ open, doneToday: done, at });
          await s.saveSnapshot({ open, doneToday: done, at });
          const left = await s.pending();
          setPending(left);
          failures.current = 0;
          setState({ phase: "idle", lastSyncedAt: at });
          if (left.length && left.length >= queued.length && !renumber)
            throw new Error("The server did not take the waiting actions.");
          if (!left.length && !again.current) return;
          again.current = false;
        }
      };
      // One tab at a time pushes this user's outbox.
      if (navigator.locks) await navigator.locks.request(`fieldwork-sync-${initial.userId}`, work);
      else await work();
    } catch (error) {
      await failed(error);
    } finally {
      running.current = false;
      if (again.current) {
        again.current = false;
        void syncRef.current();
      }
    }

    async function failed(error: unknown) {
      if (error instanceof HttpError && error.status === 401) {
        setState({
          phase: "signed-out",
          message: "Your session has ended. Sign in again to send your changes; they are kept on this device.",
        });
        return;
      }
      if (error instanceof HttpError && error.status === 403 && error.code === "FORBIDDEN") {
        // The client id is another user's: start a new one and send everything under it.
        await s!.renumber(1, uuid());
        schedule(0);
        return;
      }
      const permanent =
        error instanceof HttpError && error.status < 500 && error.status !== 429 && error.status !== 408;
      const step = BACKOFF_MS[Math.min(failures.current, BACKOFF_MS.length - 1)];
      failures.current++;
      const wait = Math.max(
        error instanceof HttpError && error.retryAfter ? error.retryAfter : 0,
        permanent ? 60_000 : step * (0.8 + Math.random() * 0.4),
      );
      setState((st) => ({
        ...st,
        phase: navigator.onLine ? "retrying" : "offline",
        retryAt: Date.now() + wait,
        message: error instanceof HttpError ? error.message : "The server could not be reached.",
      }));
      schedule(wait);
    }
  }, [describe, initial.userId, schedule]);

  const syncRef = useRef(sync);
  syncRef.current = sync;

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const s = await SyncStore.open(initial.userId);
        if (cancelled) return;
        store.current = s;
        const saved = await s.snapshot();
        // A snapshot newer than this page (the page came from the offline cache) is the better list.
        if (saved && saved.at > initial.renderedAt) setJobs(saved);
        await refreshPending();
        setState({ phase: "idle" });
        void syncRef.current();
      } catch {
        setState({
          phase: "unavailable",
          message: "This browser cannot keep actions offline; they are sent straight away.",
        });
      }
    })();
    if ("serviceWorker" in navigator)
      navigator.serviceWorker.register("/field-sw.js", { scope: "/field" }).catch(() => {});
    const online = () => void syncRef.current();
    const offline = () => setState((st) => ({ ...st, phase: "offline", retryAt: undefined }));
    // Another tab may have queued or sent actions: show the same outbox here.
    const visible = () => document.visibilityState === "visible" && void refreshPending().then(() => syncRef.current());
    // Signing out: the kept copy of this day leaves the device (queued actions stay, in this user's outbox).
    const signOut = (e: SubmitEvent) => {
      const form = e.target as HTMLFormElement | null;
      if (form?.action && new URL(form.action).pathname === "/logout")
        void window.caches?.delete(FIELD_CACHE).catch(() => {});
    };
    document.addEventListener("submit", signOut, true);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", visible);
    return () => {
      cancelled = true;
      clearTimeout(timer.current);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", visible);
      document.removeEventListener("submit", signOut, true);
    };
  }, [initial.userId, initial.renderedAt, refreshPending]);

  /** Queues an action (shown at once) and tries to send it. False when there is no outbox. */
  const enqueue = useCallback(
    async (type: MutationType, args: Record<string, unknown>) => {
      const s = store.current;
      if (!s) return false;
      await s.enqueue({ type, args, occurredAt: new Date().toISOString() });
      await refreshPending();
      failures.current = 0;
      void syncRef.current();
      return true;
    },
    [refreshPending],
  );

  const dismiss = useCallback((key: string) => setRejections((list) => list.filter((r) => r.key !== key)), []);

  return {
    jobs,
    pending,
    state,
    rejections,
    enqueue,
    dismiss,
    syncNow: sync,
    ready: state.phase !== "starting" && state.phase !== "unavailable",
  };
}
