/// <reference lib="webworker" />
/**
 * The host's service worker (docs/offline.md): the app opens with no network after one visit, and
 * never mixes two builds of a remote. Built on its own (tooling/build/webpack), registered by the page
 * once its first screen is up and the other screens are preloaded.
 *
 * - The composed pages: network first (3 s), so a release or a rollback reaches the next page as
 *   without a worker; offline, the last set's page of the route.
 * - A published build (`…/builds/<id>/`): cache first, in a cache of its own, filled with every
 *   file of the build before any kept page names it. Its URL holds its id, so any worker version,
 *   any tab, gets the same bytes for it.
 * - config.json and texts: network first (3 s), written only with their set. Hashed files: cache first.
 * - Everything else (the API, sign-ups, telemetry) is not handled: it never enters a cache.
 * Every response kept is a CORS or same-origin 200, never opaque: the page's integrity check
 * (SRI) runs on it as on the network's.
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, type Strategy } from 'workbox-strategies';
import { parseRuntimeConfig } from '../../config/runtime-config';
import { sendOnBackgroundSync } from './background-sync';
import { retire } from './retire';
import { NETWORK_TIMEOUT_SECONDS, revalidated, writtenOnlyWithItsSet } from './revalidated';
import {
  buildCacheName,
  buildFiles,
  buildsInPage,
  CACHE,
  commitSet,
  COMPLETE_MARKER,
  countRefusal,
  fileRoute,
  type FileRoute,
  HOST_REVALIDATED_FILES,
  hostFilesInPage,
  isHashedFile,
  META_KEY,
  NO_SET,
  OFFLINE_ROUTES,
  type OfflineSet,
  REFRESH_SET_MESSAGE,
  publishedBuildBase,
  purge,
  recordRefused,
  remoteBuilds,
  setBudget,
  type SetRefusal,
  SetTooLarge,
  snapshotOf,
  type StagedFile,
  wasRefused,
} from './offline-set';

declare const self: ServiceWorkerGlobalScope;

/** Bound on the host's hashed files kept (two sets' worth is about ten). */
const MAX_SHELL_ENTRIES = 40;
/** Bound on an image build's files kept by URL (besides the purge by set). */
const MAX_IMAGE_ENTRIES = 120;

const ok = () => new CacheableResponsePlugin({ statuses: [200] });
/**
 * The remotes answer `Vary: Origin` (their CORS header names the host); every response kept here
 * was fetched for this one origin, so a lookup ignores it (the set's own puts carry no Origin).
 */
const matchOptions: CacheQueryOptions = { ignoreVary: true };

// Takes over at once, and so does every later version: no version changes what a cache name holds
// (a build's cache is its id's bytes, a page cache the last set's pages), so an open tab gets the
// same bytes for the same URL from any version (docs/offline.md, "Updates").
self.addEventListener('install', () => void self.skipWaiting());
// No navigation preload: with it, Firefox ESR 153 fails the navigation when the preload is refused
// (no network) instead of letting the worker answer from its cache (docs/offline.md, "By engine").
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
// The page that registered the worker came from the network, not through it: it asks for its set
// (register-worker.ts). Not in `activate`: the page's requests would wait for the whole fill.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === REFRESH_SET_MESSAGE) event.waitUntil(refreshSoon());
});

const sameOrigin = (url: URL) => url.origin === self.location.origin;
const isRoute = (url: URL) => OFFLINE_ROUTES.includes(url.pathname);

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isRoute(url),
  new NetworkFirst({
    cacheName: CACHE.pages,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    // `?card=…` and the like open the route's page: the app reads the query itself.
    matchOptions: { ignoreSearch: true, ignoreVary: true },
    plugins: [
      // Pages are kept only with their whole set (refreshSet), never one by one.
      writtenOnlyWithItsSet,
      {
        // After each page it answered (offline, the refresh fails at its first request, harmlessly).
        handlerDidRespond: async ({ event }) => event.waitUntil(refreshAfterLoad()),
      },
    ],
  }),
);

/**
 * A file request this rule answers: by `fileRoute` (a remote on the host's origin too); another
 * origin's only with CORS, so no response kept is opaque.
 */
const files =
  (route: FileRoute) =>
  ({ request, url }: { request: Request; url: URL }) =>
    request.mode !== 'navigate' &&
    fileRoute(url, self.location.origin) === route &&
    (sameOrigin(url) || request.mode === 'cors');

// config.json and the texts: written only with their set (commitSet), as the pages are.
registerRoute(files('host-revalidated'), revalidated(CACHE.shell));
registerRoute(
  files('host-hashed'),
  new CacheFirst({
    cacheName: CACHE.shell,
    // Not purged on a quota error: the kept pages need these files; a refresh that finds no room
    // drops the pages instead (commitSet), so no page is served offline whose files are gone.
    plugins: [ok(), new ExpirationPlugin({ maxEntries: MAX_SHELL_ENTRIES })],
  }),
);

