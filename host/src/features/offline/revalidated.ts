import { NetworkFirst, type StrategyOptions } from 'workbox-strategies';

type WorkboxPlugin = NonNullable<StrategyOptions['plugins']>[number];

/** Past this, a page, config.json or a text comes from the cache: a phone with one bar of signal. */
export const NETWORK_TIMEOUT_SECONDS = 3;

/**
 * The files kept by URL that change in place (pages, config.json, texts, an image build's entry and
 * manifest) are written only with their whole set (`commitSet`), never as a page loads them: else
 * a refresh that fails half-way would leave the old pages with a new entry or config.
 */
export const writtenOnlyWithItsSet: WorkboxPlugin = { cacheWillUpdate: async () => null };

/** Network first (online, what the server has now); offline or slow, the last kept set's copy. */
export const revalidated = (cacheName: string, matchOptions?: CacheQueryOptions) =>
  new NetworkFirst({
    cacheName,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    ...(matchOptions ? { matchOptions } : {}),
    plugins: [writtenOnlyWithItsSet],
  });
