import { expect, test } from '../support/engines/fixtures';
import type { Engine } from '../support/engines/driver';
import { until, untilPreloaded } from '../support/engines/page';
import { API_URL, E2E_OPERATOR_TOKEN } from '../support/topology';
import type { TelemetryReport } from '@special-gift/shared/telemetry';
import type { SentBatch } from '../support/telemetry';

/** The class the API stores for each engine (api/src/telemetry/engine.ts). */
const REPORTED_AS: Record<Engine, string> = { chromium: 'blink', firefox: 'gecko', webkit: 'webkit' };
const REPORTED = ['LCP', 'INP', 'CLS'] as const;
type Vital = (typeof REPORTED)[number];
/**
 * What each engine here measures (docs/browsers.md), pinned: an engine that gains or loses an API
 * fails the suite rather than quietly changing what the report can say.
 */
const EXPECTED_VITALS: Record<Engine, Record<Vital, boolean>> = {
  chromium: { LCP: true, INP: true, CLS: true },
  firefox: { LCP: true, INP: true, CLS: false },
  webkit: { LCP: false, INP: false, CLS: false },
};

interface SpyWindow {
  __sgSignals?: unknown;
  __sentBeacons?: string[];
}

test('the batch goes on hide with the vitals this engine has and nothing typed; the report names the engine', async ({
  driver,
}) => {
  const typed = { firstName: 'Zelmira', email: 'zelmira.quennevilleau@example.com' };
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await until(
    driver,
    'collector running',
    () => {
      const sink = (window as unknown as SpyWindow).__sgSignals;
      return sink !== undefined && !Array.isArray(sink);
    },
    undefined,
    20_000,
  );
  // What the engine measures at all (web-vitals needs these; INP needs Event Timing's interactionId).
  const support = await driver.evaluate(() => ({
    LCP: PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint'),
    INP: typeof PerformanceEventTiming !== 'undefined' && 'interactionId' in PerformanceEventTiming.prototype,
    CLS: PerformanceObserver.supportedEntryTypes.includes('layout-shift'),
  }));
  expect(support, `${driver.engine} measures`).toEqual(EXPECTED_VITALS[driver.engine]);
  const has = (vital: Vital) => support[vital];
  await driver.type('#signup-firstName', typed.firstName);
  await driver.type('#signup-email', typed.email);
  await driver.click('[data-page-title]'); // an interaction to measure (INP), where the engine can
  await new Promise((resolve) => setTimeout(resolve, 500));

  // The report: this engine's page views of the sign-up builds, with their vitals; those it lacks
  // are null. The engine's session count is read before the page is hidden, so the poll below
  // waits for this page view's batch, not an earlier test's.
  const engineRows = async () => {
    const response = await fetch(`${API_URL}/v1/telemetry/report?remote=signup`, {
      headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    });
    const report = (await response.json()) as TelemetryReport;
    return (report.remotes[0]?.builds ?? []).map((build) => ({
      build: build.build,
      row: build.engines.find((entry) => entry.engine === REPORTED_AS[driver.engine]),
    }));
  };
  const engineSessions = async () => (await engineRows()).reduce((sum, { row }) => sum + (row?.sessions ?? 0), 0);
  const sessionsBefore = await engineSessions();

  // Records what the page hands to sendBeacon (the request still goes out), then hides the page as
  // a phone does when the user switches away.
  await driver.evaluate(() => {
    const spy = window as unknown as SpyWindow;
    const send = navigator.sendBeacon.bind(navigator);
    spy.__sentBeacons = [];
    navigator.sendBeacon = (url, data) => {
      spy.__sentBeacons?.push(String(data));
      return send(url, data);
    };
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await until(driver, 'beacon sent', () => ((window as unknown as SpyWindow).__sentBeacons?.length ?? 0) > 0);
  const body = await driver.evaluate(() => (window as unknown as SpyWindow).__sentBeacons?.[0] ?? '');
  const batch = JSON.parse(body) as SentBatch;
  expect(batch.route).toBe('/sign-up');
  for (const value of Object.values(typed)) expect(body, 'no personal data').not.toContain(value);
  const sentVitals = new Set(batch.events.filter((event) => event.type === 'vital').map((event) => event.name));
  // What the engine lacks is never sent; what it has is sent (INP only when an interaction was
  // slow enough for Event Timing to record it, so its absence alone is no failure).
  for (const vital of REPORTED) {
    if (!has(vital)) expect(sentVitals.has(vital), `${driver.engine} lacks ${vital}`).toBe(false);
    else if (vital !== 'INP') expect(sentVitals.has(vital), `${driver.engine} has ${vital}`).toBe(true);
  }
  console.log(`telemetry ${driver.engine}: sent ${[...sentVitals].sort().join(', ')}`);

  await expect
    .poll(engineSessions, { message: `${driver.engine}: this page view's batch stored` })
    .toBeGreaterThan(sessionsBefore);
  const row = (await engineRows()).find((entry) => entry.build === batch.builds.signup)?.row;
  for (const vital of REPORTED) {
    if (sentVitals.has(vital)) expect(row?.p75[vital], `${vital} reported`).toEqual(expect.any(Number));
    if (!has(vital)) expect(row?.p75[vital], `${vital} missing, not 0`).toBeNull();
  }
});
