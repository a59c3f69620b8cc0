import 'fake-indexeddb/auto';
import type { StorageError } from '@special-gift/shared';
import { IDBFactory } from 'fake-indexeddb';
import { deserialize, serialize } from 'node:v8';
import type localforageInstance from 'localforage';
import type * as CreateStorageModule from './create-storage';

type LocalForage = typeof localforageInstance;

/** The Ionic app's prefix for localStorage keys: `<name>/<storeName>/`. */
const IONIC_LOCAL_STORAGE_PREFIX = '_ionicstorage/_ionickv/';

/**
 * localforage picks its drivers and IndexedDB factory when it loads and keeps them at module
 * level, so every scenario gets its own module registry, like a new page load.
 */
async function load(): Promise<{ storageModule: typeof CreateStorageModule; localforage: LocalForage }> {
  let loaded: { storageModule: typeof CreateStorageModule; localforage: LocalForage } | undefined;
  await jest.isolateModulesAsync(async () => {
    const storageModule = await import('./create-storage');
    const localforage = (await import('localforage')).default;
    loaded = { storageModule, localforage };
  });
  if (!loaded) throw new Error('modules did not load');
  return loaded;
}

/** By shape: each module registry below has its own copy of the StorageError class. */
function isStorageError(error: unknown): error is StorageError {
  return error instanceof Error && error.name === 'StorageError' && 'reason' in error && 'operation' in error;
}

async function storageError(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    if (isStorageError(error)) return error;
    throw error;
  }
  throw new Error('expected a StorageError');
}

beforeAll(() => {
  // fake-indexeddb clones values with structuredClone, which this jsdom lacks.
  if (typeof globalThis.structuredClone !== 'function') {
    Object.assign(globalThis, { structuredClone: <T>(value: T): T => deserialize(serialize(value)) as T });
  }
});

beforeEach(() => {
  // A browser profile with no databases yet.
  Object.assign(globalThis, { indexedDB: new IDBFactory() });
  localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

describe('createStorage with IndexedDB', () => {
  it('reads what the old Ionic app wrote (database _ionicstorage, store _ionickv)', async () => {
    const oldApp = await load();
    const ionicStorage = oldApp.localforage.createInstance({
      name: '_ionicstorage',
      storeName: '_ionickv',
      driver: oldApp.localforage.INDEXEDDB,
    });
    await ionicStorage.setItem('language', 'fr');
    await ionicStorage.setItem('profile', { firstName: 'Ada', cards: ['4111'] });

    const newApp = await load();
    const storage = await newApp.storageModule.createStorage();
    expect(storage.driver()).toBe('asyncStorage');
    await expect(storage.get('language')).resolves.toBe('fr');
    await expect(storage.get('profile')).resolves.toEqual({ firstName: 'Ada', cards: ['4111'] });
  });

  it('writes where the Ionic app reads, so both stay compatible', async () => {
    const newApp = await load();
    const storage = await newApp.storageModule.createStorage();
    await storage.set('signUp.result', { firstName: 'Ada' });

    const oldApp = await load();
    const ionicStorage = oldApp.localforage.createInstance({
      name: '_ionicstorage',
      storeName: '_ionickv',
      driver: oldApp.localforage.INDEXEDDB,
    });
    await expect(ionicStorage.getItem('signUp.result')).resolves.toEqual({ firstName: 'Ada' });
  });

  it('gets, sets, removes, lists and clears values', async () => {
    const storage = await (await load()).storageModule.createStorage();
    await expect(storage.get('missing')).resolves.toBeNull();

    const value = { nested: { list: [1, 2, 3] }, flag: true };
    await expect(storage.set('a', value)).resolves.toEqual(value);
    await storage.set('b', 'text');
    await expect(storage.get('a')).resolves.toEqual(value);
    expect(await storage.get('a')).not.toBe(value);
    expect((await storage.keys()).sort()).toEqual(['a', 'b']);

    await storage.remove('a');
    await expect(storage.get('a')).resolves.toBeNull();
    expect(await storage.keys()).toEqual(['b']);

    await storage.clear();
    expect(await storage.keys()).toEqual([]);
  });

  it("rejects a write refused for quota with StorageError 'quota', keeping the cause", async () => {
    const storage = await (await load()).storageModule.createStorage();
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw quota;
    });
    const error = await storageError(storage.set('draft', { big: 'x'.repeat(100) }));
    expect(error.reason).toBe('quota');
    expect(error.operation).toBe('set');
    expect(error.cause).toBe(quota);
  });
});

