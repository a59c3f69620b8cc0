import type localforage from 'localforage';
import { MEMORY_DRIVER } from './ionic-storage-config';

type Driver = Parameters<typeof localforage.defineDriver>[0];

/**
 * Last-resort localforage driver for browsers where neither IndexedDB nor localStorage works
 * (private modes, disabled storage): the app keeps working for this visit, nothing persists.
 */
export function createMemoryDriver(): Driver {
  const data = new Map<string, unknown>();
  return {
    _driver: MEMORY_DRIVER,
    _support: true,
    _initStorage: () => Promise.resolve(),
    getItem: <T>(key: string) => Promise.resolve((data.has(key) ? (data.get(key) as T) : null) as T),
    setItem: <T>(key: string, value: T) => {
      data.set(key, value === undefined ? null : structuredCloneSafe(value));
      return Promise.resolve(value);
    },
    removeItem: (key: string) => {
      data.delete(key);
      return Promise.resolve();
    },
    clear: () => {
      data.clear();
      return Promise.resolve();
    },
    length: () => Promise.resolve(data.size),
    key: (index: number) => Promise.resolve([...data.keys()][index] as string),
    keys: () => Promise.resolve([...data.keys()]),
    iterate: <T, U>(iteratee: (value: T, key: string, iterationNumber: number) => U) => {
      let n = 1;
      for (const [key, value] of data) {
        const result = iteratee(value as T, key, n++);
        if (result !== undefined) return Promise.resolve(result);
      }
      return Promise.resolve(undefined as U);
    },
  };
}

/** Same copy semantics as the persistent drivers: callers never share the stored object. */
function structuredCloneSafe<T>(value: T): T {
  return typeof structuredClone === 'function' ? structuredClone(value) : (JSON.parse(JSON.stringify(value)) as T);
}
