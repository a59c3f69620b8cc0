import path from 'node:path';
import { Router } from 'express';
import { OPERATOR_PAGE_CSP, operatorPageHtml, servePage, type BrowserPage } from '../http/browser-page';

/** The team console's script and styles (api/operator-pages/console/), bundled by esbuild beside the API's bundle. */
export const CONSOLE_PAGE: BrowserPage = {
  name: 'console',
  // api/operator-pages/console/, from api/src/console: only used when building, which runs from the sources.
  source: path.resolve(__dirname, '..', '..', 'operator-pages', 'console', 'console-page.ts'),
  outdir: 'console-page',
};

const CONSOLE_HTML = operatorPageHtml({
  page: CONSOLE_PAGE,
  title: 'Team console · Special Gift',
  body: `<header class="masthead"><p class="product">Special Gift</p><h1>Team console</h1></header>
<main id="console" tabindex="-1">
<noscript>This page needs JavaScript.</noscript>
</main>`,
});

/**
 * `GET /v1/console`: the page a team signs in to with its token, to see and move its remote
 * (docs/console.md). It holds no data: everything it shows comes from the endpoints of releases,
 * telemetry and access with the token the user typed, so the API's scope checks are the console's.
 */
export function consoleRoutes(): Router {
  const router = Router();
  servePage(router, { path: '/v1/console', html: CONSOLE_HTML, csp: OPERATOR_PAGE_CSP, page: CONSOLE_PAGE });
  // Browsers ask the operator pages' origin for its icon; it has none, and a 404 would be logged in
  // every operator's console as an error.
  router.get('/favicon.ico', (_req, res) => {
    res.status(204).set('cache-control', 'public, max-age=86400').end();
  });
  return router;
}
