import type { KeyValueStorage } from '../contract/storage';

/** localStorage-backed storage for standalone development (the host uses localforage). */
export function createDevStorage(prefix = 'sg-dev-shell/'): KeyValueStorage {
  const keys = () => Object.keys(localStorage).filter((key) => key.startsWith(prefix));
  return {
    get: async <T>(key: string) => {
      const raw = localStorage.getItem(prefix + key);
      return raw === null ? null : (JSON.parse(raw) as T);
    },
    set: async <T>(key: string, value: T) => {
      localStorage.setItem(prefix + key, JSON.stringify(value ?? null));
      return value;
    },
    remove: async (key) => localStorage.removeItem(prefix + key),
    keys: async () => keys().map((key) => key.slice(prefix.length)),
    clear: async () => keys().forEach((key) => localStorage.removeItem(key)),
    driver: () => 'devLocalStorage',
  };
}
