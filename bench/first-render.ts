import type { Browser, Page } from '@playwright/test';
import { devices } from '@playwright/test';

/** A request the page made, as the browser saw it. */
export interface RequestRecord {
  url: string;
  resourceType: string;
  /** Body bytes as transferred (gzipped when the server compressed it). */
  bodyBytes: number;
  /** When it was sent, in ms since the epoch (comparable with the page's `Date.now()`). */
  sentAt: number;
}

export interface FirstRender {
  /** Every request sent before the first screen's title was in the page (the browser's favicon aside). */
  requests: RequestRecord[];
  /** Script body bytes among them: the JS the first render needed, gzipped as transferred. */
  jsBytes: number;
  /** Every request until the preload finished. */
  afterPreload: RequestRecord[];
  /** Console errors and page errors: a measurement of a broken page is no measurement. */
  errors: string[];
}

/** Collects every finished request of the page; `settled()` resolves with all of them so far. */
function recordRequests(page: Page): { settled: () => Promise<RequestRecord[]> } {
  const pending: Array<Promise<RequestRecord>> = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((sizes) => ({
        url: request.url(),
        resourceType: request.resourceType(),
        bodyBytes: sizes.responseBodySize,
        sentAt: request.timing().startTime,
      })),
    );
  });
  return { settled: () => Promise.all(pending) };
}

/** Stamps (in the page) the moment a screen title first appears: the first screen is rendered. */
async function stampFirstScreen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-page-title]')?.textContent) {
        (window as unknown as { __firstScreenAt: number }).__firstScreenAt = Date.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const isBrowserOwn = (record: RequestRecord) => /\/favicon\.(svg|ico)$/.test(record.url);
export const scriptBytes = (records: readonly RequestRecord[]) =>
  records.filter((r) => r.resourceType === 'script').reduce((sum, r) => sum + r.bodyBytes, 0);

/**
 * Cold load of `url` in a fresh context (empty cache) on a Pixel 7: what the first screen needed,
 * and everything up to the end of the preload (`<html data-preloaded>`).
 */
export async function measureFirstRender(browser: Browser, url: string): Promise<FirstRender> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await stampFirstScreen(page);
    const recorder = recordRequests(page);
    await page.goto(url);
    await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const firstScreenAt = await page.evaluate(
      () => (window as unknown as { __firstScreenAt?: number }).__firstScreenAt,
    );
    if (typeof firstScreenAt !== 'number')
      throw new Error(`${url}: no screen title ever appeared, so there is no first render to measure`);
    const afterPreload = (await recorder.settled()).filter((r) => !isBrowserOwn(r));
    const requests = afterPreload.filter((r) => r.sentAt <= firstScreenAt);
    return { requests, jsBytes: scriptBytes(requests), afterPreload, errors };
  } finally {
    await context.close();
  }
}
