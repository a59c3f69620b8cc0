/**
 * `npm run measure`: figures for the federated production build served as in production (nginx
 * with the images' config, gzip): the cold load of `/` (requests and gzipped JS before the first
 * screen, and after the preload), the gzipped size of each remote's exposed screen, and the warm
 * path (requests and click-to-heading time when moving between screens, CPU throttled 4x), and
 * the first-render JS bytes against a monolith build of the same sources (tooling/bench/monolith).
 * Prints a table and writes bench-results/federated.json. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, devices, type Page } from '@playwright/test';
import globalSetup from '../../e2e/support/global-setup';
import globalTeardown from '../../e2e/support/global-teardown';
import { E2E_PORTS, HOST_URL } from '../../e2e/support/topology';
import { REMOTE_APPS, REPO_ROOT } from '../serve/local-topology';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WARM_RUNS = 20;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 6 }).length;

/** The gzipped JS and CSS of each remote's `./Screen` (what a navigation to it needs beyond shared code). */
function exposedScreenSizes() {
  return REMOTE_APPS.map(({ name, dir }) => {
    const dist = join(REPO_ROOT, dir, 'dist');
    const manifest = JSON.parse(readFileSync(join(dist, 'mf-manifest.json'), 'utf8')) as {
      exposes: Array<{ path: string; assets: { js: { sync: string[]; async: string[] }; css: { sync: string[]; async: string[] } } }>;
      metaData: { remoteEntry: { name: string } };
    };
    const screen = manifest.exposes.find((expose) => expose.path === './Screen');
    if (!screen) throw new Error(`${dir} exposes no ./Screen`);
    const js = screen.assets.js.sync.reduce((sum, file) => sum + gzipSize(join(dist, file)), 0);
    const css = screen.assets.css.sync.reduce((sum, file) => sum + gzipSize(join(dist, file)), 0);
    return { remote: name, screenJsGzip: js, screenCssGzip: css, remoteEntryGzip: gzipSize(join(dist, manifest.metaData.remoteEntry.name)) };
  });
}

/** Which built folder serves each e2e port, to size a transferred file by its gzipped build file. */
const DIST_BY_PORT: Record<number, string> = {
  [E2E_PORTS.host]: join(REPO_ROOT, 'host', 'dist'),
  [E2E_PORTS.intro]: join(REPO_ROOT, 'remote-intro', 'dist'),
  [E2E_PORTS.signup]: join(REPO_ROOT, 'remote-signup', 'dist'),
  [E2E_PORTS.thankyou]: join(REPO_ROOT, 'remote-thankyou', 'dist'),
};
const MONOLITH_DIR = join(REPO_ROOT, 'tooling', 'bench', 'monolith');

/**
 * The baseline: the same shell and screens built as one app without federation. Its first render
 * of `/` needs the entry chunk and the intro screen's chunk (found by a class only it uses).
 */
function monolithFirstRenderJsGzip(): number {
  execFileSync(join(REPO_ROOT, 'node_modules', '.bin', 'webpack'), ['-c', join(MONOLITH_DIR, 'webpack.config.ts')], { cwd: REPO_ROOT, stdio: 'pipe' });
  const dist = join(MONOLITH_DIR, 'dist');
  const js = readdirSync(dist).filter((file) => file.endsWith('.js'));
  const needed = js.filter((file) => file.startsWith('main.') || readFileSync(join(dist, file), 'utf8').includes('intro-hero'));
  return needed.reduce((sum, file) => sum + gzipSize(join(dist, file)), 0);
}

interface Transfer {
  url: string;
  type: string;
  bytes: number;
  /** When the request was sent, in ms since the epoch (comparable with the page's Date.now()). */
  sentAt: number;
}

/** Records every response's transferred (encoded) size through the DevTools protocol. */
async function recordTransfers(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const sent = new Map<string, number>();
  const types = new Map<string, { url: string; type: string }>();
  const transfers: Transfer[] = [];
  cdp.on('Network.requestWillBeSent', (event) => sent.set(event.requestId, event.wallTime * 1000));
  cdp.on('Network.responseReceived', (event) => types.set(event.requestId, { url: event.response.url, type: event.type }));
  cdp.on('Network.loadingFinished', (event) => {
    const info = types.get(event.requestId);
    if (info) transfers.push({ ...info, bytes: event.encodedDataLength, sentAt: sent.get(event.requestId) ?? 0 });
  });
  return transfers;
}

