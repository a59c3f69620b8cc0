import type { BrowserContext, Page, Route } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sriOf } from '../../release-cli/src/sri';
import { REMOTES, type RemoteName } from '../../tooling/remotes';
import { distOf } from './nginx';
import { E2E_PORTS } from './topology';

export { REMOTE_NAMES, type RemoteName } from '../../tooling/remotes';

/** Text that shows each remote's screen rendered, in English and French. */
const SCREEN_TEXT: Record<RemoteName, { en: string; fr: string }> = {
  intro: { en: 'A gift card that feels special', fr: 'Une carte cadeau vraiment spéciale' },
  signup: {
    en: 'Register your card to start using it. It takes about a minute.',
    fr: 'Enregistrez votre carte pour commencer à l’utiliser. Cela prend environ une minute.',
  },
  thankyou: { en: 'Thank you for signing up!', fr: 'Merci pour votre inscription !' },
};

/** Where each remote's screen lives and what shows that it rendered. */
export const SCREENS = Object.fromEntries(
  REMOTES.map((remote) => [remote.name, { path: remote.route, text: SCREEN_TEXT[remote.name] }]),
) as Record<RemoteName, { path: string; text: { en: string; fr: string } }>;

export const remoteOrigin = (remote: RemoteName) => `http://localhost:${E2E_PORTS[remote]}`;

/**
 * Ways a remote's deployment can fail, each as a route handler on that remote's origin. Requests
 * the mode does not concern go through to the real nginx.
 */
export const FAILURE_MODES = {
  'connection refused': (route) => route.abort('connectionrefused'),
  'remoteEntry.js 404': (route) =>
    isEntry(route) ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue(),
  'remoteEntry.js 500': (route) =>
    isEntry(route) ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.continue(),
  'screen chunk 500': (route) =>
    isScreenChunk(route, '.js') ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.continue(),
  'screen chunk truncated': async (route) => {
    if (!isScreenChunk(route, '.js')) return route.continue();
    const response = await route.fetch();
    const body = await response.text();
    return fulfillIfPending(route, {
      response,
      headers: notCached(response.headers()),
      body: body.slice(0, Math.floor(body.length / 2)),
    });
  },
  'screen chunk garbage': (route) =>
    isScreenChunk(route, '.js')
      ? route.fulfill({
          status: 200,
          contentType: 'text/javascript',
          body: '<html><body>502 Bad Gateway</body></html>',
        })
      : route.continue(),
  'screen CSS 500': (route) =>
    isScreenChunk(route, '.css') ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.continue(),
  'remoteEntry.js registers no container': (route) =>
    isEntry(route)
      ? route.fulfill({ status: 200, contentType: 'text/javascript', body: 'window.__notAContainer = true;' })
      : route.continue(),
  'built against another contract major': rebuiltScreenChunk((code) =>
    code.replace(/contractVersion:\s*1\b/, 'contractVersion:2'),
  ),
  'every texts file 500': (route) =>
    isTexts(route) ? route.fulfill({ status: 500, body: 'Internal Server Error' }) : route.continue(),
} satisfies Record<string, (route: Route) => Promise<void>>;

export type FailureMode = keyof typeof FAILURE_MODES;

/**
 * A changed body under the real chunk's URL must not enter the browser's cache as that immutable
 * file: in production a different build has a different hashed name, and a cut-off download is
 * never cached.
 */
/**
 * Answers a route whose handler first fetched the real file, unless the route was answered
 * meanwhile: on a loaded machine the fetch can outlast the request (the scenario restored the
 * remote, or the page gave the request up), and Playwright then refuses a second answer. Nothing
 * waits for that answer any more, so it is not an error of the test.
 */
async function fulfillIfPending(route: Route, answer: Parameters<Route['fulfill']>[0]): Promise<void> {
  try {
    await route.fulfill(answer);
  } catch (error) {
    if (!/Route is already handled/.test(String(error))) throw error;
  }
}

const notCached = (headers: Record<string, string>) => ({ ...headers, 'cache-control': 'no-store' });
const pathOf = (route: Route) => new URL(route.request().url()).pathname;
const isEntry = (route: Route) => pathOf(route) === '/remoteEntry.js';
const isTexts = (route: Route) => pathOf(route).startsWith('/assets/i18n/');
const isScreenChunk = (route: Route, extension: '.js' | '.css') =>
  /^\/__federation_expose_Screen\.[0-9a-f]+/.test(pathOf(route)) && pathOf(route).endsWith(extension);

/**
 * A remote's screen chunk as a build of other source would have it: changed by `edit`, and the
 * remote's entry (its image build's, which the page has no hash for) carrying the changed chunk's
 * hash, so webpack's chunk loader accepts it (docs/security.md).
 */
export function rebuiltScreenChunk(edit: (code: string) => string): (route: Route) => Promise<void> {
  return async (route) => {
    const port = Number(new URL(route.request().url()).port);
    const remote = REMOTES.find((candidate) => E2E_PORTS[candidate.name] === port)?.name;
    if (!remote || !(isEntry(route) || isScreenChunk(route, '.js'))) return route.continue();
    const dist = distOf(remote);
    const chunk = readdirSync(dist).find((file) => /^__federation_expose_Screen\.[0-9a-f]+\.js$/.test(file)) ?? '';
    const original = readFileSync(join(dist, chunk), 'utf8');
    const changed = edit(original);
    const response = await route.fetch();
    const body = isEntry(route) ? (await response.text()).replace(sriOf(original), sriOf(changed)) : changed;
    return fulfillIfPending(route, { response, headers: notCached(response.headers()), body });
  };
}

/** Makes `remote` fail in `handler`'s way for every page of `target`, until the returned function restores it. */
export async function breakRemote(
  target: Page | BrowserContext,
  remote: RemoteName,
  handler: (route: Route) => Promise<void>,
): Promise<() => Promise<void>> {
  const pattern = `${remoteOrigin(remote)}/**`;
  await target.route(pattern, handler);
  return () => target.unroute(pattern, handler);
}

/**
 * Milliseconds from `start` until `locator`-like text is visible. Polls at animation-frame rate in
 * the page, so the figure is not rounded up to Playwright's retry interval.
 */
export async function timeUntilVisible(
  page: Page,
  text: string,
  start: () => Promise<unknown>,
  timeoutMs = 30_000,
): Promise<number> {
  const began = Date.now();
  await start();
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  return Date.now() - began;
}

/** Errors a page reports that no handler caught: uncaught exceptions and unhandled rejections. */
export function collectUnhandled(page: Page): string[] {
  const unhandled: string[] = [];
  page.on('pageerror', (error) => unhandled.push(`${error.name}: ${error.message}`));
  page.on(
    'console',
    (message) =>
      message.type() === 'error' && /Uncaught|Unhandled/i.test(message.text()) && unhandled.push(message.text()),
  );
  return unhandled;
}
