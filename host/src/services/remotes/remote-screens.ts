import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { CONTRACT_VERSION, isRemoteScreenModule, type RemoteScreenModule } from '@special-gift/shared';
import { REMOTE_NAMES, type RemoteName } from '../../config/runtime-config';
import { sleep, yieldToBrowser } from '../scheduling/timing';
import { recordSignal } from '../telemetry/signals';
import { RemoteLoadError } from './remote-load-error';
import { corsEntryScripts, yieldBetweenLoadSteps } from './yield-between-load-steps';

/** The slice of the federation runtime this module uses (the real one is `@module-federation/enhanced/runtime`). */
export interface FederationRuntime {
  registerRemotes(remotes: Array<{ name: string; entry: string }>, options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
  /** Absent from the benchmark's monolith, which imports the screens directly. */
  registerPlugins?(plugins: ModuleFederationRuntimePlugin[]): void;
}

export interface RemoteScreensOptions {
  runtime: FederationRuntime;
  entries: Readonly<Record<RemoteName, string>>;
  /**
   * Loads the remote's translations for the current language before the screen renders; `fresh`
   * asks for new requests rather than joining ones in flight (the user's Try again).
   */
  loadTexts: (namespace: string, entryUrl: string, options: { fresh: boolean }) => Promise<unknown>;
  /** How long one attempt, its automatic retry included, may take before it counts as failed. */
  timeoutMs?: number;
  /** The pause before the automatic retry of a load that failed outright. */
  retryDelayMs?: number;
  /**
   * The integrity the page requires of a URL (config/page-integrity.ts): set on each entry script;
   * undefined for a URL outside every released build's folder.
   */
  integrityOf?: (url: string) => string | undefined;
}

/**
 * The bound on one attempt. The screen says it is slow long before (SLOW_NOTICE_MS) and offers
 * Try again; past this bound a screen of a few tens of KB is not coming, even over a poor mobile
 * network, and the error screen says so.
 */
export const DEFAULT_REMOTE_TIMEOUT_MS = 15_000;

/**
 * When the loading state starts saying "taking longer than usual" (with Try again). A screen
 * needs about three round trips and 30 KB: about 3 s on a slow 3G link (400 ms RTT, 400 kbit/s).
 * 5 s is past that and well inside the ~10 s after which people give up on a wait they are not told about.
 */
export const SLOW_NOTICE_MS = 5_000;

/** One automatic retry rides out a single 5xx or a dropped connection; the pause lets a restarting server come back. */
export const DEFAULT_RETRY_DELAY_MS = 600;

export interface RemoteScreens {
  /**
   * The screen module, loaded once and cached; a load in flight is joined. A failure is not cached:
   * the next call starts again, without a page reload.
   */
  load(name: RemoteName): Promise<RemoteScreenModule>;
  /** The user's Try again: a new attempt at once, whatever the one in flight is doing. */
  retry(name: RemoteName): Promise<RemoteScreenModule>;
  /** Loads every remote's code and texts, each on its own; failures are logged, never thrown. */
  preloadAll(): Promise<void>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How long the check of a failed load's file may take before the failure is reported as it is. */
const INTEGRITY_CHECK_TIMEOUT_MS = 5_000;

/**
 * The file whose load failed: a chunk's or stylesheet's (`request`: webpack's loaders always set
 * its integrity, from the remote's entry), the texts' (`url`), else the entry.
 */
function failedFile(error: unknown, entry: string): { url: string; chunk: boolean } {
  let cause: unknown = error;
  while (cause instanceof RemoteLoadError) cause = cause.cause;
  const shape = (typeof cause === 'object' && cause !== null ? cause : {}) as { request?: unknown; url?: unknown };
  if (typeof shape.request === 'string') return { url: shape.request, chunk: true };
  return { url: typeof shape.url === 'string' ? shape.url : entry, chunk: false };
}

/**
 * Whether a failed load was the browser refusing a file checked by integrity (any chunk, or a
 * released build's entry or texts): the file is there (the same URL answers 200 now), but loading
 * it with its integrity failed. A refused script or fetch fails exactly like one cut by the
 * network, so this one extra request, made only after a failure, tells them apart for telemetry.
 */
async function refusedByIntegrity(
  error: unknown,
  entry: string,
  integrityOf: (url: string) => string | undefined,
): Promise<boolean> {
  if (!(error instanceof RemoteLoadError) || error.reason !== 'unavailable') return false;
  const { url, chunk } = failedFile(error, entry);
  if (!chunk && integrityOf(url) === undefined) return false;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), INTEGRITY_CHECK_TIMEOUT_MS);
  try {
    const response = await fetch(url, { cache: 'no-store', credentials: 'omit', signal: controller.signal });
    return response.ok;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function createRemoteScreens(options: RemoteScreensOptions): RemoteScreens {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const pending = new Map<RemoteName, Promise<RemoteScreenModule>>();
  /** Remotes whose runtime state may hold a failed or abandoned load, to be reset before the next one. */
  const stale = new Set<RemoteName>();
  const resets = new Map<RemoteName, number>();

  const integrityOf = options.integrityOf ?? (() => undefined);
  options.runtime.registerPlugins?.([yieldBetweenLoadSteps(), corsEntryScripts(integrityOf)]);
  options.runtime.registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: options.entries[name] })));

  /**
   * Drops the runtime's cached container and entry for `name`, under a new entry URL: the runtime
   * and the browser share one load per URL, and a request that never answers would otherwise
   * hold every later attempt. (The remote's public path ignores the query.)
   */
  function reset(name: RemoteName) {
    const count = (resets.get(name) ?? 0) + 1;
    resets.set(name, count);
    const entry = options.entries[name];
    options.runtime.registerRemotes([{ name, entry: `${entry}${entry.includes('?') ? '&' : '?'}attempt=${count}` }], {
      force: true,
    });
    stale.delete(name);
  }

  async function fetchScreen(name: RemoteName, fresh: boolean): Promise<RemoteScreenModule> {
    // Remotes name their namespace after themselves, so the texts load in parallel with the code
    // instead of after it (one round trip less before the screen shows).
    const texts = options.loadTexts(name, options.entries[name], { fresh });
    texts.catch(() => undefined); // awaited below once the module is known to be usable
    let module: unknown;
    try {
      module = await options.runtime.loadRemote<unknown>(`${name}/Screen`);
    } catch (cause) {
      throw new RemoteLoadError(name, 'unavailable', { cause });
    }
    // The runtime answers null when an error hook swallowed the failure.
    if (module === null || module === undefined) throw new RemoteLoadError(name, 'unavailable');
    if (!isRemoteScreenModule(module) || module.meta.contractVersion !== CONTRACT_VERSION) {
      throw new RemoteLoadError(name, 'incompatible');
    }
    try {
      await texts;
      if (module.meta.namespace !== name)
        await options.loadTexts(module.meta.namespace, options.entries[name], { fresh });
    } catch (cause) {
      throw new RemoteLoadError(name, 'unavailable', { cause });
    }
    return module;
  }

  /** One attempt: a try and, if it failed outright (not incompatible), one more after a short pause. */
  async function fetchWithRetry(
    name: RemoteName,
    fresh: boolean,
    isCurrent: () => boolean,
  ): Promise<RemoteScreenModule> {
    try {
      return await fetchScreen(name, fresh);
    } catch (error) {
      if (!(error instanceof RemoteLoadError) || error.reason !== 'unavailable') throw error;
      await sleep(retryDelayMs);
      if (!isCurrent()) throw error; // the user already started another attempt
      reset(name);
      return fetchScreen(name, false);
    }
  }

  function start(name: RemoteName, fresh: boolean): Promise<RemoteScreenModule> {
    if (fresh || stale.has(name)) reset(name);
    const isCurrent = () => pending.get(name) === attempt;
    // Bookkeeping runs inside the chain, so whoever sees the rejection can already load again.
    const attempt: Promise<RemoteScreenModule> = withTimeout(
      fetchWithRetry(name, fresh, isCurrent),
      timeoutMs,
      () => new RemoteLoadError(name, 'timeout'),
    ).then(
      (module) => {
        // React's `use()` returns a thenable marked fulfilled at once, without suspending: a
        // preloaded screen renders in the same frame as the navigation.
        Object.assign(attempt, { status: 'fulfilled', value: module });
        return module;
      },
      (error: unknown) => {
        if (isCurrent()) {
          pending.delete(name);
          stale.add(name);
        }
        // The error screen shows at once; telemetry gets the failure once the check has told a
        // refused file from a network failure (it only words the report, never what the user sees).
        void refusedByIntegrity(error, options.entries[name], integrityOf).then((refused) =>
          recordSignal({
            kind: 'load_failure',
            remote: name,
            error: refused ? new RemoteLoadError(name, 'unavailable', { cause: error, integrity: true }) : error,
          }),
        );
        throw error;
      },
    );
    pending.set(name, attempt);
    attempt.catch(() => undefined); // callers handle the failure; this only marks it as handled
    return attempt;
  }

  return {
    load: (name) => pending.get(name) ?? start(name, false),
    retry: (name) => start(name, true),
    async preloadAll() {
      const loads: Array<{ name: RemoteName; load: Promise<unknown> }> = [];
      let started = 0;
      for (const name of REMOTE_NAMES) {
        // Each remote's load starts in a task of its own (all at once is one long task); a
        // navigation during the wait may have started it already.
        if (!pending.has(name) && started++ > 0) await yieldToBrowser();
        loads.push({ name, load: pending.get(name) ?? start(name, false) });
      }
      await Promise.all(
        loads.map(({ name, load }) =>
          load.catch((error: unknown) => {
            console.warn(`[preload] ${name} could not be preloaded; it will be retried on navigation.`, error);
          }),
        ),
      );
    },
  };
}