async function coldLoad() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await browser.newContext(devices['Pixel 7']);
  const page = await context.newPage();
  const transfers = await recordTransfers(page);
  // The moment the first screen's headline is in the page, stamped by the page itself.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('.intro-hero__headline')) {
        (window as unknown as { __firstScreenAt: number }).__firstScreenAt = Date.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, childList: true });
  });
  await page.goto(`${HOST_URL}/`);
  await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const firstScreenAt = await page.evaluate(() => (window as unknown as { __firstScreenAt: number }).__firstScreenAt);
  const afterPreload = [...transfers];
  // Requests sent before the first screen appeared (the favicon is the browser's, not the app's).
  const firstScreen = afterPreload.filter((t) => t.sentAt <= firstScreenAt && !t.url.endsWith('/favicon.svg'));
  await browser.close();
  const js = (list: Transfer[]) => list.filter((t) => t.type === 'Script').reduce((sum, t) => sum + t.bytes, 0);
  const fileGzip = (t: Transfer) => {
    const url = new URL(t.url);
    return gzipSize(join(DIST_BY_PORT[Number(url.port)] ?? '', url.pathname));
  };
  return {
    firstScreenJsFilesGzip: firstScreen.filter((t) => t.type === 'Script').reduce((sum, t) => sum + fileGzip(t), 0),
    firstScreenRequests: firstScreen.length,
    firstScreenJsGzip: js(firstScreen),
    firstScreenJsFiles: firstScreen.filter((t) => t.type === 'Script').length,
    afterPreloadRequests: afterPreload.length,
    afterPreloadJsGzip: js(afterPreload),
    firstScreen: firstScreen.map((t) => `${t.type} ${t.bytes} ${t.url}`),
  };
}

async function warmPath() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await browser.newContext(devices['Pixel 7']);
  const page = await context.newPage();
  await page.goto(`${HOST_URL}/`);
  await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let requests = 0;
  page.on('request', (request) => {
    if (!request.url().endsWith('/favicon.svg')) requests += 1;
  });
  const timings: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    // Time from the click to the next screen's title painted (after the next frame).
    const ms = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const start = performance.now();
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Get started');
          const observer = new MutationObserver(() => {
            if (document.querySelector('[data-page-title]')?.textContent === 'Sign up') {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - start));
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
          button?.click();
        }),
    );
    timings.push(ms);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'A gift card that feels special' }).waitFor();
  }
  await browser.close();
  return { navigationRequests: requests, clickToHeadingMedianMs: Math.round(median(timings)), clickToHeadingMinMs: Math.round(Math.min(...timings)), clickToHeadingMaxMs: Math.round(Math.max(...timings)) };
}

async function main() {
  await globalSetup();
  try {
    const cold = await coldLoad();
    const monolithJsGzip = monolithFirstRenderJsGzip();
    const bytes = { federatedFirstRenderJsGzip: cold.firstScreenJsFilesGzip, monolithFirstRenderJsGzip: monolithJsGzip, ratio: Number((cold.firstScreenJsFilesGzip / monolithJsGzip).toFixed(2)) };
    const results = { date: new Date().toISOString(), cold, bytes, warm: await warmPath(), screens: exposedScreenSizes() };
    mkdirSync(join(REPO_ROOT, 'bench-results'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'bench-results', 'federated.json'), JSON.stringify(results, null, 2));
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log('\nFederated production build, nginx + gzip, Pixel 7 emulation');
    console.log(`cold load of /: ${results.cold.firstScreenRequests} requests, ${results.cold.firstScreenJsFiles} JS files, ${kb(results.cold.firstScreenJsGzip)} JS transferred before the first screen`);
    console.log(`first render of /, gzip -6 of the JS files: federated ${kb(bytes.federatedFirstRenderJsGzip)}, monolith ${kb(bytes.monolithFirstRenderJsGzip)}, ratio ${bytes.ratio} (target <= 1.10)`);
    console.log(`after the preload: ${results.cold.afterPreloadRequests} requests, ${kb(results.cold.afterPreloadJsGzip)} JS transferred`);
    console.log(`warm path (4x CPU throttle, ${WARM_RUNS} runs): ${results.warm.navigationRequests} requests; click to heading median ${results.warm.clickToHeadingMedianMs} ms (min ${results.warm.clickToHeadingMinMs}, max ${results.warm.clickToHeadingMaxMs})`);
    console.table(results.screens.map((s) => ({ remote: s.remote, 'screen JS (gzip)': kb(s.screenJsGzip), 'screen CSS (gzip)': kb(s.screenCssGzip), 'remoteEntry.js (gzip)': kb(s.remoteEntryGzip) })));
    console.log(results.cold.firstScreen.join('\n'));
  } finally {
    await globalTeardown();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
