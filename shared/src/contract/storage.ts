/**
 * Async key-value storage owned by the host (localforage, Ionic-compatible). Values are stored by
 * structured clone where IndexedDB is available, as JSON otherwise: keep them plain data.
 * Every method rejects with a `StorageError` when the write or read fails (quota, blocked, ...).
 */
export interface KeyValueStorage {
  get<T>(key: string): Promise<T | null>;
  set<T>(key: string, value: T): Promise<T>;
  remove(key: string): Promise<void>;
  keys(): Promise<string[]>;
  clear(): Promise<void>;
  /** Which driver is in use: 'asyncStorage' (IndexedDB), 'localStorageWrapper', 'memoryStorage' or 'noop'. */
  driver(): string;
}

export type StorageErrorReason = 'quota' | 'unavailable' | 'unknown';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly reason: StorageErrorReason,
    readonly operation: 'get' | 'set' | 'remove' | 'keys' | 'clear',
    options?: { cause?: unknown },
  ) {
    super(`Storage ${operation} failed (${reason})`, options);
  }
}
