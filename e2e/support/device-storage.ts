/**
 * The app's storage on the device, read and written from a test: localforage's IndexedDB database,
 * under the names the old Ionic app used (host/src/services/storage/create-storage.ts). The
 * functions run in the page (`page.evaluate(readStored, { ...DEVICE_STORAGE, key })`), so each is
 * self-contained: the names are passed in.
 */
export const DEVICE_STORAGE = { database: '_ionicstorage', store: '_ionickv' } as const;

/** The keys the tests read (the app's own: the sign-up contract, the draft). */
export const STORED = { outbox: 'signUp.outbox', result: 'signUp.result', draft: 'signUp.draft' } as const;

export interface StoredKey {
  readonly database: string;
  readonly store: string;
  readonly key: string;
}

/** The value kept under `key`, or null (nothing kept, or the database not created yet). */
export function readStored({ database, store, key }: StoredKey): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(database);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains(store)) return resolve(null);
      const read = db.transaction(store).objectStore(store).get(key);
      read.onsuccess = () => resolve(read.result ?? null);
      read.onerror = () => reject(read.error);
    };
  });
}

/** Writes `value` under `key`, from a page of the app that has created the database. */
export function writeStored({ database, store, key, value }: StoredKey & { value: unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(database);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const write = open.result.transaction(store, 'readwrite');
      write.objectStore(store).put(value, key);
      write.oncomplete = () => resolve();
      write.onerror = () => reject(write.error);
    };
  });
}
