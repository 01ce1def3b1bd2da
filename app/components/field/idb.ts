// IndexedDB's callbacks as promises, shared by the field page's two stores (sync-store.ts for the
// mutation outbox, photo-queue.ts for the photos). Browser only.

/** One request's result. */
export const request = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });

/** A transaction committed (or why it was not). */
export const finished = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
