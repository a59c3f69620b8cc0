import { devices, type Browser, type Page } from '@playwright/test';

/** Lab INP at 4x CPU: each interaction's latency as the browser's Event Timing measures it. */
export interface LabInp {
  /** The run's INP: its slowest interaction (fewer than 50 interactions: no percentile is dropped). */
  inpMs: number;
  /** Each interaction kind's slowest latency in the run. */
  byInteraction: Record<string, number>;
  /**
   * Each kind's mean latency over its interactions in the run. Event Timing rounds a duration to
   * 8 ms; a mean over a kind's several interactions resolves finer than one slowest value.
   */
  meanByInteraction?: Record<string, number>;
}

/**
 * The JavaScript each interaction kind runs: function calls counted by V8 (precise coverage), in
 * the page's own scripts, summed over the kind's interactions in one run. Unlike a time, a count
 * does not move with the machine's load, so it shows whether one build does more work per tap.
 */
export type CallsByInteraction = Record<string, number>;

/** A user's steps on one screen, each named by the kind of interaction it is. */
interface Journey {
  path: string;
  steps: (page: Page) => Array<[kind: string, step: () => Promise<unknown>]>;
}

/**
 * What a user does after the first paint, on every screen: on the sign-up form, tap fields, type
 * a name and an e-mail, tick the terms (and untick and tick again), open and close the card help, submit the incomplete form
 * (its errors render); on the intro, open the language sheet and switch to French and back (every
 * text on the page changes); on the thank-you screen, Done (back to the intro).
 */
const JOURNEYS: Journey[] = [
  {
    path: '/sign-up',
    steps: (page) => [
      ['tap a field', () => page.locator('#signup-firstName').tap()],
      ['type a key', () => page.locator('#signup-firstName').pressSequentially('Amira', { delay: 80 })],
      ['tap a field', () => page.locator('#signup-email').tap()],
      ['type a key', () => page.locator('#signup-email').pressSequentially('amira@example.com', { delay: 80 })],
      ['tick a box', () => page.locator('#signup-acceptedTerms').tap()],
      ['tick a box', () => page.locator('#signup-acceptedTerms').tap()],
      ['tick a box', () => page.locator('#signup-acceptedTerms').tap()],
      ['tap a button', () => page.getByRole('button', { name: 'Where is my card code?' }).tap()],
      ['tap a button', () => page.keyboard.press('Escape')],
      ['tap a button', () => page.getByRole('button', { name: 'Sign up', exact: true }).tap()],
    ],
  },
  {
    path: '/',
    steps: (page) => [
      ['open the language sheet', () => page.getByRole('button', { name: 'Language: English' }).tap()],
      ['switch the language', () => page.getByRole('button', { name: 'Français', exact: true }).tap()],
      ['open the language sheet', () => page.getByRole('button', { name: 'Langue : Français' }).tap()],
      ['switch the language', () => page.getByRole('button', { name: 'English', exact: true }).tap()],
    ],
  },
  {
    path: '/thank-you',
    steps: (page) => [['thank-you: Done', () => page.getByRole('button', { name: 'Done' }).tap()]],
  },
];

interface SeenInteraction {
  interactionId: number;
  duration: number;
}
type WithInteractions = Window & { __interactions: SeenInteraction[] };

/** One journey in a fresh context: every interaction's Event Timing duration, or its JS calls, by kind. */
async function measureJourney(
  browser: Browser,
  baseUrl: string,
  journey: Journey,
  measure: 'latency' | 'calls',
): Promise<Map<string, number[]>> {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}${journey.path}`);
    await page.locator('html[data-preloaded="true"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      const seen: SeenInteraction[] = [];
      (window as unknown as WithInteractions).__interactions = seen;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[])
          if (entry.interactionId) seen.push({ interactionId: entry.interactionId, duration: entry.duration });
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Calls since the last take, in the scripts the page's servers sent (not the test's own).
    const takeCalls = async () => {
      const { result } = await cdp.send('Profiler.takePreciseCoverage');
      let calls = 0;
      for (const script of result)
        if (script.url.startsWith('http')) for (const fn of script.functions) calls += fn.ranges[0]?.count ?? 0;
      return calls;
    };
    if (measure === 'calls') {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    }
    const count = () => page.evaluate(() => (window as unknown as WithInteractions).__interactions.length);
    const byKind = new Map<string, number[]>();
    const record = (kind: string, values: Iterable<number>) =>
      byKind.set(kind, [...(byKind.get(kind) ?? []), ...values]);
    for (const [kind, step] of journey.steps(page)) {
      const before = await count();
      if (measure === 'calls') await takeCalls();
      await step();
      await page.waitForTimeout(400); // the interaction's next paint, and its entries, arrive
      if (measure === 'calls') {
        record(kind, [await takeCalls()]);
        continue;
      }
      const added = await page.evaluate(
        (from) => (window as unknown as WithInteractions).__interactions.slice(from),
        before,
      );
      // An interaction is several entries (pointerdown, pointerup, click): its latency is the longest.
      const byId = new Map<number, number>();
      for (const entry of added)
        byId.set(entry.interactionId, Math.max(byId.get(entry.interactionId) ?? 0, entry.duration));
      record(kind, byId.values());
    }
    return byKind;
  } finally {
    await context.close();
  }
}

/** One run: every journey once, each interaction kind's slowest latency and the run's INP. */
export async function measureLabInp(browser: Browser, baseUrl: string): Promise<LabInp> {
  const all: Record<string, number[]> = {};
  for (const journey of JOURNEYS) {
    for (const [kind, durations] of await measureJourney(browser, baseUrl, journey, 'latency'))
      all[kind] = [...(all[kind] ?? []), ...durations];
  }
  const byInteraction: Record<string, number> = {};
  const meanByInteraction: Record<string, number> = {};
  for (const [kind, durations] of Object.entries(all)) {
    byInteraction[kind] = Math.max(0, ...durations);
    if (durations.length) meanByInteraction[kind] = durations.reduce((sum, d) => sum + d, 0) / durations.length;
  }
  return { inpMs: Math.max(0, ...Object.values(byInteraction)), byInteraction, meanByInteraction };
}

/** Every journey once with V8 counting calls (slower: its timings are not used): the calls per kind. */
export async function countInteractionCalls(browser: Browser, baseUrl: string): Promise<CallsByInteraction> {
  const calls: CallsByInteraction = {};
  for (const journey of JOURNEYS) {
    for (const [kind, counts] of await measureJourney(browser, baseUrl, journey, 'calls'))
      calls[kind] = (calls[kind] ?? 0) + counts.reduce((sum, value) => sum + value, 0);
  }
  return calls;
}
