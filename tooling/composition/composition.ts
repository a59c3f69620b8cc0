/**
 * The servers' side of page composition: the host's page template with its SSI directives, the
 * fragments' files, the composer's bound and cache. Read by the host's build (write-page-template.ts),
 * the remotes' prerender step, the Node composer (`npm run up`) and the nginx config generator
 * (deploy/nginx/snippets/composition*.conf). The browser's side (the language rule and cookie, the
 * screen's attributes, the page frame's class) is `@special-gift/shared/composition`.
 */
import { createHash } from 'node:crypto';
import type { Language } from '@special-gift/shared';
import {
  COLLECTOR_META_NAME,
  PAGE_BUILDS_ATTRIBUTE,
  PAGE_INTEGRITY_ATTRIBUTE,
  PAGE_TOKEN_PATH,
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

/**
 * How long at most nginx keeps a composed page per route, language and canary bucket
 * (snippets/page-cache.conf): to the end of the second it was composed in. A page then costs a cache
 * hit, and asks its snapshot afresh when composed, so a release still reaches new pages within 2 s
 * (the state agent's read, then at most this second).
 */
export const PAGE_CACHE_SECONDS = 1;

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
} as const;

/**
 * The composed page's one script of its own, inline, where the built page had the app's script:
 * it preloads the app and the page loader at once, and once the page is parsed (the prerendered
 * screen in it, as a deferred script would) runs the page loader, which starts the app
 * (host/src/page-loader.ts). Its hash is the page's only script source (docs/security.md, "A hash,
 * not a nonce"): nothing in the page differs per response, so nginx can keep a composed page. The
 * URLs are in its text, never read from the page: a copy of it in a fragment, which the hash would
 * let run, can start only the host's own code, once (the first copy to run starts it: this one,
 * in the head, before any fragment).
 */
export function pageBootstrapScript(pageLoader: string, app: string): string {
  const [loader, main] = [pageLoader, app].map((url) => {
    if (!/^\/[A-Za-z0-9._/-]+$/.test(url)) throw new Error(`not a path of the host's own files: ${url}`);
    return `'${url}'`;
  });
  return (
    '(function(d,w){if(w.__sgStarted)return;w.__sgStarted=1;' +
    "function preload(h){var l=d.createElement('link');l.rel='preload';l.as='script';l.href=h;d.head.append(l)}" +
    `preload(${main});preload(${loader});` +
    `function start(){var p=d.createElement('script');p.src=${loader};p.dataset.app=${main};d.head.append(p)}` +
    "if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',start);else start()})(document,window)"
  );
}

/** The file beside page.shtml with its script's CSP source, which the host's nginx reads at start. */
export const PAGE_SCRIPT_HASH_FILE = 'page-script-hash.txt';

/** The CSP source (`'sha256-<base64>'`) of the page template's one inline script ({@link pageBootstrapScript}). */
export function pageScriptHash(template: string): string {
  const scripts = [...template.matchAll(/<script[^>]*>([^<]*)<\/script>/g)];
  const [only] = scripts;
  if (scripts.length !== 1 || !only?.[1]) throw new Error('the page template must hold exactly one inline script');
  return `'sha256-${createHash('sha256').update(only[1]).digest('base64')}'`;
}

/**
 * The composed page's Content-Security-Policy (docs/security.md): only the page's own inline script
 * runs (by its hash, {@link pageScriptHash}), and what it loads ('strict-dynamic': the page loader, the app, the federation
 * runtime's entries and webpack's chunks, each with its integrity). A script element in a fragment,
 * inline or `src` from any origin, does not run. The origins after the hash are for browsers
 * without 'strict-dynamic' (CSP 2), which ignore it; CSP 3 browsers ignore them. One policy for
 * every page of a host build: nginx's `$page_csp` (host.conf.template) is the same, its hash from
 * {@link PAGE_SCRIPT_HASH_FILE}.
 */
