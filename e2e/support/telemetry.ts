import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect } from './fixtures';
import { API_URL } from './topology';

/** Field telemetry's batch as the page sends it (docs/telemetry.md). */
export interface SentBatch {
  readonly v: number;
  readonly route: string;
  readonly device: string;
  readonly builds: Record<string, string>;
  readonly events: ReadonlyArray<Record<string, unknown>>;
  /** The page token the composer wrote into the page (docs/telemetry.md). */
  readonly token?: string;
}

export const isBeacon = (request: Request) =>
  request.method() === 'POST' && request.url().endsWith('/api/v1/telemetry');

/** Once the collector runs (it takes the host's signals over). */
export async function collectorRunning(page: Page) {
  await page.waitForFunction(
    () => {
      const sink = (window as unknown as { __sgSignals?: unknown }).__sgSignals;
      return sink !== undefined && !Array.isArray(sink);
    },
    undefined,
    { timeout: 20_000 },
  );
}

/** Hides the page as a phone does when the user switches away, and returns the batch it sent. */
export async function hideAndCollect(page: Page): Promise<{ batch: SentBatch; status: number | undefined }> {
  const beacon = page.waitForRequest(isBeacon, { timeout: 10_000 });
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const request = await beacon;
  const response = await request.response();
  return { batch: JSON.parse(request.postData() ?? '{}') as SentBatch, status: response?.status() };
}

/** One page view of the sign-up route on a phone, straight to the API as the browser's beacon sends it. */
export async function postSignUpPageView(
  request: APIRequestContext,
  build: string,
  events: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const response = await request.post(`${API_URL}/v1/telemetry`, {
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify({ v: 1, route: '/sign-up', device: 'phone', builds: { signup: build }, events }),
  });
  expect(response.status()).toBe(202);
}
