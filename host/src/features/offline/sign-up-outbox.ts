import {
  isHttpError,
  isQueuedSignUp,
  SIGN_UP_OUTBOX_EVENT,
  SIGN_UP_OUTBOX_MAX_AGE_MS,
  SIGN_UP_OUTBOX_STORAGE_KEY,
  SIGN_UP_RESULT_STORAGE_KEY,
  type HttpClient,
  type KeyValueStorage,
  type QueuedSignUp,
  type SignUpResult,
} from '@special-gift/shared';
import type { CreatedSignUp } from '@special-gift/shared/api';

/**
 * Waits before each new try after a 5xx, a 429 or no answer: then the page waits for the network
 * to come back (`online`) or the next start. Never more tries than this per page.
 */
export const OUTBOX_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000, 60_000, 300_000];
/**
 * One writer of the kept sign-up at a time across the app's tabs (Web Locks, where the engine has
 * them): the senders, and the shell's notice acting on what it showed.
 */
const LOCK_NAME = 'sg-sign-up-outbox';

type Locks = Pick<LockManager, 'request'>;

/** Runs `run` holding the outbox's lock (or as is where the engine has no Web Locks). */
export async function withOutboxLock<T>(run: () => Promise<T>, locks?: Locks): Promise<T> {
  const manager = locks ?? (typeof navigator !== 'undefined' ? navigator.locks : undefined);
  return manager ? ((await manager.request(LOCK_NAME, run)) as T) : run();
}

export interface OutboxDeps {
  readonly storage: KeyValueStorage;
  readonly http: HttpClient;
  readonly now?: () => number;
  readonly locks?: Locks;
}

export interface OutboxStartDeps extends OutboxDeps {
  /**
   * Tells the user of a kept sign-up that did not go (refused, expired): on start, whatever the
   * screen, and whenever a sender (this tab, another, the worker) reports one.
   */
  readonly tellUnsent?: () => Promise<void>;
}

export type SendOutcome = 'none' | 'sent' | 'refused' | 'expired' | 'retry';

/** The Background Sync tag the page registers when it keeps a sign-up (Chromium only). */
export const OUTBOX_SYNC_TAG = 'sg-sign-up-outbox';

/** What the worker tells the app's pages after a send: the host relays it as SIGN_UP_OUTBOX_EVENT. */
export interface OutboxMessage {
  readonly type: typeof SIGN_UP_OUTBOX_EVENT;
  readonly state: SendOutcome;
}

/**
 * Asks the browser to wake the worker when the network is back (Background Sync, Chromium), so
 * the sign-up goes even if every tab is closed. Elsewhere, or with no worker: nothing.
 */
async function requestBackgroundSync(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const sync = (registration as { sync?: { register(tag: string): Promise<void> } } | undefined)?.sync;
  await sync?.register(OUTBOX_SYNC_TAG);
}

const tellThisTab = (state: SendOutcome) =>
  window.dispatchEvent(new CustomEvent(SIGN_UP_OUTBOX_EVENT, { detail: { state } }));

/**
 * Sends the sign-up kept on this device, once (docs/offline.md, "The queue"): under a lock, it is
 * read again, so of two tabs coming back online at once only one sends, and a repeat is answered
 * by the API from its idempotency key anyway. Acknowledged: deleted, the result kept for the
 * thank-you screen. Refused (4xx): kept with the refusal, for the sign-up screen to show. A 5xx,
 * a 429 or no answer: kept, tried again. Past its age (queued or refused): its details deleted, the user told.
 */
