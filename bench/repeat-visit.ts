/**
 * A repeat visit's LCP (docs/offline.md): the federated app with its offline worker, the same
 * without it, and the monolith baseline, the last two with only the HTTP cache, each visited once, then loaded again on a throttled
 * phone (4x CPU, a 4G-like link: 150 ms, 1.6 Mbit/s down). `npm run bench:repeat-visit`, on the
 * production builds (`npm run build && npm run build:baseline`). Prints the runs and medians; on a
 * shared machine the spread is wide, so read the medians, not a single run.
 */
import { chromium, devices, type Browser } from '@playwright/test';
import globalSetup from '../e2e/support/global-setup';
import globalTeardown from '../e2e/support/global-teardown';
import { HOST_URL, MONOLITH_URL } from '../e2e/support/topology';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tooling/chromium';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PATH = '/sign-up';

async function repeatVisitLcp(browser: Browser, base: string, withWorker: boolean): Promise<number> {
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    serviceWorkers: withWorker ? 'allow' : 'block',
  });
  try {
    const page = await context.newPage();
    await page.goto(`${base}${PATH}`);
    await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
    if (withWorker)
      await page.waitForFunction(
        async () => Boolean(await (await caches.open('sg-meta')).match('/__sg/offline-set')),
        null,
        {
          timeout: 30_000,
        },
      );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await page.goto(`${base}${PATH}`);
    await page.locator('html[data-interactive="true"]').waitFor({ timeout: 30_000 });
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main() {
  await globalSetup();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const runs = {
      'federated, worker': [] as number[],
      'federated, no worker': [] as number[],
      monolith: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      runs['federated, worker'].push(await repeatVisitLcp(browser, HOST_URL, true));
      runs['federated, no worker'].push(await repeatVisitLcp(browser, HOST_URL, false));
      runs.monolith.push(await repeatVisitLcp(browser, MONOLITH_URL, false));
    }
    for (const [name, values] of Object.entries(runs))
      console.log(
        `${name}: repeat-visit LCP ${values.map(Math.round).join(', ')} ms; median ${Math.round(median(values))} ms`,
      );
  } finally {
    await browser.close();
    await globalTeardown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
