import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { collectorRunning, hideAndCollect } from './telemetry';
import { HOST_URL } from './topology';

/** The canary bucket (every share includes it) and a bucket only the live build gets below 100 %. */
export const CANARY_BUCKET = 0;
export const LIVE_BUCKET = 99;
const PARALLEL = 4;

/** One page view: the sign-up build its page was composed with, and whether its batch was signed. */
export interface PageView {
  readonly build: string;
  readonly signed: boolean;
}

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

  /** `hostUrl`: the host the phones open (the suite's, or the compose stack's published port). */
  constructor(
    private readonly browser: Browser,
    private readonly hostUrl: string = HOST_URL,
  ) {}

  /**
   * `count` page views of the sign-up screen in `bucket`, five per network (`10.<bucket>.<n>.1`);
   * `beforeHide` runs on each page first (the raised-error build's field is focused there).
   * Returns each page's sign-up build and whether it was signed, for the caller to check what it fed.
   */
  async view(options: {
    bucket: number;
    count: number;
    beforeHide?: (page: Page) => Promise<void>;
  }): Promise<PageView[]> {
    const contexts: BrowserContext[] = [];
    for (let index = 0; index < options.count; index += 1) {
      const sent = this.sent.get(options.bucket) ?? 0;
      this.sent.set(options.bucket, sent + 1);
      contexts.push(await this.context(`10.${options.bucket}.${Math.floor(sent / 5)}.1`, options.bucket));
    }
    // A few phones at once, as real traffic comes: the pages mostly wait on the network.
    const builds: PageView[] = [];
    for (let first = 0; first < contexts.length; first += PARALLEL)
      builds.push(
        ...(await Promise.all(
          contexts.slice(first, first + PARALLEL).map((context) => this.oneView(context, options.beforeHide)),
        )),
      );
    return builds;
  }

  private async oneView(context: BrowserContext, beforeHide?: (page: Page) => Promise<void>): Promise<PageView> {
    const page = await context.newPage();
    await page.goto(`${this.hostUrl}/sign-up`);
    // A real page view: the screen itself rendered (a page that failed to load it would count too).
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 20_000 });
    await expect(page.getByRole('alert')).toHaveCount(0);
    await collectorRunning(page);
    await beforeHide?.(page);
    const { batch, status } = await hideAndCollect(page);
    expect(status, 'the batch is taken').toBe(202);
    await page.close();
    // Unsigned when the composer gave no token: a page composed from a snapshot that a pointer move
    // replaced a moment before (a rollback under way), which the rule must not count.
    return { build: batch.builds.signup ?? '', signed: batch.token !== undefined };
  }

  private async context(network: string, bucket: number): Promise<BrowserContext> {
    const key = `${network}|${bucket}`;
    const known = this.contexts.get(key);
    if (known) return known;
    const context = await this.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
      serviceWorkers: 'block',
    });
    // The network as the load balancer in front of the host would say it: on the host's requests
    // only (the page, its token, the beacon). On every request, it would be a custom header that
    // the remotes' origins would have to allow in a CORS preflight, which no browser sends.
    await context.route(`${this.hostUrl}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': network } }),
    );
    await context.addCookies([{ name: 'sg_bucket', value: String(bucket), url: this.hostUrl }]);
    this.contexts.set(key, context);
    return context;
  }

  async close(): Promise<void> {
    for (const context of this.contexts.values()) await context.close();
    this.contexts.clear();
  }
}
