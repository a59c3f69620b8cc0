import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectConsoleErrors, test } from '../support/fixtures';
import { postSignUpPageView } from '../support/telemetry';
import { API_URL, E2E_OPERATOR_TOKEN, HOST_URL, OPERATOR_PAGES_URL } from '../support/topology';

// On the API's own origin, as operators reach it (docs/console.md): the host refuses the page.
const REPORT_PAGE = `${OPERATOR_PAGES_URL}/v1/telemetry/report.html`;
const CANARY = 'e2ec0ffee001';
const BASELINE = 'e2eba5e11e01';

/** A few page views of each signup build, straight to the API (as the browser's beacon would send them). */
async function seedTelemetry(request: APIRequestContext): Promise<void> {
  for (let index = 0; index < 6; index += 1) {
    for (const build of [CANARY, BASELINE])
      await postSignUpPageView(request, build, [
        { type: 'vital', name: 'LCP', value: 1500 + index * 100, remote: 'signup', t: 1500 },
        { type: 'vital', name: 'INP', value: 80 + index * 10, remote: null, t: 5000 },
        { type: 'vital', name: 'CLS', value: 0.01 * index, remote: 'signup', t: 5100 },
        ...(build === CANARY && index % 2 === 0
          ? [{ type: 'render_error', remote: 'signup', errorName: 'TypeError', t: 2000 }]
          : []),
      ]);
  }
  // Acknowledged before written: wait until the report counts them.
  await expect
    .poll(async () => {
      const response = await request.get(`${API_URL}/v1/telemetry/report?remote=signup`, {
        headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
      });
      const report = (await response.json()) as { remotes: Array<{ builds: Array<{ build: string }> }> };
      return report.remotes[0]?.builds.map((build) => build.build) ?? [];
    })
    .toEqual(expect.arrayContaining([CANARY, BASELINE]));
}

async function enterToken(page: Page, token: string): Promise<void> {
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Show the report' }).click();
}

test.describe('the telemetry report page', () => {
  test('the JSON refuses a request without the operator token', async ({ request }) => {
    const response = await request.get(`${API_URL}/v1/telemetry/report`);
    expect(response.status()).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  test("the host refuses the page: its token must not share an origin with the remotes' code", async ({ request }) => {
    for (const path of ['/api/v1/telemetry/report.html', '/api/v1/telemetry/report.js']) {
      const response = await request.get(`${HOST_URL}${path}`);
      expect(response.status()).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  test('a wrong token is refused, clearly, and shows no data', async ({ page }) => {
    expectConsoleErrors('the report answers 401 to a wrong token');
    await page.goto(REPORT_PAGE);
    await enterToken(page, 'not-the-operator-token-but-long-enough');
    await expect(page.getByText(/Refused: the API did not accept this operator token/)).toBeVisible();
    await expect(page.locator('canvas')).toHaveCount(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  test('with the token: a table and charts per remote, each build its own series', async ({ page, request }) => {
    await seedTelemetry(request);
    await page.goto(REPORT_PAGE);
    await enterToken(page, E2E_OPERATOR_TOKEN);
    const signup = page.locator('section[data-remote="signup"]');
    await expect(signup.getByRole('heading', { name: 'Remote signup' })).toBeVisible();
    await expect(signup.getByRole('cell', { name: CANARY })).toBeVisible();
    await expect(signup.getByRole('cell', { name: BASELINE })).toBeVisible();
    // The seeded batches carry no page token: shown, as unsigned, and none counts in a verdict.
    await expect(signup.getByRole('row').filter({ hasText: CANARY }).first().getByRole('cell')).toHaveText([
      CANARY,
      /.*/,
      /.*/,
      /.*/,
      /.*/,
      /.*/,
      /.*/,
      '0',
      /^[1-9][0-9]*$/,
      '0',
    ]);
    await expect(signup.getByRole('columnheader')).toContainText(['Signed', 'Unsigned', 'Refused']);

    // Five charts (sessions, error rate, p75 LCP, INP, CLS), each with both builds in its legend.
    const charts = signup.locator('figure.chart');
    await expect(charts).toHaveCount(5);
    await expect(charts.locator('canvas')).toHaveCount(5);
    for (const build of [CANARY, BASELINE]) await expect(charts.filter({ hasText: build })).toHaveCount(5);
    // Each chart's text alternative: its figure, and each build's figures in words; the canvas is hidden.
    const errorRate = charts.filter({ has: page.getByRole('heading', { name: 'Error rate' }) }).locator('figcaption');
    await expect(errorRate).toContainText(/^Error rate over time\./);
    await expect(errorRate).toContainText(new RegExp(`${CANARY}: data in \\d+ of \\d+ intervals, last [0-9.]+%`));
    await expect(signup.locator('canvas[aria-hidden="true"]')).toHaveCount(5);

    // Drawn, not only present: every canvas has non-transparent pixels (axes, grid and the series).
    const drawn = await signup.locator('canvas').evaluateAll((canvases) =>
      canvases.map((canvas) => {
        const element = canvas as HTMLCanvasElement;
        const pixels = element.getContext('2d')?.getImageData(0, 0, element.width, element.height).data ?? [];
        let opaque = 0;
        for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) opaque += 1;
        return opaque;
      }),
    );
    expect(drawn).toHaveLength(5);
    for (const opaque of drawn) expect(opaque).toBeGreaterThan(500);

    // The token stays in this tab's sessionStorage: a reload shows the report without asking again.
    await page.reload();
    await expect(signup.locator('canvas')).toHaveCount(5);
  });
});
