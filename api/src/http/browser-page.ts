import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Router } from 'express';
import { methodNotAllowed } from './method-not-allowed';

export interface PageAssets {
  readonly js: string;
  readonly css: string;
}

/** An operator page's own policy: its script, styles and JSON from this origin only, nothing inline, no framing. */
export const OPERATOR_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A page the API serves to operators (the field report, the team console): one script and its styles. */
export interface BrowserPage {
  /** Its files are `<name>.js` and `<name>.css`, siblings of the page's own URL. */
  readonly name: string;
  /** Its entry in the sources (api/<folder>/…ts): only read when building. */
  readonly source: string;
  /** The folder the API's build writes its files to, beside dist/main.js. */
  readonly outdir: string;
}

/**
 * An operator page's HTML: its styles and deferred script beside it (relative URLs, so it works at
 * /v1/… on the API and at /api/v1/… through the host's proxy alike), and `body`, which its script
 * fills in. No inline script or style: the policy above refuses them.
 */
export function operatorPageHtml({ page, title, body }: { page: BrowserPage; title: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="${page.name}.css">
<script src="${page.name}.js" defer></script>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The page's script and styles: built by `npm run build` (build-bundle.ts) next to the bundle; when
 * the API runs from its sources (development, tests) there is no build, so they are built in memory
 * once, with the same esbuild options. esbuild is a development dependency: imported only on that
 * path, never by the production bundle, which finds the built files.
 */
export function pageAssetLoader(page: BrowserPage): () => Promise<PageAssets> {
  let loaded: Promise<PageAssets> | undefined;
  return () => {
    loaded ??= (async () => {
      const built = path.join(__dirname, page.outdir);
      if (existsSync(path.join(built, `${page.name}.js`))) {
        return {
          js: readFileSync(path.join(built, `${page.name}.js`), 'utf8'),
          css: readFileSync(path.join(built, `${page.name}.css`), 'utf8'),
        };
      }
      const { buildPage } = await import('./build-page');
      return buildPage(page);
    })();
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
}

/**
 * Serves a page at `path` and its script and styles beside it (`<dir>/<name>.js`, `.css`), each
 * with the page's own Content-Security-Policy. Relative URLs only in the page: it works at /v1/…
 * on the API and at /api/v1/… through the host's proxy alike.
 */
export function servePage(
  router: Router,
  { path: pagePath, html, csp, page }: { path: string; html: string; csp: string; page: BrowserPage },
): void {
  const load = pageAssetLoader(page);
  const dir = pagePath.slice(0, pagePath.lastIndexOf('/') + 1);
  const asset =
    (type: string, pick: (assets: PageAssets) => string): RequestHandler =>
    async (_req, res) => {
      res
        .type(type)
        .set('Content-Security-Policy', csp)
        .send(pick(await load()));
    };
  router
    .route(pagePath)
    .get((_req, res) => {
      res.type('html').set('Content-Security-Policy', csp).send(html);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route(`${dir}${page.name}.js`)
    .get(asset('js', (assets) => assets.js))
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route(`${dir}${page.name}.css`)
    .get(asset('css', (assets) => assets.css))
    .all(methodNotAllowed(['GET', 'HEAD']));
}
