import path from 'node:path';
import { Router } from 'express';
import { OPERATOR_PAGE_CSP, servePage, type BrowserPage } from '../http/browser-page';

/** The team console's script and styles (api/console-page/), bundled by esbuild beside the API's bundle. */
export const CONSOLE_PAGE: BrowserPage = {
  name: 'console',
  // api/console-page/, from api/src/console: only used when building, which runs from the sources.
  source: path.resolve(__dirname, '..', '..', 'console-page', 'console-page.ts'),
  outdir: 'console-page',
};

// Relative URLs only: the page is served at /v1/console and, through the host, at /api/v1/console;
// its script, styles and the JSON it reads are siblings either way. The script builds the screen.
const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Team console · Special Gift</title>
<link rel="stylesheet" href="console.css">
<script src="console.js" defer></script>
</head>
<body>
<header class="masthead"><p class="product">Special Gift</p><h1>Team console</h1></header>
<main id="console" tabindex="-1">
<noscript>This page needs JavaScript.</noscript>
</main>
</body>
</html>
`;

/**
 * `GET /v1/console`: the page a team signs in to with its token, to see and move its remote
 * (docs/console.md). It holds no data: everything it shows comes from the endpoints of releases,
 * telemetry and access with the token the user typed, so the API's scope checks are the console's.
 */
export function consoleRoutes(): Router {
  const router = Router();
  servePage(router, { path: '/v1/console', html: CONSOLE_HTML, csp: OPERATOR_PAGE_CSP, page: CONSOLE_PAGE });
  return router;
}
