import { createHmac, randomBytes } from 'node:crypto';
import { mintPageToken, type HmacBytes } from '@special-gift/shared/telemetry';

/**
 * The Node composer's page tokens, signed here with the key the API checks them with
 * (docs/telemetry.md, "Signed page views"): a page costs no request to the API. The guarantees
 * stay where they were: the MAC binds the builds, bucket and environment; the id carries the
 * visitor's network; single use and the per-network cap are the API's, when the batch comes.
 * What the API's issue endpoint also did, limit how many tokens one address gets, is done here.
 */
export interface PageTokenSignerOptions {
  /** The keys (shared's `pageTokenKeys`): the first signs. None: no tokens, every batch unsigned. */
  readonly keys: readonly Uint8Array[];
  readonly environment: string;
  /** Tokens per client address per minute (the API's `PAGE_TOKENS_PER_MINUTE`; 0: no limit); beyond it a page gets none. */
  readonly perMinute: number;
  /** Epoch milliseconds; tests move it. */
  readonly now?: () => number;
}

export const hmacBytes: HmacBytes = (key, data) => new Uint8Array(createHmac('sha256', key).update(data).digest());

/** Addresses remembered at most; past it the oldest minute's are forgotten first. */
const MAX_ADDRESSES = 50_000;

export function createPageTokenSigner(options: PageTokenSignerOptions) {
  const now = options.now ?? Date.now;
  const [key] = options.keys;
  let minute = -1;
  let counts = new Map<string, number>();

  /** Whether this address may have one more token this minute (and counts it). */
  function allowed(address: string): boolean {
    if (options.perMinute === 0) return true;
    const current = Math.floor(now() / 60_000);
    if (current !== minute || counts.size >= MAX_ADDRESSES) {
      minute = current;
      counts = new Map();
    }
    const used = counts.get(address) ?? 0;
    if (used >= options.perMinute) return false;
    counts.set(address, used + 1);
    return true;
  }

  /** A token for a page of this bucket composed with these builds, or undefined (off, or the address's limit spent). */
  return function signPageToken(bucket: number, builds: string, client: string | undefined): string | undefined {
    if (key === undefined || !allowed(client ?? 'unknown')) return undefined;
    return mintPageToken(hmacBytes, key, options.environment, {
      bucket,
      builds,
      nowSeconds: Math.floor(now() / 1000),
      client,
      random8: randomBytes(8),
    });
  };
}

export type PageTokenSigner = ReturnType<typeof createPageTokenSigner>;
