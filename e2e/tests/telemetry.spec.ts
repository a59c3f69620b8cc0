import type { Request } from '@playwright/test';
import { PAGE_TOKEN_PATTERN, type TelemetryReport } from '@special-gift/shared/telemetry';
import { expect, expectConsoleErrors, test } from '../support/fixtures';
import {
  breakRemote,
  rebuiltScreenChunk,
  FAILURE_MODES,
  REMOTE_NAMES,
  remoteOrigin,
  SCREENS,
  type FailureMode,
} from '../support/remote-failures';
import { newCardCode } from '../support/sign-up';
import { collectorRunning, hideAndCollect, isBeacon } from '../support/telemetry';
import { API_URL, E2E_OPERATOR_TOKEN, HOST_URL } from '../support/topology';

/**
 * Field telemetry (docs/telemetry.md) on the production builds: the collector loads after the
 * first screen, attributes each signal to its remote and build, and sends one beacon to the API
 * when the page is hidden; nothing under GPC or DNT, and nothing the user typed.
 */
test('web vitals arrive for each route once the page is hidden, attributed to its remote and build', async ({
  page,
}) => {
  for (const remote of REMOTE_NAMES) {
    await page.goto(SCREENS[remote].path);
    await collectorRunning(page);
    // A tap, so the page has an interaction to measure (INP).
    await page.locator('[data-page-title]').click();
    await page.waitForTimeout(300);
    const { batch, status } = await hideAndCollect(page);
    expect(status, 'the API takes the batch').toBe(202);
    expect(batch.route).toBe(SCREENS[remote].path);
    expect(batch.builds).toEqual(Object.fromEntries(REMOTE_NAMES.map((name) => [name, 'image'])));
    const vitals: Record<string, Record<string, unknown>> = Object.fromEntries(
      batch.events.filter((event) => event.type === 'vital').map((event) => [String(event.name), event]),
    );
    expect(Object.keys(vitals).sort(), `${remote}: vitals`).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    expect(vitals.LCP?.remote, `${remote}: the LCP element's remote`).toBe(remote);
    expect(vitals.INP?.remote, `${remote}: the tapped element's remote`).toBe(remote);
    console.log(
      `telemetry ${SCREENS[remote].path}: ${Object.values(vitals)
        .map((vital) => `${String(vital.name)} ${String(vital.value)} (${String(vital.target ?? '-')})`)
        .join(', ')}`,
    );
  }
});

test("a real page's batch carries the page's token: counted signed once, refused when replayed", async ({
  page,
  request,
}) => {
  /** The signup remote's image build, by provenance, as the report (and the verdict) reads it. */
  const provenance = async () => {
    const answer = await request.get(`${API_URL}/v1/telemetry/report?window=1h&remote=signup`, {
      headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    });
    const report = (await answer.json()) as TelemetryReport;
    const build = report.remotes[0]?.builds.find((entry) => entry.build === 'image');
    return { signed: build?.provenance.signed ?? 0, replayed: build?.provenance.replayed ?? 0 };
  };
  const before = await provenance();
  await page.goto('/sign-up');
  await collectorRunning(page);
  const { batch, status } = await hideAndCollect(page);
  expect(status).toBe(202);
  // Composed by nginx with the API's token: no release here, so no builds in it, and every remote's image.
  expect(batch.token).toMatch(PAGE_TOKEN_PATTERN);
  expect(batch.token?.split('.')[3]).toBe('');
  await expect.poll(provenance).toEqual({ signed: before.signed + 1, replayed: before.replayed });
  // The same batch again, as a script would replay it: accepted, and counted apart.
  const replay = await request.post(`${HOST_URL}/api/v1/telemetry`, {
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify(batch),
  });
  expect(replay.status()).toBe(202);
  await expect.poll(provenance).toEqual({ signed: before.signed + 1, replayed: before.replayed + 1 });
});

