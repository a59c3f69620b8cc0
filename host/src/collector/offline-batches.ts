/**
 * Telemetry batches made with no network (docs/offline.md, "Telemetry"): a beacon sent offline is
 * lost without a word, so the batch is kept on the device instead, at most MAX_KEPT_BATCHES of
 * them (the newest; an older one is dropped and counted), and sent once by the next page that
 * loads the collector online. Sent once, whatever the answer: never retried without end.
 */
export const KEPT_BATCHES_KEY = 'sg-telemetry-offline';
/** Batches dropped because the bound was reached: counted on the device, for whoever debugs it. */
export const DROPPED_BATCHES_KEY = 'sg-telemetry-dropped';
export const MAX_KEPT_BATCHES = 3;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function keptBatches(store: Store): string[] {
  try {
    const kept = JSON.parse(store.getItem(KEPT_BATCHES_KEY) ?? '[]') as unknown;
    return Array.isArray(kept) ? kept.filter((batch): batch is string => typeof batch === 'string') : [];
  } catch {
    return []; // unreadable: nothing to send
  }
}

/** Sends the batch now, or, offline, keeps it for the next page. */
export function sendOrKeep(
  body: string,
  send: (body: string) => void,
  store: Store = localStorage,
  online = navigator.onLine,
): void {
  if (online) return send(body);
  try {
    const kept = [...keptBatches(store), body];
    const dropped = Math.max(0, kept.length - MAX_KEPT_BATCHES);
    store.setItem(KEPT_BATCHES_KEY, JSON.stringify(kept.slice(dropped)));
    if (dropped > 0)
      store.setItem(DROPPED_BATCHES_KEY, String(Number(store.getItem(DROPPED_BATCHES_KEY) ?? 0) + dropped));
  } catch {
    // storage refused (full, private mode): the batch is lost, as a beacon sent offline would be
  }
}

/** Online: sends each kept batch once, and forgets them. */
export function sendKept(send: (body: string) => void, store: Store = localStorage, online = navigator.onLine): void {
  if (!online) return;
  const kept = keptBatches(store);
  if (kept.length === 0) return;
  store.removeItem(KEPT_BATCHES_KEY);
  for (const batch of kept) send(batch);
}
