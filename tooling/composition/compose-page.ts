import { randomInt } from 'node:crypto';
import { isLanguage, type Language } from '@special-gift/shared';
import {
  acceptedLanguages,
  chooseLanguage,
  LANGUAGE_COOKIE,
  parsePageBuilds,
  textDirection,
} from '@special-gift/shared/composition';
import { PAGE_TOKEN_PATTERN } from '@special-gift/shared/telemetry';
import { REMOTES, type RemoteName } from '../remotes';
import {
  bucketCookie,
  buildDir,
  FRAGMENT_CACHE_SECONDS,
  FRAGMENT_TIMEOUT_MS,
  fragmentFile,
  PAGE_TOKEN,
  PAGE_VARIABLES,
  RELEASE_SNAPSHOT,
  SCREEN_FILES_ECHO,
  SCREEN_FILES_PREFIX,
  SCREEN_INCLUDE_PREFIX,
} from './composition';
import type { PageTokenSigner } from './page-token-signer';
import type { ReleaseStateSource } from './release-state-source';
import { renderSsi } from './ssi';

export interface PageRequest {
  /** The path, without the query. */
  readonly path: string;
  readonly cookieHeader?: string;
  readonly acceptLanguage?: string;
  /** The browser's canary bucket ({@link pageBucket}); none: outside every canary. */
  readonly bucket?: number;
}

/** A page's request for its token (docs/telemetry.md): the builds it was composed with, from its bucket. */
export interface PageTokenRequest {
  readonly cookieHeader?: string;
  /** The browser's canary bucket ({@link pageBucket}). */
  readonly bucket: number;
  /** The page's `Sg-Builds`, as it sent them. */
  readonly builds: string;
  /** The visitor's address: tokens are limited per address, and the token names its network. */
  readonly clientAddress?: string;
}

/** The answer to a {@link PageTokenRequest}: a token, or why none (the 204's `Sg-Page-Token-Refused`). */
export type PageTokenAnswer = { readonly token: string } | { readonly refused: string };

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The browser's canary bucket from its cookie, or a new one and the cookie that gives it (nginx: split_clients). */
export function pageBucket(cookieHeader: string | undefined): { bucket: number; setCookie?: string } {
  const value = cookieValue(cookieHeader, RELEASE_SNAPSHOT.bucketCookie);
  if (value !== undefined && /^([0-9]|[1-9][0-9])$/.test(value)) return { bucket: Number(value) };
  const bucket = randomInt(RELEASE_SNAPSHOT.buckets);
  return { bucket, setCookie: bucketCookie(bucket) };
}

/** The composition's variables for one request: the route's remote and the page's language. */
export function pageVariables(request: PageRequest, defaultLanguage: Language): Record<string, string> {
  const language = chooseLanguage(
    cookieValue(request.cookieHeader, LANGUAGE_COOKIE),
    acceptedLanguages(request.acceptLanguage),
    defaultLanguage,
  );
  return {
    [PAGE_VARIABLES.screen]: REMOTES.find((remote) => remote.route === request.path)?.name ?? '',
    [PAGE_VARIABLES.language]: language,
    [PAGE_VARIABLES.direction]: textDirection(language),
  };
}

/** Where a remote's files are: the folder of its remoteEntry.js, without the trailing slash. */
export const remoteBase = (entryUrl: string) => entryUrl.replace(/\/[^/]*$/, '');