test('nothing the user types leaves the page, except the sign-up itself', async ({ page }) => {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  const code = newCardCode();
  const typed = {
    firstName: 'Zelmira',
    lastName: 'Quennevilleau',
    email: 'zelmira.quennevilleau@example.com',
    phone: '+33 6 12 34 56 78',
  };
  await page.goto('/sign-up');
  await collectorRunning(page);
  await page.locator('#signup-firstName').fill(typed.firstName);
  await page.locator('#signup-lastName').fill(typed.lastName);
  await page.locator('#signup-email').fill(typed.email);
  await page.locator('#signup-phone').fill(typed.phone);
  await page.locator('#signup-cardCode').fill(code);
  await page.locator('#signup-email').click();
  const { batch } = await hideAndCollect(page);
  expect(batch.events.length).toBeGreaterThan(0);

  const secrets = [...Object.values(typed), code, code.slice(-8), '612345678', 'example.com'].map((value) =>
    value.toLowerCase(),
  );
  const leaks = requests
    .filter((request) => !(request.method() === 'POST' && request.url().endsWith('/api/v1/sign-ups')))
    .flatMap((request) => {
      const sent = `${decodeURIComponent(request.url())} ${request.postData() ?? ''}`.toLowerCase();
      return secrets.filter((secret) => sent.includes(secret)).map((secret) => `${request.url()}: ${secret}`);
    });
  expect(leaks).toEqual([]);
  expect(requests.filter(isBeacon).every((request) => !request.url().includes('?'))).toBe(true);
});

for (const [signal, script] of [
  [
    'Global Privacy Control',
    () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
  ],
  ['Do Not Track', () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })],
] as const) {
  test(`under ${signal} nothing is collected or sent`, async ({ page }) => {
    await page.addInitScript(script);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto('/sign-up');
    await expect(page.locator('html')).toHaveAttribute('data-preloaded', 'true', { timeout: 20_000 });
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForTimeout(1_000);
    expect(
      requests.filter((url) => /\/collector\.[0-9a-f]+\.js$/.test(url) || url.endsWith('/api/v1/telemetry')),
    ).toEqual([]);
  });
}

test('an uncaught error is attributed to the remote whose script threw it', async ({ page }) => {
  expectConsoleErrors('the intro screen throws on purpose');
  await page.route(
    `${remoteOrigin('intro')}/**`,
    rebuiltScreenChunk((code) => `${code}\n;setTimeout(function () { throw new TypeError('intro failed'); }, 0);`),
  );
  await page.goto('/');
  await collectorRunning(page);
  const { batch } = await hideAndCollect(page);
  expect(batch.events).toContainEqual(
    expect.objectContaining({ type: 'uncaught', remote: 'intro', errorName: 'TypeError', rejection: false }),
  );
});

/** Where each mode of the failure-isolation suite fails: the phase the event must name. */
const EXPECTED_PHASE: Record<FailureMode, string> = {
  'connection refused': 'entry',
  'remoteEntry.js 404': 'entry',
  'remoteEntry.js 500': 'entry',
  'screen chunk 500': 'screen',
  'screen chunk truncated': 'screen',
  'screen chunk garbage': 'screen',
  'screen CSS 500': 'screen',
  'remoteEntry.js registers no container': 'container',
  'built against another contract major': 'container',
  'every texts file 500': 'texts',
};

test('every failure mode of the chaos suite is reported, naming the remote, its build and the phase', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const matrix: string[] = [];
  let seen = 0;
  // A mode's three remotes at once, each in its own context (as failure isolation does): the
  // matrix's time is a third of one page after another's.
  for (const mode of Object.keys(FAILURE_MODES) as FailureMode[]) {
    const rows = await Promise.all(
      REMOTE_NAMES.map(async (remote) => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await breakRemote(page, remote, FAILURE_MODES[mode]);
          await page.goto(SCREENS[remote].path);
          await expect(page.getByRole('alert').first()).toBeVisible({ timeout: 30_000 });
          await collectorRunning(page);
          const { batch } = await hideAndCollect(page);
          const failure = batch.events.find((event) => event.type === 'load_failure' && event.remote === remote);
          return {
            line: `${mode} × ${remote} → ${failure ? `${String(failure.phase)}/${String(failure.kind)}` : 'none'}`,
            ok: failure?.phase === EXPECTED_PHASE[mode] && batch.builds[remote] === 'image',
          };
        } finally {
          await context.close();
        }
      }),
    );
    for (const row of rows) {
      matrix.push(row.line);
      if (row.ok) seen += 1;
    }
  }
  console.log(`telemetry attribution matrix (mode × remote → phase/kind):\n  ${matrix.join('\n  ')}`);
  expect(seen, matrix.join('\n')).toBe(Object.keys(FAILURE_MODES).length * REMOTE_NAMES.length);
});
