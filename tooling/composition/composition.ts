/**
 * The servers' side of page composition: the host's page template with its SSI directives, the
 * fragments' files, the composer's bound and cache. Read by the host's build (write-page-template.ts),
 * the remotes' prerender step, the Node composer (`npm run up`) and the nginx config generator
 * (deploy/nginx/snippets/composition*.conf). The browser's side (the language rule and cookie, the
 * screen's attributes, the page frame's class) is `@special-gift/shared/composition`.
 */
import type { Language } from '@special-gift/shared';
import {
  COLLECTOR_META_NAME,
  PAGE_BUILDS_ATTRIBUTE,
  PAGE_INTEGRITY_ATTRIBUTE,
  PAGE_TOKEN_ATTRIBUTE,
  SHELL_PAGE_CLASS,
} from '@special-gift/shared/composition';

/**
 * How long the composer waits for a fragment before it sends the page without it (the client then
 * renders the screen as without prerendering). A remote's static file answers in a few ms; 300 ms
 * is far past that and still well under what a user would notice on the page's first byte.
 */
export const FRAGMENT_TIMEOUT_MS = 300;

/**
 * The composer's cache of a fragment. One second shields a remote from page traffic (at most one
 * fetch per fragment and second) and a deploy still shows on the next page load a second later.
 */
export const FRAGMENT_CACHE_SECONDS = 1;

/** Where a remote publishes its screen's HTML, beside remoteEntry.js; the major keeps hosts of another contract away. */
export const fragmentFile = (contractMajor: number, language: Language) =>
  `prerender/v${contractMajor}/${language}.html`;

/** The host's page with composition directives (nginx SSI), written beside index.html by the host's build. */
export const PAGE_TEMPLATE_FILE = 'page.shtml';

/** The path under which the composer fetches a remote's fragment: `/_screen/<remote>/v<major>/<lang>.html`. */
export const SCREEN_INCLUDE_PREFIX = '/_screen/';

/**
 * Where the page links a screen's stylesheet: the host's own path to the remote's files, bounded
 * like a fragment. A stylesheet in the body holds the browser's parser until it loads, so one
 * from the remote's origin that hangs would freeze the page; through the host it fails fast.
 */
export const SCREEN_FILES_PREFIX = '/_screen-files/';

/** SSI variables of the composition. */
export const PAGE_VARIABLES = {
  /** The remote whose screen the path shows, empty for other paths. */
  screen: 'sg_screen',
  language: 'sg_lang',
  direction: 'sg_dir',
  /** Inside a fragment: the host's path to the remote's files (SCREEN_FILES_PREFIX + name), for its stylesheet. */
  screenFiles: 'sg_screen_files',
  /** The page's release snapshot, the API's `Sg-Builds` answer (`intro=<id>,signup=<id>`), empty without one. */
  builds: 'sg_builds',
  /** The hashes of what the host loads from those builds, the API's `Sg-Integrity` (docs/security.md). */
  integrity: 'sg_integrity',
  /**
   * The response's CSP nonce (docs/security.md): nginx's `$request_id` (16 random bytes, hex), a
   * fresh one per page. Only the page template prints it; a fragment is never SSI-processed with it.
   */
  nonce: 'request_id',
} as const;

/**
 * The composed page's Content-Security-Policy (docs/security.md): only scripts carrying this
 * response's nonce run (the page loader), and what they load themselves ('strict-dynamic': the
 * app, the federation runtime's entries and webpack's chunks, each with its integrity). A script
 * element in a fragment, inline or `src` from any origin, does not run. The origins after the nonce
 * are for browsers without 'strict-dynamic' (CSP 2), which ignore it; CSP 3 browsers ignore them.
 * deploy/nginx/host.conf.template sets the same policy as `$page_csp`.
 */
