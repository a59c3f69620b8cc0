/**
 * What the service worker keeps for an offline start (docs/offline.md), as pure functions the
 * worker and its tests share: the pages, and for each remote the one build those pages name.
 */
import {
  buildEntryUrl,
  PAGE_BUILDS_ATTRIBUTE,
  parsePageBuilds,
  publishedBuildFolder,
} from '@special-gift/shared/composition';
import { SUPPORTED_LANGUAGES as LANGUAGES } from '@special-gift/shared';
import { REMOTES } from '../../config/remotes.generated';
import { manifestFiles } from '../../config/mf-manifest';
import { BUILD_CACHE_PREFIX, CACHE, META_KEY } from './cache-names';

/** Every route's composed page is kept: after one visit each screen opens offline. */
export const OFFLINE_ROUTES: readonly string[] = REMOTES.map((remote) => remote.route);

/** The worker's script, on the host's origin, served uncached (the kill switch depends on it). */
export const SERVICE_WORKER_URL = '/service-worker.js';

/** The page's message to a worker it just registered: keep the set now (the page came from the network). */
export const REFRESH_SET_MESSAGE = 'sg-refresh-set';

export { BUILD_CACHE_PREFIX, CACHE, META_KEY } from './cache-names';
export const buildCacheName = (base: string) => `${BUILD_CACHE_PREFIX}${base}`;
/** Written into a build's cache last: the build is complete (every file its manifest lists). */
export const COMPLETE_MARKER = '.sg-complete';
/** Every cache this app's worker writes starts so; the kill switch deletes exactly these. */
export const isOwnCache = (name: string) => name.startsWith('sg-');

/** A published build's folder `<origin>/…/builds/<12 hex>/`: its files never change. */
export const publishedBuildBase = (url: string): string | undefined => publishedBuildFolder(url)?.folder;
/** Content-hashed file names (webpack's `[contenthash:8]`): the name changes with the bytes. */
export const isHashedFile = (path: string) => /\.[0-9a-f]{8}\.(js|css)$/.test(path);
/** A remote's files that change in place on a redeploy of its image (revalidated online). */
export const isImageEntryFile = (path: string) =>
  /\/(remoteEntry\.js|mf-manifest\.json)$/.test(path) || /\/assets\/i18n\/[a-z]{2}\.json$/.test(path);

/** Which of the worker's rules answers a file (not a page), by its URL (docs/offline.md's table). */
export type FileRoute = 'host-revalidated' | 'host-hashed' | 'published-build' | 'image-hashed' | 'image-entry';

/**
 * A remote may be on its own origin or, as an operator may serve it, under a folder of the host's
 * (`/remotes/signup/…`): so a remote's files are told by their names and folders, not by their
 * origin. The host's own are its revalidated files and its hashed files at the root or through
 * `/_screen-files/` (the screens' stylesheets it serves). The API is never handled.
 */
export function fileRoute(url: URL, hostOrigin: string): FileRoute | undefined {
  const own = url.origin === hostOrigin;
  if (own && url.pathname.startsWith('/api/')) return undefined;
  if (own && HOST_REVALIDATED_FILES.includes(url.pathname)) return 'host-revalidated';
  const hashed = isHashedFile(url.pathname);
  if (own && hashed && (/^\/[^/]+$/.test(url.pathname) || url.pathname.startsWith('/_screen-files/')))
    return 'host-hashed';
  if (publishedBuildBase(url.href) !== undefined) return 'published-build';
  if (hashed) return 'image-hashed';
  if (isImageEntryFile(url.pathname)) return 'image-entry';
  return undefined;
}

/** The builds a composed page names (`<html data-sg-builds>`), read from its HTML. */
export function buildsInPage(html: string): Record<string, string> {
  return parsePageBuilds(new RegExp(`${PAGE_BUILDS_ATTRIBUTE}="([^"]*)"`).exec(html)?.[1]);
}

/**
 * An attribute that can name a file, with its value in any HTML form: the minified page.shtml drops
 * the quotes where it can (`<link href=/main.<hash>.css rel=stylesheet>`), others keep '…' or "…".
 */
const FILE_ATTRIBUTE = /\s(?:src|href|content|data-app)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/** A root-relative path quoted in the page's own script (its page loader and app: pageBootstrapScript). */
const SCRIPT_PATH = /'(\/[A-Za-z0-9._/-]+)'/g;

