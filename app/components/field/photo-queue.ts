/**
 * The field page's photo queue in IndexedDB (browser only), beside the mutation outbox of
 * sync-store.ts: one database per user, one row per photo under the id it got when it was
 * taken (the upload's key, so a retry or a second tab never stores it twice on the server).
 * A row waits until the server has it, then goes; a photo the server refused stays, marked,
 * until the technician dismisses the message.
 */
import { finished, request } from "./idb";

export type QueuedPhoto = {
  id: string;
  jobId: string;
  takenAt: string;
  contentType: string;
  blob: Blob;
  size: number;
  /** Set when the server refused the photo for good (too large, not their job...). */
  refused?: { status: number; message: string };
};

const PHOTOS = "photos";

export class PhotoQueue {
  private constructor(private db: IDBDatabase) {}

  static async open(userId: string): Promise<PhotoQueue> {
    const open = indexedDB.open(`fieldwork-photos-${userId}`, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(PHOTOS, { keyPath: "id" });
    };
    return new PhotoQueue(await request(open));
  }

  private async change(fn: (store: IDBObjectStore) => void): Promise<void> {
    const tx = this.db.transaction(PHOTOS, "readwrite");
    const done = finished(tx);
    fn(tx.objectStore(PHOTOS));
    await done;
  }

  add(photo: QueuedPhoto): Promise<void> {
    return this.change((s) => void s.put(photo));
  }

  /** Every queued photo, oldest first. */
  async all(): Promise<QueuedPhoto[]> {
    const tx = this.db.transaction(PHOTOS, "readonly");
    const list = (await request(tx.objectStore(PHOTOS).getAll())) as QueuedPhoto[];
    return list.sort((a, b) => a.takenAt.localeCompare(b.takenAt) || a.id.localeCompare(b.id));
  }

  remove(id: string): Promise<void> {
    return this.change((s) => void s.delete(id));
  }

  refuse(photo: QueuedPhoto, refused: NonNullable<QueuedPhoto["refused"]>): Promise<void> {
    return this.change((s) => void s.put({ ...photo, refused }));
  }
}