export function pageContentSecurityPolicy(scriptHash: string, remoteOrigins: readonly string[]): string {
  const remotes = remoteOrigins.join(' ');
  return [
    "default-src 'self'",
    `script-src ${scriptHash} 'strict-dynamic' 'self' ${remotes}`,
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
 * The page token (docs/telemetry.md): a short-lived token the composer signs for a page view (its
 * builds, bucket, time and a unique id), which the page's telemetry batch sends back so the canary
 * verdict counts real page views only. The page asks for it itself (the collector, once the first
 * screen is up), so a page's bytes are the same for every visitor of its bucket and language and
 * can be kept; the composer signs one only for the builds that bucket gets now.
 */
export const PAGE_TOKEN = {
  /** The page's request (nginx: snippets/page-token.conf; the Node composer: its own route). */
  path: PAGE_TOKEN_PATH,
  /** On the API's upstream, for a composer without a key; the bucket goes in the query. */
  apiPath: '/v1/telemetry/page-token',
  /** The page's builds (its `data-sg-builds`), sent with the page's request and on to the API. */
  buildsHeader: 'sg-builds',
  /** Why a request got no token (204), as the API says it. */
  refusedHeader: 'sg-page-token-refused',
  /** The API answers from memory within a few ms; past this the page goes without a token. */
  timeoutMs: 150,
} as const;

/**
 * The composed page's Cache-Control (nginx's `location /` in deploy/nginx/host.conf.template sets
 * the same): revalidated on every load, and `private`, since it carries the builds of the visitor's
 * bucket: a shared cache must not hand a canary's page to a visitor outside it.
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
 * the release snapshot on `<html>`, and in the root the route's fragment inside the same page frame
 * the shell renders (so nothing moves when the shell takes over). A failed include prints nothing:
 * the client renders the screen. In the head, {@link pageBootstrapScript}, which starts `pageLoader`
 * (the host's page-loader.ts): it lets a prerendered screen paint first, the app preloaded meanwhile.
 * Nothing in it differs between two visitors of one bucket and language: no nonce, no token.
 */
export function toPageTemplate(indexHtml: string, contractMajor: number, pageLoader: string): string {
  const { screen, language, direction, builds, integrity } = PAGE_VARIABLES;
  const htmlTag = /<html lang="?en"? dir="?ltr"?>/; // quoted or not: the build minifies it
  const rootTag = /<div id="?root"?><\/div>/;
  const appScript = /<script defer(?:="defer")? src="?([^"\s>]+)"?><\/script>/;
  const app = appScript.exec(indexHtml)?.[1];
  if (!htmlTag.test(indexHtml) || !rootTag.test(indexHtml) || app === undefined) {
    throw new Error(
      'index.html must contain <html lang="en" dir="ltr">, an empty root <div id="root"> and the app\'s deferred script',
    );
  }
  const include = ssi(
    `include virtual="${SCREEN_INCLUDE_PREFIX}$${screen}/v${contractMajor}/$${language}.html" stub="empty"`,
  );
  return indexHtml
    .replace(appScript, `<script>${pageBootstrapScript(pageLoader, app)}</script>`)
    .replace(
      htmlTag,
      `<html lang="${ssi(`echo var="${language}"`)}" dir="${ssi(`echo var="${direction}"`)}" ${PAGE_BUILDS_ATTRIBUTE}="${ssi(`echo var="${builds}"`)}" ${PAGE_INTEGRITY_ATTRIBUTE}="${ssi(`echo var="${integrity}"`)}">`,
    )
    .replace(
      rootTag,
      `<div id="root">${ssi('block name="empty"')}${ssi('endblock')}${ssi(`if expr="$${screen}"`)}<div class="${SHELL_PAGE_CLASS}">${include}</div>${ssi('endif')}</div>`,
    );
}

/** The built index.html with its collector named in the head (once: a second run replaces nothing). */
export function withCollector(indexHtml: string, collector: string): string {
  if (indexHtml.includes(`name="${COLLECTOR_META_NAME}"`)) return indexHtml;
  if (!indexHtml.includes('</head>')) throw new Error('index.html must have a </head>');
  return indexHtml.replace('</head>', `<meta name="${COLLECTOR_META_NAME}" content="${collector}"></head>`);
}