/** One cache-first strategy per published build's cache. */
const buildStrategies = new Map<string, Strategy>();
registerRoute(files('published-build'), (options) => {
  const name = buildCacheName(publishedBuildBase(options.url.href) ?? '');
  let strategy = buildStrategies.get(name);
  if (!strategy)
    buildStrategies.set(name, (strategy = new CacheFirst({ cacheName: name, matchOptions, plugins: [ok()] })));
  return strategy.handle(options);
});

// A remote on its image's own build (no release pointer): its entry, manifest and texts change in
// place on a redeploy, so they are network first, written only with their set; its hashed files
// are cache first.
// (Not purged on a quota error either: the kept pages may need these files.)
const imageLimit = new ExpirationPlugin({ maxEntries: MAX_IMAGE_ENTRIES });
registerRoute(
  files('image-hashed'),
  new CacheFirst({ cacheName: CACHE.image, matchOptions, plugins: [ok(), imageLimit] }),
);
registerRoute(files('image-entry'), revalidated(CACHE.image, matchOptions));

// A sign-up kept on the device, sent when the browser says the network is back (Chromium).
sendOnBackgroundSync(self, async () => {
  const config =
    (await caches.match(new URL('/config.json', self.location.href).href)) ?? (await fetch('/config.json'));
  return parseRuntimeConfig(await config.json()).apiBase;
});

// ---- The offline set: every route's page, the host's files, and one build of each remote ----

/** The set is refreshed this long after a page arrives: its own loads go first. */
const REFRESH_DELAY_MS = 2000;
const refreshAfterLoad = () => new Promise((resolve) => setTimeout(resolve, REFRESH_DELAY_MS)).then(refreshSoon);

let refreshing: Promise<void> | undefined;
let refreshAgain = false;

/** One refresh at a time; a navigation during one asks for one more after it, not one each. */
function refreshSoon(): Promise<void> {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      await refreshSet().catch((error: unknown) => console.warn('[offline] set not refreshed', error));
    } while (refreshAgain);
  })().finally(() => (refreshing = undefined));
  return refreshing;
}

/** A CORS request (never opaque), as the page's `crossorigin` scripts and texts make. */
async function fetchOk(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    credentials: sameOrigin(new URL(url, self.location.href)) ? 'same-origin' : 'omit',
    ...init,
  });
  if (!response.ok || response.type === 'opaque') throw new Error(`${url} answered ${response.status}`);
  return response;
}

const sizeOf = async (response: Response) => (await response.clone().arrayBuffer()).byteLength;

/** An immutable file (hashed name, or in a published build): fetched only if not kept yet. Its size. */
async function keep(cache: Cache, url: string): Promise<number> {
  const kept = await cache.match(url);
  if (kept) return sizeOf(kept);
  const response = await fetchOk(url);
  const size = await sizeOf(response);
  await cache.put(url, response);
  return size;
}

/**
 * Fetches every route's page, and keeps them only once everything they need is kept: the builds
 * their snapshot names (each whole), the host's files. Pages of two snapshots (a release between
 * two of the fetches) are not kept: the next navigation tries again.
 */