export interface PageComposerOptions {
  /** The host's page template (`page.shtml`), read per page. */
  readonly template: () => Promise<string>;
  /** Each remote's remoteEntry.js URL (the runtime config's `remotes`). */
  readonly remotes: Readonly<Record<RemoteName, string>>;
  readonly defaultLanguage: Language;
  /** The API's origin, which answers the release snapshot; none: every remote's own build. */
  readonly apiOrigin?: string;
  /**
   * The release state read from the build store (release-state-source.ts): with it, a page's
   * builds need no API; the API is asked only for a preview cookie's visitor.
   */
  readonly releaseState?: ReleaseStateSource;
  /** Signs each page's token here (page-token-signer.ts); without it the API is asked for one. */
  readonly signPageToken?: PageTokenSigner;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

/** The API's `Sg-Builds` and `Sg-Integrity`, as the page carries them. */
interface Snapshot {
  readonly builds: string;
  readonly integrity: string;
}
const NO_SNAPSHOT: Snapshot = { builds: '', integrity: '' };

/**
 * The page's release snapshot as nginx's /_sg_snapshot gets it (snippets/release-snapshot.conf):
 * the API's `Sg-Builds` within the bound, kept FRAGMENT_CACHE_SECONDS per bucket, the last one
 * used while the API fails, none before any. A preview is the team's own: asked each time, never kept.
 */
function createSnapshots(apiOrigin: string, fetchImpl: typeof fetch, now: () => number) {
  const kept = new Map<number, Snapshot & { expires: number }>();
  return async function snapshot(bucket: number, preview: string | undefined): Promise<Snapshot> {
    const last = preview ? undefined : kept.get(bucket);
    if (last && last.expires > now()) return last;
    const answer = await fetchWithinBound(
      fetchImpl,
      `${apiOrigin}${RELEASE_SNAPSHOT.path}?bucket=${bucket}`,
      async (response) => ({
        builds: response.headers.get(RELEASE_SNAPSHOT.header) ?? '',
        integrity: response.headers.get(RELEASE_SNAPSHOT.integrityHeader) ?? '',
        shared: !/private|no-store/.test(response.headers.get('cache-control') ?? ''),
      }),
      preview ? { cookie: `${RELEASE_SNAPSHOT.previewCookie}=${preview}` } : {},
    );
    if (!answer) return last ?? NO_SNAPSHOT;
    const found = { builds: answer.builds, integrity: answer.integrity };
    if (answer.shared && !preview) kept.set(bucket, { ...found, expires: now() + FRAGMENT_CACHE_SECONDS * 1000 });
    return found;
  };
}

/**
 * The Node twin of the images' nginx composition (deploy/nginx): the page template's SSI, with each
 * fragment fetched from its remote within FRAGMENT_TIMEOUT_MS and kept FRAGMENT_CACHE_SECONDS. A
 * fragment that fails, is slow or is missing leaves the route's slot empty.
 */
export function createPageComposer(options: PageComposerOptions) {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { body: string; expires: number }>();
  const includePattern = new RegExp(`^${SCREEN_INCLUDE_PREFIX}([a-z]+)/v(\\d+)/([a-z]+)\\.html$`);

  async function fetchFragment(url: string): Promise<string | undefined> {
    const cached = cache.get(url);
    if (cached && cached.expires > now()) return cached.body;
    const body = await fetchWithinBound(fetchImpl, url, (response) => response.text());
    if (body !== undefined) cache.set(url, { body, expires: now() + FRAGMENT_CACHE_SECONDS * 1000 });
    return body;
  }

  const fromApi = options.apiOrigin ? createSnapshots(options.apiOrigin, fetchImpl, now) : async () => NO_SNAPSHOT;
  const releaseState = options.releaseState;
  const snapshot = releaseState
    ? async (bucket: number, preview: string | undefined) =>
        preview ? fromApi(bucket, preview) : ((await releaseState.forBucket(bucket)) ?? NO_SNAPSHOT)
    : fromApi;

  /**
   * A page's token, as nginx's /_sg_page_token mints it (snippets/page-token.conf), or from the API:
   * only for the builds the page's bucket gets now, never for a preview's page; never kept.
   */
  async function pageToken(request: PageTokenRequest): Promise<PageTokenAnswer> {
    // A preview's page is the team's own: its batch stays unsigned, as the API's endpoint decides.
    if (cookieValue(request.cookieHeader, RELEASE_SNAPSHOT.previewCookie)) return { refused: 'preview' };
    if (options.signPageToken) {
      const { builds } = await snapshot(request.bucket, undefined);
      if (builds !== request.builds) return { refused: 'builds_not_served' };
      const token = options.signPageToken(request.bucket, builds, request.clientAddress);
      return token === undefined ? { refused: 'not_issued' } : { token };
    }
    if (!options.apiOrigin) return { refused: 'page_tokens_off' };
    // The API checks the builds itself (its `builds_not_served`).
    const token = await fetchWithinBound(
      fetchImpl,
      `${options.apiOrigin}${PAGE_TOKEN.apiPath}?bucket=${request.bucket}`,
      (response) => response.text(),
      {
        [PAGE_TOKEN.buildsHeader]: request.builds,
        ...(request.clientAddress ? { 'x-forwarded-for': request.clientAddress } : {}),
      },
      PAGE_TOKEN.timeoutMs,
    );
    return token !== undefined && PAGE_TOKEN_PATTERN.test(token) ? { token } : { refused: 'not_issued' };
  }

  async function composePage(request: PageRequest): Promise<string> {
    const bucket = request.bucket ?? RELEASE_SNAPSHOT.buckets - 1;
    const preview = cookieValue(request.cookieHeader, RELEASE_SNAPSHOT.previewCookie);
    const { builds, integrity } = await snapshot(bucket, preview);
    const variables = {
      ...pageVariables(request, options.defaultLanguage),
      [PAGE_VARIABLES.builds]: builds,
      [PAGE_VARIABLES.integrity]: integrity,
    };
    const releasedBuilds = parsePageBuilds(builds);
    return renderSsi(await options.template(), {
      variables,
      async include(uri) {
        const match = includePattern.exec(uri);
        const remote = match?.[1] as RemoteName | undefined;
        const language = match?.[3];
        if (!match || !remote || !(remote in options.remotes) || !isLanguage(language)) return undefined;
        // From the build in the snapshot (its folder), else the remote's root: the same build as the code.
        const base = `${remoteBase(options.remotes[remote])}${buildDir(releasedBuilds[remote] ?? '')}`;
        const fragment = await fetchFragment(`${base}/${fragmentFile(Number(match[2]), language)}`);
        if (fragment === undefined) return undefined;
        // Not SSI, as nginx (snippets/fragment-proxy.conf): a fragment from a remote's origin gets
        // only its stylesheet's path filled in, never the page's variables.
        return fragment
          .split(SCREEN_FILES_ECHO)
          .join(`${SCREEN_FILES_PREFIX}${remote}${buildDir(releasedBuilds[remote] ?? '')}`);
      },
    });
  }

  return Object.assign(composePage, { pageToken });
}

export interface ScreenFile {
  readonly status: number;
  readonly contentType?: string;
  readonly cacheControl?: string;
  readonly body: Uint8Array;
}

/**
 * The host's path to a remote's files (`/_screen-files/<remote>/<file>`), as the images' nginx
 * serves it: fetched from the remote within FRAGMENT_TIMEOUT_MS; past it, or on any failure, an
 * empty 204, so a stylesheet the page waits for never holds it.
 */
export function createScreenFiles(options: { remotes: Readonly<Record<RemoteName, string>>; fetch?: typeof fetch }) {
  const fetchImpl = options.fetch ?? fetch;
  const empty: ScreenFile = { status: 204, body: new Uint8Array() };
  return async function screenFile(remote: string, file: string): Promise<ScreenFile> {
    if (!(remote in options.remotes) || !/^[A-Za-z0-9._/-]+$/.test(file) || file.split('/').includes('..'))
      return { status: 404, body: new Uint8Array() };
    const url = `${remoteBase(options.remotes[remote as RemoteName])}/${file}`;
    const answer = await fetchWithinBound(fetchImpl, url, async (response) => ({
      status: 200,
      contentType: response.headers.get('content-type') ?? undefined,
      cacheControl: response.headers.get('cache-control') ?? undefined,
      body: new Uint8Array(await response.arrayBuffer()),
    }));
    return answer ?? empty;
  };
}

/**
 * What `read` makes of a remote's 200 answer within the bound (the body's reading included), or
 * undefined for anything else: refused, reset, another status, past the bound.
 */
async function fetchWithinBound<T>(
  fetchImpl: typeof fetch,
  url: string,
  read: (response: Response) => Promise<T>,
  headers: Record<string, string> = {},
  timeoutMs: number = FRAGMENT_TIMEOUT_MS,
): Promise<T | undefined> {
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), headers });
    if (response.status !== 200) return undefined;
    return await read(response);
  } catch {
    return undefined;
  }
}