/** The host's own hashed files a page loads (page loader, app, stylesheets): root-relative. */
export function hostFilesInPage(html: string): string[] {
  const files = new Set<string>();
  const named = [
    ...[...html.matchAll(FILE_ATTRIBUTE)].map((match) => match[1] ?? match[2] ?? match[3] ?? ''),
    ...[...html.matchAll(SCRIPT_PATH)].map((match) => match[1] ?? ''),
  ];
  for (const value of named) {
    const path = value.split(/[?#]/)[0] ?? '';
    if (path.startsWith('/') && !path.startsWith('//') && isHashedFile(path)) files.add(path);
  }
  return [...files];
}

/** One remote's part of the set: the folder its code and texts load from, and whether it is published. */
export interface RemoteBuild {
  readonly remote: string;
  readonly base: string;
  readonly published: boolean;
}

/** Where each remote's code comes from for pages with these builds (config.json's entries otherwise). */
export function remoteBuilds(
  entries: Readonly<Record<string, string>>,
  builds: Readonly<Record<string, string>>,
  pageUrl: string,
): RemoteBuild[] {
  return REMOTES.map(({ name }) => {
    const entry = entries[name];
    if (entry === undefined) throw new Error(`config.json names no entry for ${name}`);
    const base = new URL('.', buildEntryUrl(entry, builds[name], pageUrl)).href;
    return { remote: name, base, published: builds[name] !== undefined };
  });
}

/** Every file of a build, relative to its folder: entry, manifest, code and stylesheets, texts. */
export function buildFiles(manifest: unknown): string[] {
  const entry =
    (manifest as { metaData?: { remoteEntry?: { name?: string } } } | null)?.metaData?.remoteEntry?.name ??
    'remoteEntry.js';
  const texts = LANGUAGES.map((language) => `assets/i18n/${language}.json`);
  return [...new Set([entry, 'mf-manifest.json', ...manifestFiles(manifest), ...texts])];
}

/** The host's files that every page needs besides its hashed ones: config, texts, the icon. */
export const HOST_REVALIDATED_FILES: readonly string[] = [
  '/config.json',
  '/favicon.svg',
  ...LANGUAGES.map((language) => `/assets/i18n/${language}.json`),
];

/** What the meta entry records about the current set, and the one before it (kept for open tabs). */
export interface OfflineSet {
  readonly at: string;
  readonly builds: Readonly<Record<string, string>>;
  /** Folders of the published builds, each a cache of its own. */
  readonly buildBases: readonly string[];
  /** URLs kept in the shell and image caches for this set. */
  readonly urls: readonly string[];
  /** Bytes of every body in the set (pages, host files, builds). */
  readonly bytes: number;
  readonly previous?: Omit<OfflineSet, 'previous'>;
}

/**
 * What the purge keeps: the current set and the previous one (a tab opened on it may still load a
 * lazy chunk of it, offline). So at most two builds of each remote are ever kept.
 */
export function keptBy(set: OfflineSet): { buildBases: Set<string>; urls: Set<string> } {
  const sets = [set, ...(set.previous ? [set.previous] : [])];
  return {
    buildBases: new Set(sets.flatMap((one) => one.buildBases)),
    urls: new Set(sets.flatMap((one) => one.urls)),
  };
}

/**
 * The most one set may take (every body decoded: pages, host files, builds). A set is about 1 MB
 * today; one over this is not kept, and counted. With the set before it, the worker keeps at most
 * twice this (docs/offline.md, "Purge and size").
 */
export const MAX_SET_BYTES = 3 * 1024 * 1024;
/** Why refreshes were not kept, counted on the device (in `sg-meta`). */
export const REFUSALS_KEY = '/__sg/refused';
/** The last snapshot refused as too large (in `sg-meta`): not fetched again. */
export const REFUSED_SNAPSHOT_KEY = '/__sg/refused-snapshot';
export type SetRefusal = 'too-large' | 'no-room';

/** A set that passed `MAX_SET_BYTES` while being fetched: the refresh stops there. */
export class SetTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`the set passed ${MAX_SET_BYTES} bytes (${bytes} so far)`);
  }
}

/**
 * The running total of a set being fetched: past the bound it throws at once, so a set too large
 * never fills the storage beyond the bound before being refused.
 */
