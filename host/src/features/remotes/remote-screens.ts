import { CONTRACT_VERSION, isRemoteScreenModule, type RemoteScreenModule } from '@special-gift/shared';
import { REMOTE_NAMES, type RemoteName } from '../../config/runtime-config';
import { RemoteLoadError } from './remote-load-error';

/** The slice of the federation runtime this module uses (the real one is `@module-federation/enhanced/runtime`). */
export interface FederationRuntime {
  registerRemotes(remotes: Array<{ name: string; entry: string }>, options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
}

export interface RemoteScreensOptions {
  runtime: FederationRuntime;
  entries: Readonly<Record<RemoteName, string>>;
  /** Loads the remote's translations for the current language before the screen renders. */
  loadTexts: (namespace: string, entryUrl: string) => Promise<unknown>;
  /** How long one attempt may take before it counts as failed. */
  timeoutMs?: number;
}

/**
 * A load that takes longer than this is reported as failed: long enough for a slow phone network
 * to fetch the entry and the screen chunk, short enough that the user is not left staring.
 */
export const DEFAULT_REMOTE_TIMEOUT_MS = 15_000;

export interface RemoteScreens {
  /**
   * The screen module, loaded once and cached. A failure is not cached: the next call re-registers
   * the remote (dropping the runtime's cached entry) and tries again, without a page reload.
   */
  load(name: RemoteName): Promise<RemoteScreenModule>;
  /** Loads every remote's code and texts; failures are logged, never thrown. */
  preloadAll(): Promise<void>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createRemoteScreens(options: RemoteScreensOptions): RemoteScreens {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const pending = new Map<RemoteName, Promise<RemoteScreenModule>>();
  const failed = new Set<RemoteName>();

  options.runtime.registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: options.entries[name] })));

  async function fetchScreen(name: RemoteName): Promise<RemoteScreenModule> {
    // Remotes name their namespace after themselves, so the texts load in parallel with the code
    // instead of after it (one round trip less before the screen shows).
    const texts = options.loadTexts(name, options.entries[name]);
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
    await texts;
    if (module.meta.namespace !== name) await options.loadTexts(module.meta.namespace, options.entries[name]);
    return module;
  }

  function load(name: RemoteName): Promise<RemoteScreenModule> {
    const existing = pending.get(name);
    if (existing) return existing;
    if (failed.delete(name)) {
      options.runtime.registerRemotes([{ name, entry: options.entries[name] }], { force: true });
    }
    // Bookkeeping runs inside the chain, so whoever sees the rejection can already load again.
    const attempt = withTimeout(fetchScreen(name), timeoutMs, () => new RemoteLoadError(name, 'timeout')).then(
      (module) => {
        // React's `use()` returns a thenable marked fulfilled at once, without suspending: a
        // preloaded screen renders in the same frame as the navigation.
        Object.assign(attempt, { status: 'fulfilled', value: module });
        return module;
      },
      (error: unknown) => {
        pending.delete(name);
        failed.add(name);
        throw error;
      },
    );
    pending.set(name, attempt);
    attempt.catch(() => undefined); // callers handle the failure; this only marks it as handled
    return attempt;
  }

  return {
    load,
    async preloadAll() {
      await Promise.all(
        REMOTE_NAMES.map((name) =>
          load(name).catch((error: unknown) => {
            console.warn(`[preload] ${name} could not be preloaded; it will be retried on navigation.`, error);
          }),
        ),
      );
    },
  };
}
