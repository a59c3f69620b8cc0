import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  currentProblem,
  selectForBucket,
  signingKey,
  stateKeys,
  stateProblem,
  type ReleaseCurrent,
  type ReleaseState,
  type StateKey,
} from '@special-gift/shared/release-state';

/**
 * The release state as the Node composer reads it: from the build store, never from the API
 * (docs/releases.md, "Release state"). The images' nginx still asks the API's snapshot; reading the
 * state there too (njs) is the next step of issue 40.
 *
 * Each read takes `current.json`, checks its signature with one of the keys the host trusts, then
 * takes the state it names (immutable, kept once read) and checks its SHA-256 against the signed
 * one. What fails a check is refused whole and the last accepted state stays in use: a store that
 * is down, slow, or serving a tampered or older object changes nothing a visitor gets.
 */

/** Reads one object of the store by key: its text, or undefined when there is no such object. */
export type StoreReader = (key: string) => Promise<string | undefined>;

/** The build store's folder (`npm run up`'s `.data/builds`): keys are paths under it. */
export function folderReader(root: string): StoreReader {
  const base = path.resolve(root);
  return async (key) => {
    const file = path.resolve(base, key);
    if (!file.startsWith(`${base}${path.sep}`)) throw new Error(`Key outside the store: ${key}`);
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
}

/** The bucket over HTTP (its public base URL, with the prefix): 404 is "none", other failures throw. */
export function httpReader(base: string, fetchImpl: typeof fetch = fetch, timeoutMs = 500): StoreReader {
  const root = base.replace(/\/+$/, '');
  return async (key) => {
    const response = await fetchImpl(`${root}/${key}`, { signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${key}`);
    return response.text();
  };
}

export interface ReleaseStateSourceOptions {
  readonly read: StoreReader;
  readonly environment: string;
  /** The keys the host trusts (RELEASE_STATE_KEYS): any one of them may have signed. */
  readonly keys: readonly StateKey[];
  /** How old an accepted state may be before the next page reads the store again. */
  readonly refreshMs?: number;
  readonly now?: () => number;
}

export interface ReleaseStateStatus {
  /** The serial in use, or none before the first accepted state. */
  readonly serial?: number;
  /** When the store last answered with a state that passed every check. */
  readonly acceptedAt?: number;
  /** Why the last read was refused or failed, if it was. */
  readonly problem?: string;
}

/** The page's builds and integrity, as `Sg-Builds` and the integrity pairs carry them. */
export interface PageSelection {
  readonly builds: string;
  readonly integrity: string;
}

export function createReleaseStateSource(options: ReleaseStateSourceOptions) {
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 1000;
  const keys = stateKeys(options.environment);
  let accepted: { state: ReleaseState; current: ReleaseCurrent } | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let acceptedAt: number | undefined;
  let problem: string | undefined;
  // One read at a time: the pages that arrive meanwhile get the state in use.
  let reading: Promise<void> | undefined;

  async function readOnce(): Promise<void> {
    try {
      const next = await readVerified();
      if (next) {
        accepted = next;
        acceptedAt = now();
      }
      problem = undefined;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    } finally {
      checkedAt = now();
      reading = undefined;
    }
  }

  /** The newer state if the store names one, undefined if unchanged; throws why it is refused. */
  async function readVerified(): Promise<{ state: ReleaseState; current: ReleaseCurrent } | undefined> {
    const text = await options.read(keys.current);
    if (text === undefined) {
      if (accepted) throw new Error('current.json is gone from the store');
      return undefined; // nothing released yet: every remote's image build
    }
    const current = parseJson(text, 'current.json') as ReleaseCurrent;
    const malformed = currentProblem(current);
    if (malformed) throw new Error(`current.json refused: ${malformed}`);
    if (current.environment !== options.environment)
      throw new Error(`current.json refused: it is ${current.environment}'s, not ${options.environment}'s`);
    if (!signingKey(current, options.keys, hmacBase64url))
      throw new Error(`current.json refused: its signature does not match key "${current.keyId}"`);
    if (accepted && current.serial < accepted.current.serial)
      throw new Error(`current.json refused: serial ${current.serial} is older than ${accepted.current.serial}`);
    if (accepted && current.serial === accepted.current.serial) return undefined;
    const body = await options.read(`${keys.folder}/${current.state}`);
    if (body === undefined) throw new Error(`${current.state} is missing from the store`);
    if (createHash('sha256').update(body).digest('hex') !== current.sha256)
      throw new Error(`${current.state} refused: its SHA-256 is not the one current.json signs`);
    const state = parseJson(body, current.state) as ReleaseState;
    const bad = stateProblem(state);
    if (bad) throw new Error(`${current.state} refused: ${bad}`);
    if (state.serial !== current.serial || state.environment !== current.environment)
      throw new Error(`${current.state} refused: its serial or environment is not current.json's`);
    return { state, current };
  }

  return {
    /** The builds a page of this bucket gets, or undefined when nothing is released (image builds). */
    async forBucket(bucket: number): Promise<PageSelection | undefined> {
      if (now() - checkedAt >= refreshMs) {
        reading ??= readOnce();
        // The first page waits for the first read; later ones never wait on the store.
        if (!accepted) await reading;
      }
      return accepted ? selectForBucket(accepted.state, bucket) : undefined;
    },
    /** Reads the store now (a test, or a start that should not serve before it knows). */
    async refresh(): Promise<void> {
      reading ??= readOnce();
      await reading;
    },
    status(): ReleaseStateStatus {
      return { serial: accepted?.state.serial, acceptedAt, problem };
    },
  };
}

export type ReleaseStateSource = ReturnType<typeof createReleaseStateSource>;

/** HMAC-SHA256, base64url: the shared module's `HmacBase64url` in Node. */
export const hmacBase64url = (secret: string, data: string) =>
  createHmac('sha256', secret).update(data).digest('base64url');

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${what} refused: not JSON`);
  }
}
