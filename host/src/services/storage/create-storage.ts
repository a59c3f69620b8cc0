import { StorageError, type KeyValueStorage, type StorageErrorReason } from '@special-gift/shared';
import localforage from 'localforage';
import { createMemoryDriver } from './memory-driver';
import { IONIC_STORAGE_CONFIG, MEMORY_DRIVER, SECURE_STORAGE_DRIVER } from './ionic-storage-config';

type Operation = StorageError['operation'];

function reasonOf(error: unknown): StorageErrorReason {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return 'quota';
  if (name === 'InvalidStateError' || name === 'SecurityError' || name === 'UnknownError') return 'unavailable';
  return 'unknown';
}

/** On a server platform (no window: SSR, Node) every call resolves and does nothing, as Ionic's NoopStorage. */
export function createNoopStorage(): KeyValueStorage {
  return {
    get: () => Promise.resolve(null),
    set: (_key, value) => Promise.resolve(value),
    remove: () => Promise.resolve(),
    keys: () => Promise.resolve([]),
    clear: () => Promise.resolve(),
    driver: () => 'noop',
  };
}

/**
 * The app's key-value storage: localforage with the old Ionic app's names and driver order
 * (secure storage where it exists, IndexedDB, localStorage), then memory so the app still works.
 * Every failure reaches the caller as a StorageError; nothing is swallowed.
 */
export async function createStorage(): Promise<KeyValueStorage> {
  if (typeof window === 'undefined') return createNoopStorage();

  await localforage.defineDriver(createMemoryDriver());
  const store = localforage.createInstance({
    ...IONIC_STORAGE_CONFIG,
    driver: [SECURE_STORAGE_DRIVER, localforage.INDEXEDDB, localforage.LOCALSTORAGE, MEMORY_DRIVER],
  });
  try {
    await store.ready();
  } catch (error) {
    // Every persistent driver failed to initialise: fall back to memory explicitly.
    console.warn('[storage] no persistent driver works; using memory for this visit.', error);
    await store.setDriver(MEMORY_DRIVER);
  }

  const guard = async <T>(operation: Operation, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new StorageError(reasonOf(error), operation, { cause: error });
    }
  };

  return {
    get: <T>(key: string) => guard('get', () => store.getItem<T>(key)),
    set: <T>(key: string, value: T) => guard('set', () => store.setItem<T>(key, value)),
    remove: (key) => guard('remove', () => store.removeItem(key)),
    keys: () => guard('keys', () => store.keys()),
    clear: () => guard('clear', () => store.clear()),
    driver: () => store.driver() ?? MEMORY_DRIVER,
  };
}
