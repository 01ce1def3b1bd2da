/**
 * The field page's outbox in IndexedDB (browser only): the device's client id, the queued
 * mutations numbered 1, 2, 3... and the last list of jobs the server sent. One database per
 * user, so a second person signing in on the same device never pushes the first one's work.
 * Every change is one IndexedDB transaction, so two tabs never hand out the same id.
 */
import { finished, request } from "./idb";
import type { FieldJob, MutationType } from "~/services/field/protocol";

export type Queued = { id: number; type: MutationType; occurredAt: string; args: Record<string, unknown> };
export type Snapshot = { open: FieldJob[]; doneToday: FieldJob[]; at: string };

const QUEUE = "queue";
const META = "meta";

/** A random v4 UUID, also where crypto.randomUUID is missing (plain http on a LAN address). */
export function uuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class SyncStore {
  private constructor(private db: IDBDatabase) {}

  static async open(userId: string): Promise<SyncStore> {
    const open = indexedDB.open(`fieldwork-sync-${userId}`, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(QUEUE, { keyPath: "id" });
      open.result.createObjectStore(META);
    };
    return new SyncStore(await request(open));
  }

  /** Runs `fn` in one read-write transaction over both stores and waits for it to commit. */
  private async write<T>(fn: (queue: IDBObjectStore, meta: IDBObjectStore) => Promise<T>): Promise<T> {
    const tx = this.db.transaction([QUEUE, META], "readwrite");
    const done = finished(tx);
    const out = await fn(tx.objectStore(QUEUE), tx.objectStore(META));
    await done;
    return out;
  }

  /** This device's client id, made on first use. */
  clientId(): Promise<string> {
    return this.write(async (_q, meta) => {
      const found = await request(meta.get("clientId"));
      if (typeof found === "string") return found;
      const id = uuid();
      meta.put(id, "clientId");
      return id;
    });
  }

  /** Queues a mutation under the next id. */
  enqueue(m: Omit<Queued, "id">): Promise<Queued> {
    return this.write(async (queue, meta) => {
      const id = ((await request(meta.get("nextId"))) as number | undefined) ?? 1;
      const queued = { ...m, id };
      queue.put(queued);
      meta.put(id + 1, "nextId");
      return queued;
    });
  }

  async pending(): Promise<Queued[]> {
    const tx = this.db.transaction(QUEUE, "readonly");
    return request(tx.objectStore(QUEUE).getAll() as IDBRequest<Queued[]>);
  }

  /** Forgets the mutations the server has processed (every id up to `lastMutationId`). */
  dropThrough(lastMutationId: number): Promise<void> {
    return this.write(async (queue) => {
      if (lastMutationId >= 1) queue.delete(IDBKeyRange.upperBound(lastMutationId));
    });
  }

  /**
   * Numbers the waiting mutations from `first` on, keeping their order. For a server that
   * forgot ids (restored from a backup) or a new client id; `clientId` replaces the old one.
   */
  renumber(first: number, clientId?: string): Promise<void> {
    return this.write(async (queue, meta) => {
      const all = (await request(queue.getAll())) as Queued[];
      queue.clear();
      all.forEach((m, i) => queue.put({ ...m, id: first + i }));
      meta.put(first + all.length, "nextId");
      if (clientId) meta.put(clientId, "clientId");
    });
  }

  async snapshot(): Promise<Snapshot | undefined> {
    const tx = this.db.transaction(META, "readonly");
    return (await request(tx.objectStore(META).get("snapshot"))) as Snapshot | undefined;
  }

  saveSnapshot(s: Snapshot): Promise<void> {
    return this.write(async (_q, meta) => {
      meta.put(s, "snapshot");
    });
  }
}