export function setBudget(max = MAX_SET_BYTES): { add(bytes: number): void; readonly bytes: number } {
  let total = 0;
  return {
    add(bytes: number) {
      total += bytes;
      if (total > max) throw new SetTooLarge(total);
    },
    get bytes() {
      return total;
    },
  };
}

/**
 * What names a snapshot before any of its files is fetched: the builds its pages name and the
 * host's hashed files. (A remote on its image's own build is not told apart by it: a redeploy of
 * that image alone is tried again only with the next release or host deploy.)
 */
export const snapshotOf = (builds: Readonly<Record<string, string>>, hostFiles: readonly string[]) =>
  JSON.stringify({ builds, hostFiles: [...hostFiles].sort() });

/** Whether this snapshot was refused as too large already (then it is not fetched again). */
export async function wasRefused(meta: Pick<Cache, 'match'>, snapshot: string): Promise<boolean> {
  return (await (await meta.match(REFUSED_SNAPSHOT_KEY))?.text()) === snapshot;
}

/** Remembers a snapshot refused as too large, so the next navigations do not download it again. */
export async function recordRefused(meta: Pick<Cache, 'put'>, snapshot: string): Promise<void> {
  await meta.put(REFUSED_SNAPSHOT_KEY, new Response(snapshot));
}

/** A file the set keeps by URL that changes in place (a page, config.json, texts, an image build's entry). */
export interface StagedFile {
  readonly cacheName: string;
  readonly url: string;
  readonly response: Response;
}

/** No set: what the purge keeps when none is (nothing of any build). */
export const NO_SET: OfflineSet = { at: '', builds: {}, buildBases: [], urls: [], bytes: 0 };

/**
 * Deletes every build no kept set names, and the host's and image builds' hashed files of no kept
 * set: at most two builds of each remote stay (this set's and the one before, for a tab still on it).
 */
export async function purge(storage: Pick<CacheStorage, 'open' | 'delete' | 'keys'>, set: OfflineSet): Promise<void> {
  const kept = keptBy(set);
  for (const name of await storage.keys()) {
    if (name.startsWith(BUILD_CACHE_PREFIX) && !kept.buildBases.has(name.slice(BUILD_CACHE_PREFIX.length)))
      await storage.delete(name);
  }
  for (const name of [CACHE.shell, CACHE.image]) {
    const cache = await storage.open(name);
    for (const request of await cache.keys())
      if (isHashedFile(new URL(request.url).pathname) && !kept.urls.has(request.url)) await cache.delete(request);
  }
}

/**
 * The last step of a refresh: the files kept by URL that change in place, then the pages, written
 * only now that everything else of the set (its builds, the hashed files) is kept. Until here a
 * refresh changes nothing an offline start uses, so one that fails half-way (offline again, a
 * 404) leaves the previous set as it was. A set over `MAX_SET_BYTES` is not written. If the
 * storage refuses a write (its quota), the pages and the set's description are deleted, and every
 * build and hashed file with them (no set names them now): with no whole set, the app is online
 * only until the next refresh, never a page whose files are gone.
 */
export async function commitSet(
  storage: Pick<CacheStorage, 'open' | 'delete' | 'keys'>,
  files: readonly StagedFile[],
  bytes: number,
): Promise<'kept' | SetRefusal> {
  if (bytes > MAX_SET_BYTES) return 'too-large';
  try {
    for (const { cacheName, url, response } of files) await (await storage.open(cacheName)).put(url, response);
    return 'kept';
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name !== 'QuotaExceededError') throw error;
    await storage.delete(CACHE.pages);
    await (await storage.open(CACHE.meta)).delete(META_KEY);
    await purge(storage, NO_SET);
    return 'no-room';
  }
}

/** Counts one refused refresh by its reason (read by the tests and by whoever looks at the device). */
export async function countRefusal(meta: Cache, reason: SetRefusal): Promise<void> {
  const counts = ((await (await meta.match(REFUSALS_KEY))?.json()) ?? {}) as Partial<Record<SetRefusal, number>>;
  counts[reason] = (counts[reason] ?? 0) + 1;
  await meta.put(
    REFUSALS_KEY,
    new Response(JSON.stringify(counts), { headers: { 'Content-Type': 'application/json' } }),
  );
}