async function refreshSet(): Promise<void> {
  const configResponse = await fetchOk('/config.json', { cache: 'no-cache' });
  const config = parseRuntimeConfig(await configResponse.clone().json());
  if (config.serviceWorker === false) return retire(self);

  const pages = await Promise.all(
    OFFLINE_ROUTES.map(async (route) => {
      const response = await fetchOk(route, { cache: 'no-cache', headers: { Accept: 'text/html' } });
      return { route, response, html: await response.clone().text() };
    }),
  );
  const snapshots = new Set(pages.map(({ html }) => JSON.stringify(buildsInPage(html))));
  if (snapshots.size !== 1) throw new Error('a release landed between the pages: not kept');
  const builds = buildsInPage(pages[0]?.html ?? '');

  const hostFiles = [...new Set(pages.flatMap(({ html }) => hostFilesInPage(html)))];
  const meta = await caches.open(CACHE.meta);
  const previous = await readSet(meta);
  // Refused as too large already: not downloaded again at every navigation (the next release is).
  const snapshot = snapshotOf(builds, hostFiles);
  if (await wasRefused(meta, snapshot)) return;

  // Immutable files (published builds, hashed names) are kept as they come; the files kept by URL
  // that change in place, and the pages, are staged and written together at the end (commitSet).
  // The running total stops the refresh as soon as it passes the bound (SetTooLarge).
  const budget = setBudget();
  const buildBases: string[] = [];
  const urls: string[] = [];
  const staged: StagedFile[] = [];
  const stage = async (cacheName: string, url: string, response: Response) => {
    budget.add(await sizeOf(response));
    staged.push({ cacheName, url, response });
  };
  const refused = async (reason: SetRefusal) => {
    await countRefusal(meta, reason);
    if (reason === 'too-large') await recordRefused(meta, snapshot);
    // What this refresh filled is deleted: the set before stays whole (no-room: commitSet purged all).
    if (reason === 'too-large') await purge(caches, previous ?? NO_SET);
    throw new Error(`set not kept (${reason}: ${budget.bytes} bytes or more)`);
  };
  try {
    for (const remote of remoteBuilds(config.remotes, builds, self.location.href)) {
      if (remote.published) {
        await keepPublishedBuild(remote.base, budget);
        buildBases.push(remote.base);
      } else {
        urls.push(...(await keepImageBuild(remote.base, stage, budget)));
      }
    }

    const shell = await caches.open(CACHE.shell);
    for (const path of hostFiles) {
      const url = new URL(path, self.location.href).href;
      budget.add(await keep(shell, url));
      urls.push(url);
    }
    for (const path of HOST_REVALIDATED_FILES) {
      const url = new URL(path, self.location.href).href;
      await stage(
        CACHE.shell,
        url,
        path === '/config.json' ? configResponse : await fetchOk(url, { cache: 'no-cache' }),
      );
      urls.push(url);
    }
    // Last, the pages: from their write on, an offline start opens on this set.
    for (const { route, response } of pages)
      await stage(CACHE.pages, new URL(route, self.location.href).href, response);
  } catch (error) {
    if (error instanceof SetTooLarge) return refused('too-large');
    throw error;
  }

  // Replaced meanwhile (a new version, the kill switch): the newer worker decides what is kept.
  if ((self as { serviceWorker?: ServiceWorker }).serviceWorker?.state === 'redundant') return;
  const bytes = budget.bytes;
  const outcome = await commitSet(caches, staged, bytes);
  if (outcome !== 'kept') return refused(outcome);
  const current = { at: new Date().toISOString(), builds, buildBases, urls, bytes };
  // The set before this one stays for a tab still on it; the same set again keeps the one before.
  const before = previous && sameFiles(previous, current) ? previous.previous : previous && withoutPrevious(previous);
  const set: OfflineSet = { ...current, ...(before ? { previous: before } : {}) };
  await meta.put(META_KEY, new Response(JSON.stringify(set), { headers: { 'Content-Type': 'application/json' } }));
  await purge(caches, set);
}

const sameFiles = (a: Omit<OfflineSet, 'previous'>, b: Omit<OfflineSet, 'previous'>) =>
  JSON.stringify([a.buildBases, [...a.urls].sort()]) === JSON.stringify([b.buildBases, [...b.urls].sort()]);
const withoutPrevious = ({ previous: _, ...set }: OfflineSet) => set;

async function readSet(meta: Cache): Promise<OfflineSet | undefined> {
  const response = await meta.match(META_KEY);
  return response ? ((await response.json()) as OfflineSet) : undefined;
}

type Budget = ReturnType<typeof setBudget>;

/**
 * Fills a published build's cache with every file its manifest lists, then marks it complete.
 * Each file counts at once (a set too large stops at the file that passes the bound).
 */
async function keepPublishedBuild(base: string, budget: Budget): Promise<void> {
  const cache = await caches.open(buildCacheName(base));
  const marker = await cache.match(base + COMPLETE_MARKER);
  if (marker) return budget.add(Number(await marker.text()));
  const manifest = (await cache.match(`${base}mf-manifest.json`)) ?? (await fetchOk(`${base}mf-manifest.json`));
  let bytes = 0;
  for (const file of buildFiles(await manifest.clone().json())) {
    const size = await keep(cache, base + file);
    bytes += size;
    budget.add(size);
  }
  await cache.put(base + COMPLETE_MARKER, new Response(String(bytes)));
}

/**
 * A remote on its image's own build: its entry, manifest and texts fetched afresh together, and
 * every hashed file that manifest lists. Hashed names cannot mix two builds' bytes.
 */
async function keepImageBuild(
  base: string,
  stage: (cacheName: string, url: string, response: Response) => Promise<void>,
  budget: Budget,
): Promise<string[]> {
  const cache = await caches.open(CACHE.image);
  const manifest = await fetchOk(`${base}mf-manifest.json`, { cache: 'no-cache' });
  const urls: string[] = [];
  for (const file of buildFiles(await manifest.clone().json())) {
    const url = base + file;
    if (isHashedFile(file)) budget.add(await keep(cache, url));
    else
      await stage(CACHE.image, url, file === 'mf-manifest.json' ? manifest : await fetchOk(url, { cache: 'no-cache' }));
    urls.push(url);
  }
  return urls;
}
