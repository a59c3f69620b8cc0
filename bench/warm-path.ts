import { devices, type Browser } from '@playwright/test';

export interface WarmPath {
  /** Script and stylesheet requests while moving between screens after the preload. */
  codeRequests: number;
  /** Translation file requests in the same time. */
  textRequests: number;
  /**
   * Click on "Get started" to the sign-up title painted (next frame), 4x CPU throttling, every move.
   * Each round's first move is a different one from the rest: it leaves the server-composed first
   * screen and renders the sign-up screen for the first time on that page.
   */
  clickToHeadingMs: number[];
  /** The same, the first move of each round only. */
  firstMoveMs?: number[];
  /** The same, every later move (the screens already rendered once on the page). */
  laterMovesMs?: number[];
}

/**
 * After the first screen and the preload, moves intro -> sign-up (and back) `runs` times and times
 * each move from the click to the next screen's title painted, with the CPU throttled 4x.
 */
export async function measureWarmPath(browser: Browser, baseUrl: string, runs: number): Promise<WarmPath> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let codeRequests = 0;
    let textRequests = 0;
    page.on('request', (request) => {
      if (['script', 'stylesheet'].includes(request.resourceType())) codeRequests += 1;
      if (request.url().includes('/assets/i18n/')) textRequests += 1;
    });
    const clickToHeadingMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Get started');
            if (!button) return reject(new Error('no "Get started" button on the page'));
            const start = performance.now();
            const observer = new MutationObserver(() => {
              if (document.querySelector('[data-page-title]')?.textContent === 'Sign up') {
                observer.disconnect();
                requestAnimationFrame(() => resolve(performance.now() - start));
              }
            });
            observer.observe(document.body, { subtree: true, childList: true, characterData: true });
            button.click();
          }),
      );
      clickToHeadingMs.push(ms);
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('heading', { name: 'A gift card that feels special' }).waitFor();
    }
    return {
      codeRequests,
      textRequests,
      clickToHeadingMs,
      firstMoveMs: clickToHeadingMs.slice(0, 1),
      laterMovesMs: clickToHeadingMs.slice(1),
    };
  } finally {
    await context.close();
  }
}
