import { devices, type Browser } from '@playwright/test';

/** Lab INP on the sign-up form, 4x CPU: each interaction's latency as the browser's Event Timing measures it. */
export interface LabInp {
  /** The page's INP: its slowest interaction (fewer than 50 interactions: no percentile is dropped). */
  inpMs: number;
  /** Each interaction kind's slowest latency: typing a key, tapping a field, a checkbox, a button. */
  byInteraction: Record<string, number>;
}

/**
 * Opens /sign-up after the preload, throttles the CPU 4x, then types a name and an e-mail, ticks
 * the terms, opens and closes the card help and submits the incomplete form (its errors render),
 * as a user would; reads every interaction's duration from `event` performance entries (the ones
 * INP is made of) and reports the slowest per kind and overall.
 */
export async function measureLabInp(browser: Browser, baseUrl: string): Promise<LabInp> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/sign-up`);
    await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      const seen: Array<{ interactionId: number; name: string; duration: number; target: string }> = [];
      (window as unknown as { __interactions: typeof seen }).__interactions = seen;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[]) {
          if (!entry.interactionId) continue;
          const target = entry.target instanceof HTMLElement ? entry.target.id || entry.target.localName : '';
          seen.push({ interactionId: entry.interactionId, name: entry.name, duration: entry.duration, target });
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['tap a field', () => page.locator('#signup-firstName').tap()],
      ['type a key', () => page.locator('#signup-firstName').pressSequentially('Amira', { delay: 80 })],
      ['tap a field', () => page.locator('#signup-email').tap()],
      ['type a key', () => page.locator('#signup-email').pressSequentially('amira@example.com', { delay: 80 })],
      ['tick a box', () => page.locator('#signup-acceptedTerms').tap()],
      ['tap a button', () => page.getByRole('button', { name: 'Where is my card code?' }).tap()],
      ['tap a button', () => page.keyboard.press('Escape')],
      ['tap a button', () => page.getByRole('button', { name: 'Sign up', exact: true }).tap()],
    ];
    const kindOf = new Map<number, string>();
    for (const [kind, step] of steps) {
      const before = await page.evaluate(
        () => (window as unknown as { __interactions: unknown[] }).__interactions.length,
      );
      await step();
      await page.waitForTimeout(400); // the interaction's next paint, and its entry, arrive
      const added = await page.evaluate(
        (from) =>
          (window as unknown as { __interactions: Array<{ interactionId: number }> }).__interactions
            .slice(from)
            .map((entry) => entry.interactionId),
        before,
      );
      for (const id of added) if (!kindOf.has(id)) kindOf.set(id, kind);
    }
    const entries = await page.evaluate(
      () =>
        (window as unknown as { __interactions: Array<{ interactionId: number; duration: number }> }).__interactions,
    );
    const byInteraction: Record<string, number> = {};
    let inpMs = 0;
    for (const entry of entries) {
      const kind = kindOf.get(entry.interactionId) ?? 'other';
      byInteraction[kind] = Math.max(byInteraction[kind] ?? 0, entry.duration);
      inpMs = Math.max(inpMs, entry.duration);
    }
    return { inpMs, byInteraction };
  } finally {
    await context.close();
  }
}