describe('createStorage without IndexedDB', () => {
  beforeEach(() => {
    Reflect.deleteProperty(globalThis, 'indexedDB');
  });

  it('uses localStorage with the Ionic key prefix and JSON values', async () => {
    const storage = await (await load()).storageModule.createStorage();
    expect(storage.driver()).toBe('localStorageWrapper');

    await storage.set('profile', { firstName: 'Ada' });
    await storage.set('language', 'ar');
    expect(localStorage.getItem(`${IONIC_LOCAL_STORAGE_PREFIX}profile`)).toBe('{"firstName":"Ada"}');
    expect(localStorage.getItem(`${IONIC_LOCAL_STORAGE_PREFIX}language`)).toBe('"ar"');
    expect((await storage.keys()).sort()).toEqual(['language', 'profile']);

    await storage.remove('language');
    expect(localStorage.getItem(`${IONIC_LOCAL_STORAGE_PREFIX}language`)).toBeNull();
  });

  it('reads values the Ionic app left in localStorage and clears only its own keys', async () => {
    localStorage.setItem(`${IONIC_LOCAL_STORAGE_PREFIX}session`, JSON.stringify({ token: 'abc' }));
    localStorage.setItem('unrelated', 'keep me');
    const storage = await (await load()).storageModule.createStorage();
    await expect(storage.get('session')).resolves.toEqual({ token: 'abc' });

    await storage.clear();
    expect(localStorage.getItem(`${IONIC_LOCAL_STORAGE_PREFIX}session`)).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('keep me');
  });

  it("rejects a write refused for quota with StorageError 'quota'", async () => {
    const storage = await (await load()).storageModule.createStorage();
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await expect(storageError(storage.set('draft', 'x'))).resolves.toMatchObject({ reason: 'quota', operation: 'set' });
  });

  it("names blocked storage 'unavailable' and anything else 'unknown'", async () => {
    const storage = await (await load()).storageModule.createStorage();
    const getItem = jest.spyOn(Storage.prototype, 'getItem');

    getItem.mockImplementationOnce(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    await expect(storageError(storage.get('a'))).resolves.toMatchObject({ reason: 'unavailable', operation: 'get' });

    getItem.mockImplementationOnce(() => {
      throw new TypeError('something odd');
    });
    await expect(storageError(storage.get('a'))).resolves.toMatchObject({ reason: 'unknown', operation: 'get' });

    jest.spyOn(Storage.prototype, 'removeItem').mockImplementationOnce(() => {
      throw new DOMException('Gone', 'InvalidStateError');
    });
    await expect(storageError(storage.remove('a'))).resolves.toMatchObject({
      reason: 'unavailable',
      operation: 'remove',
    });
  });
});

describe('createStorage without any persistent storage', () => {
  it('falls back to memory so the app keeps working for this visit', async () => {
    Reflect.deleteProperty(globalThis, 'indexedDB');
    // As in some private modes: no localStorage at all.
    const localStorageProperty = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', { configurable: true, get: () => undefined });
    try {
      const storage = await (await load()).storageModule.createStorage();
      expect(storage.driver()).toBe('memoryStorage');
      const value = { firstName: 'Ada' };
      await storage.set('profile', value);
      await expect(storage.get('profile')).resolves.toEqual(value);
      expect(await storage.get('profile')).not.toBe(value);
      expect(await storage.keys()).toEqual(['profile']);
    } finally {
      if (localStorageProperty) Object.defineProperty(window, 'localStorage', localStorageProperty);
      else Reflect.deleteProperty(window, 'localStorage');
    }
    expect(typeof window.localStorage.getItem).toBe('function');
  });
});

describe('createNoopStorage', () => {
  it('resolves every call and keeps nothing', async () => {
    const { createNoopStorage } = await import('./create-storage');
    const storage = createNoopStorage();
    expect(storage.driver()).toBe('noop');
    await expect(storage.set('a', { x: 1 })).resolves.toEqual({ x: 1 });
    await expect(storage.get('a')).resolves.toBeNull();
    await expect(storage.keys()).resolves.toEqual([]);
    await expect(storage.remove('a')).resolves.toBeUndefined();
    await expect(storage.clear()).resolves.toBeUndefined();
  });
});