export function pageContentSecurityPolicy(nonce: string, remoteOrigins: readonly string[]): string {
  const remotes = remoteOrigins.join(' ');
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' ${remotes}`,
    `style-src 'self' ${remotes}`,
    `connect-src 'self' ${remotes}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "manifest-src 'self'",
    // The offline service worker, from this origin only ('strict-dynamic' would otherwise govern it).
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The release snapshot (docs/releases.md): the composer asks the API which build of each remote a
 * page gets, once per page, and keeps the answer as long as a fragment. A fresh browser is given a
 * canary bucket (0-99) in a cookie, so a canary at N % reaches the buckets below N, on every load.
 */
export const RELEASE_SNAPSHOT = {
  /** On the API's upstream; the bucket goes in the query. */
  path: '/v1/releases/snapshot',
  /** The answer's header that lists the builds. */
  header: 'sg-builds',
  /** The answer's header with the integrity of those builds' entries and texts. */
  integrityHeader: 'sg-integrity',
  bucketCookie: 'sg_bucket',
  bucketCookieMaxAgeSeconds: 365 * 24 * 60 * 60,
  /** Sent on by the composer: the API applies a valid, signed preview of the team's own browser. */
  previewCookie: 'sg_preview',
  buckets: 100,
} as const;

/**
 * The page token (docs/telemetry.md): a short-lived token the API signs for each composed page
 * (its builds, bucket, time and a unique id), which the page's telemetry batch sends back so the
 * canary verdict counts real page views only. nginx cannot compute an HMAC and the snapshot is
 * shared across pages for a second, so each page asks the API with an include of its own: uncached,
 * after the first screen's markup (its bytes and paint never wait for it), bounded.
 */
export const PAGE_TOKEN = {
  /** The page template's include (nginx: an internal location; the Node composer: its own fetch). */
  include: '/_sg_page_token',
  /** On the API's upstream; the bucket goes in the query, the page's builds in `Sg-Builds`. */
  path: '/v1/telemetry/page-token',
  buildsHeader: 'sg-builds',
  /**
   * The API answers from memory (an HMAC and the pointers' 100 ms memo) within a few ms; past this
   * the page goes without a token, its batch then unsigned. Short, because the page's tail (and so
   * its deferred scripts) waits for the include: the first screen's markup above it does not.
   */
  timeoutMs: 150,
} as const;

/**
 * The composed page's Cache-Control (nginx's `location /` in deploy/nginx/host.conf.template sets
 * the same): revalidated on every load, and `private`, since it carries a single-use page token and
 * the visitor's bucket: a shared cache must never hand one visitor's page to another.
 */
export const COMPOSED_PAGE_CACHE_CONTROL = 'private, no-cache';

/** The Set-Cookie that gives a browser its canary bucket (HttpOnly: no script needs it). */
export const bucketCookie = (bucket: number | string) =>
  `${RELEASE_SNAPSHOT.bucketCookie}=${bucket}; Path=/; Max-Age=${RELEASE_SNAPSHOT.bucketCookieMaxAgeSeconds}; SameSite=Lax; HttpOnly`;

/** A released build's folder under a remote's base: its fragment, files and entry are inside. */
export const buildDir = (build: string) => (build ? `/builds/${build}` : '');

const ssi = (directive: string) => `<!--# ${directive} -->`;

/** The SSI that prints, inside a fragment, the host's path to the remote's files. */
export const SCREEN_FILES_ECHO = ssi(`echo var="${PAGE_VARIABLES.screenFiles}"`);

/**
 * The host's page template from its built index.html: `<html lang dir>` from the chosen language,
 * the release snapshot on `<html>`, and in the root the route's fragment inside the same page frame the shell renders (so nothing
 * moves when the shell takes over). A failed include prints nothing: the client renders the screen.
 * The app's script is started by `pageLoader` (the host's page-loader.ts), which lets a prerendered
 * screen paint first; the page preloads the app meanwhile.
 */
export function toPageTemplate(indexHtml: string, contractMajor: number, pageLoader: string): string {
  const { screen, language, direction, builds, integrity, nonce } = PAGE_VARIABLES;
  const htmlTag = /<html lang="?en"? dir="?ltr"?>/; // quoted or not: the build minifies it
  const rootTag = /<div id="?root"?><\/div>/;
  const appScript = /<script defer(?:="defer")? src="?([^"\s>]+)"?><\/script>/;
  if (!htmlTag.test(indexHtml) || !rootTag.test(indexHtml) || !appScript.test(indexHtml)) {
    throw new Error(
      'index.html must contain <html lang="en" dir="ltr">, an empty root <div id="root"> and the app\'s deferred script',
    );
  }
  const include = ssi(
    `include virtual="${SCREEN_INCLUDE_PREFIX}$${screen}/v${contractMajor}/$${language}.html" stub="empty"`,
  );
  // After the root, so everything the first screen needs is sent before the page waits on the API.
  const pageToken = `<div hidden ${PAGE_TOKEN_ATTRIBUTE}="${ssi(`include virtual="${PAGE_TOKEN.include}" stub="empty"`)}"></div>`;
  return indexHtml
    .replace(
      appScript,
      (_, app: string) =>
        `<link rel="preload" href="${app}" as="script" nonce="${ssi(`echo var="${nonce}"`)}"><script defer nonce="${ssi(`echo var="${nonce}"`)}" src="${pageLoader}" data-app="${app}"></script>`,
    )
    .replace(
      htmlTag,
      `<html lang="${ssi(`echo var="${language}"`)}" dir="${ssi(`echo var="${direction}"`)}" ${PAGE_BUILDS_ATTRIBUTE}="${ssi(`echo var="${builds}"`)}" ${PAGE_INTEGRITY_ATTRIBUTE}="${ssi(`echo var="${integrity}"`)}">`,
    )
    .replace(
      rootTag,
      `<div id="root">${ssi('block name="empty"')}${ssi('endblock')}${ssi(`if expr="$${screen}"`)}<div class="${SHELL_PAGE_CLASS}">${include}</div>${ssi('endif')}</div>${pageToken}`,
    );
}

/** The built index.html with its collector named in the head (once: a second run replaces nothing). */
export function withCollector(indexHtml: string, collector: string): string {
  if (indexHtml.includes(`name="${COLLECTOR_META_NAME}"`)) return indexHtml;
  if (!indexHtml.includes('</head>')) throw new Error('index.html must have a </head>');
  return indexHtml.replace('</head>', `<meta name="${COLLECTOR_META_NAME}" content="${collector}"></head>`);
}