export async function sendQueuedSignUp(deps: OutboxDeps): Promise<SendOutcome> {
  const run = async (): Promise<SendOutcome> => {
    const entry = await deps.storage.get<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY);
    if (!isQueuedSignUp(entry) || entry.state === 'expired') return 'none';
    // A refusal keeps the person's details for the sign-up screen: never longer than a queued one.
    if ((deps.now ?? Date.now)() - Date.parse(entry.queuedAt) > SIGN_UP_OUTBOX_MAX_AGE_MS) {
      await deps.storage.set<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY, { state: 'expired', queuedAt: entry.queuedAt });
      return 'expired';
    }
    if (entry.state !== 'queued') return 'none';
    try {
      // The client reads the XSRF cookie now, and asks the API for a pair first when it has none.
      const created = await deps.http.post<CreatedSignUp>('sign-ups', entry.body, {
        headers: { 'Idempotency-Key': entry.idempotencyKey },
      });
      const result: SignUpResult = {
        firstName: created.firstName,
        email: created.email,
        cardLast4: created.cardLast4,
        createdAt: created.createdAt,
      };
      await deps.storage.set(SIGN_UP_RESULT_STORAGE_KEY, result);
      await deps.storage.remove(SIGN_UP_OUTBOX_STORAGE_KEY);
      return 'sent';
    } catch (error) {
      const status = isHttpError(error) && error.kind === 'http' ? (error.status ?? 500) : undefined;
      const apiError = isHttpError(error) ? error.body?.error : undefined;
      // Not an answer about the sign-up: the API was unreachable, busy, or the XSRF pair stale.
      if (status === undefined || status >= 500 || status === 429 || apiError?.code === 'xsrf_mismatch') return 'retry';
      await deps.storage.set<QueuedSignUp>(SIGN_UP_OUTBOX_STORAGE_KEY, {
        state: 'refused',
        body: entry.body,
        queuedAt: entry.queuedAt,
        ...(apiError?.code ? { code: apiError.code } : {}),
        ...(apiError?.fields ? { fields: apiError.fields } : {}),
      });
      return 'refused';
    }
  };
  return withOutboxLock(run, deps.locks);
}

/**
 * The host's sender: on start, whenever the network comes back, and when the sign-up screen
 * queues one (it may be back already). Tells the screens each outcome (`SIGN_UP_OUTBOX_EVENT`).
 */
export function startSignUpOutbox(deps: OutboxStartDeps): void {
  const tellUnsent = () => void deps.tellUnsent?.().catch(() => undefined);
  // The tab that sends tells the others (one may be showing the kept sign-up's message).
  const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel(LOCK_NAME) : undefined;
  tabs?.addEventListener('message', (event: MessageEvent<{ state?: SendOutcome }>) => {
    if (event.data?.state) tellThisTab(event.data.state);
  });
  const announce = (state: SendOutcome) => {
    tellThisTab(state);
    tabs?.postMessage({ state });
  };
  let retries = 0;
  let timer: number | undefined;
  let sending = false;
  const attempt = async () => {
    if (sending) return;
    sending = true;
    window.clearTimeout(timer);
    try {
      const outcome = await sendQueuedSignUp(deps).catch(() => 'retry' as const);
      if (outcome === 'none') return;
      if (outcome !== 'retry') {
        retries = 0;
        announce(outcome);
        return;
      }
      const delay = OUTBOX_RETRY_DELAYS_MS[retries++];
      if (delay !== undefined) timer = window.setTimeout(() => void attempt(), delay);
    } finally {
      sending = false;
    }
  };
  window.addEventListener('online', () => {
    retries = 0;
    void attempt();
  });
  window.addEventListener(SIGN_UP_OUTBOX_EVENT, (event) => {
    const state = (event as CustomEvent<{ state: string }>).detail?.state;
    if (state === 'refused' || state === 'expired') return tellUnsent();
    if (state !== 'queued') return;
    void attempt();
    requestBackgroundSync().catch(() => undefined); // refused or unsupported: the page's own triggers remain
  });
  // The worker sent it (Background Sync): the screens hear it as from the page's own sender.
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<Partial<OutboxMessage>>) => {
    const { type, state } = event.data ?? {};
    if (type === SIGN_UP_OUTBOX_EVENT && (state === 'sent' || state === 'refused' || state === 'expired'))
      tellThisTab(state); // the worker tells every tab itself
  });
  // On start: one refused or expired earlier (maybe while the app was closed) is told now.
  void attempt().then(tellUnsent);
}
