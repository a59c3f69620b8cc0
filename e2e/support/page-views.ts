import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { collectorRunning, hideAndCollect } from './telemetry';
import { HOST_URL } from './topology';

/** The canary bucket (every share includes it) and a bucket only the live build gets below 100 %. */
export const CANARY_BUCKET = 0;
export const LIVE_BUCKET = 99;

/**
 * Real visitors for a rollout's rule: phones on their own networks (`X-Forwarded-For`, which the
 * suite's host believes from 127.0.0.1 only when restarted with `REAL_IP_FROM`), each in a canary
 * bucket, each page view a real page of the production builds whose collector sends its signed
 * batch when the phone hides it. The API judges at most 5 page views per network and build, so
 * views are spread over networks.
 */
export class Visitors {
  private readonly contexts = new Map<string, BrowserContext>();
  /** Page views sent per bucket so far: the next one's network follows from it. */
  private readonly sent = new Map<number, number>();

  constructor(private readonly browser: Browser) {}

  /**
   * `count` page views of the sign-up screen in `bucket`, five per network (`10.<bucket>.<n>.1`);
   * `beforeHide` runs on each page first (the raised-error build's field is focused there).
   * Returns the sign-up build each page was composed with, for the caller to check the arm it fed.
   */
  async view(options: {
    bucket: number;
    count: number;
    beforeHide?: (page: Page) => Promise<void>;
  }): Promise<string[]> {
    const builds: string[] = [];
    for (let index = 0; index < options.count; index += 1) {
      const sent = this.sent.get(options.bucket) ?? 0;
      this.sent.set(options.bucket, sent + 1);
      const network = `10.${options.bucket}.${Math.floor(sent / 5)}.1`;
      const context = await this.context(network, options.bucket);
      const page = await context.newPage();
      await page.goto(`${HOST_URL}/sign-up`);
      await collectorRunning(page);
      await options.beforeHide?.(page);
      const { batch, status } = await hideAndCollect(page);
      expect(status, 'the signed batch is taken').toBe(202);
      expect(batch.token, 'the page carries its page token').toBeTruthy();
      builds.push(batch.builds.signup ?? '');
      await page.close();
    }
    return builds;
  }

  private async context(network: string, bucket: number): Promise<BrowserContext> {
    const key = `${network}|${bucket}`;
    const known = this.contexts.get(key);
    if (known) return known;
    const context = await this.browser.newContext({
      extraHTTPHeaders: { 'X-Forwarded-For': network },
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
      serviceWorkers: 'block',
    });
    await context.addCookies([{ name: 'sg_bucket', value: String(bucket), url: HOST_URL }]);
    this.contexts.set(key, context);
    return context;
  }

  async close(): Promise<void> {
    for (const context of this.contexts.values()) await context.close();
    this.contexts.clear();
  }
}
