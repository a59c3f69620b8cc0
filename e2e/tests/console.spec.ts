import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoViolations } from '../support/axe';
import { expect, expectConsoleErrors, test } from '../support/fixtures';
import { horizontalOverflow, undersizedTargets } from '../support/layout-checks';
import { distOf } from '../support/nginx';
import { publish, release } from '../support/releases';
import { postSignUpPageView } from '../support/telemetry';
import { API_URL, E2E_OPERATOR_TOKEN, HOST_URL, OPERATOR_PAGES_URL } from '../support/topology';
import { restoreSuiteState } from '../support/suite-state';

/**
 * The team console (docs/console.md) in Chromium, on the production API's own origin (never the
 * host's: the host refuses it), on a 390 px phone: the sign-up team's deployer sees its builds and field data, starts a
 * canary, promotes it, rolls back with a reason, locks the remote and sees a release refused with
 * the lock's reason; the intro team's viewer sees none of it and is offered no action, and is
 * signed out when its token is revoked; the operator picks any remote. Tokens are
 * minted with the operator token through the API, as an admin does. The last step hands the
 * remote back (unlocked, detached), so the other specs see the servers as they were.
 */
const CONSOLE = `${OPERATOR_PAGES_URL}/v1/console`;
const PHONE = { width: 390, height: 844 };
/** What the next build adds to this checkout's entry: its bytes are the change the console shows. */
const APPENDED = '\n/* the console spec\u2019s next build */\n';
const ADDED = `+${Buffer.byteLength(APPENDED)} B against live`;

let live = '';
let next = '';
let deployer = '';
let viewer = '';
let variant = '';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: PHONE });

async function mintToken(request: APIRequestContext, remote: string, role: string, name: string): Promise<string> {
  const response = await request.post(`${API_URL}/v1/access/tokens`, {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { remote, role, name, expiresInDays: 1, reason: 'e2e console' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** Page views of each build, straight to the API as the browser's beacon would send them. */
async function seedFieldData(request: APIRequestContext, builds: readonly string[]): Promise<void> {
  for (const build of builds)
    for (let index = 0; index < 3; index += 1)
      await postSignUpPageView(request, build, [
        { type: 'vital', name: 'LCP', value: 1200 + index * 100, remote: 'signup', t: 1500 },
        { type: 'vital', name: 'INP', value: 90, remote: 'signup', t: 4000 },
        ...(index === 0 ? [{ type: 'render_error', remote: 'signup', errorName: 'TypeError', t: 2000 }] : []),
      ]);
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(CONSOLE);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens an action's dialog, gives what it asks, confirms it, and waits for the outcome's message. */
async function confirmIn(page: Page, fill: { percent?: string; reason?: string; label: string }): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  if (fill.percent !== undefined) await dialog.getByLabel('Share of visitors (%)').fill(fill.percent);
  if (fill.reason !== undefined) await dialog.getByLabel(/^Reason/).fill(fill.reason);
  await dialog.getByRole('button', { name: fill.label }).click();
  await expect(dialog).toHaveCount(0);
}

const serving = (page: Page) => page.locator('section.serving');

test.beforeAll(async ({ request }) => {
  // Two builds of the sign-up remote: this checkout's, and one whose entry is a few bytes longer.
  variant = mkdtempSync(join(tmpdir(), 'sg-console-'));
  cpSync(distOf('signup'), variant, { recursive: true });
  appendFileSync(join(variant, 'remoteEntry.js'), APPENDED);
  live = publish('signup', distOf('signup'));
  next = publish('signup', variant);
  release('release', 'signup', live, '--reason', 'e2e console: start from this checkout');
  deployer = await mintToken(request, 'signup', 'deployer', 'signup deployer');
  viewer = await mintToken(request, 'intro', 'viewer', 'intro viewer');
  await seedFieldData(request, [live, next]);
});

test.afterAll(async () => {
  // Locked and released by the journey: unlocked and detached again.
  await restoreSuiteState();
  rmSync(variant, { recursive: true, force: true });
});

test('the sign-up deployer sees its builds and field data, canaries, promotes, rolls back and locks', async ({
  page,
}) => {
  expectConsoleErrors('a release refused while locked answers 409, which the browser logs');
  await signIn(page, deployer);
  await expect(page.getByText(/Signed in as signup deployer: deployer of signup in production/)).toBeVisible();
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['special-gift.console-token']);

  // What is served, and the builds with their bytes against the live one.
  await expect(serving(page)).toContainText(`Live${live}`);
  const nextCard = page.locator(`li.build[data-build="${next}"]`);
  await expect(nextCard).toContainText(new RegExp(`Entry[\\d,]+ B \\(\\${ADDED}\\)`));
  await expect(nextCard).toContainText(new RegExp(`First screen[\\d,]+ B \\(\\${ADDED}\\)`));
  await expect(nextCard).toContainText('Shared against livesame versions');
  await expect(page.locator(`li.build[data-build="${live}"]`)).toContainText(/Shared libraries.*react 19/);

  // Field data per build side by side, with each p75's sample count (the seeded page views arrive within a second).
  const field = page.locator('section.field table');
  await expect(async () => {
    await page.reload();
    await expect(field.getByRole('columnheader', { name: `${live} (live)` })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  // The next build's page views are this spec's alone (the live one is this checkout's, which others load too).
  await expect(field.getByRole('columnheader', { name: next, exact: true })).toBeVisible();
  // Over all page views, and beside them the signed ones the verdict judges: the seeded views are
  // unsigned (straight to the API, no page token), so a script moved the first and not the second.
  const column = (await field.getByRole('columnheader').allTextContents()).indexOf(next);
  const cellOf = (row: string) =>
    field
      .getByRole('row', { name: new RegExp(`^${row}`) })
      .getByRole('cell')
      .nth(column);
  await expect(cellOf('p75 LCP, all page views')).toHaveText('1400 ms (3 samples)');
  await expect(cellOf('Errors, all page views')).toHaveText('1 of 3 page views, 33.33 %');
  await expect(cellOf('Page views, signed')).toHaveText('0');
  await expect(cellOf('Errors, signed \\(verdict\\)')).toHaveText('0 of 0 signed page views, 0.00 %');
  await expect(cellOf('p75 LCP, signed \\(verdict\\)')).toHaveText('–');
  await expect(page.getByText('No canary under way, so no canary verdict.')).toBeVisible();
  expect(await horizontalOverflow(page)).toEqual([]);

  // A canary: the dialog says what will change, follows the share typed, and the trail records it.
  await nextCard.getByRole('button', { name: `Start canary ${next}` }).click();
  const dialog = page.getByRole('dialog', { name: `Start a canary of ${next}` });
  await expect(dialog.getByRole('listitem').first()).toHaveText(`Canary: none → ${next} at 10 %`);
  await expect(dialog.getByLabel('Share of visitors (%)')).toBeFocused();
  await dialog.getByLabel('Share of visitors (%)').fill('20');
  await expect(dialog.getByRole('listitem').first()).toHaveText(`Canary: none → ${next} at 20 %`);
  expect(await horizontalOverflow(page)).toEqual([]);
  await confirmIn(page, { label: 'Start canary' });
  await expect(page.getByRole('status')).toHaveText(`Done: canary ${next} at 20 %.`);
  await expect(serving(page)).toContainText(`Canary${next} to 20 % of visitors`);
  await expect(page.getByRole('heading', { name: 'Canary verdict: hold' })).toBeVisible();
  await expect(page.locator('.audit-list li').first()).toContainText('canary by signup deployer via console');

  // Cancel changes nothing; promote makes the canary live.
  await page.getByRole('button', { name: 'Promote canary…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Promote canary…' })).toBeFocused();
  await page.getByRole('button', { name: 'Promote canary…' }).click();
  await expect(page.getByRole('dialog')).toContainText(`Live: ${live} → ${next}`);
  await confirmIn(page, { label: 'Promote' });
  await expect(serving(page)).toContainText(`Live${next}`);
  await expect(serving(page)).toContainText('Canarynone');

  // Roll back: a reason is required, and recorded.
  await page.getByRole('button', { name: 'Roll back…' }).click();
  const rollback = page.getByRole('dialog', { name: 'Roll back' });
  await rollback.getByRole('button', { name: 'Roll back' }).click();
  await expect(rollback.getByRole('alert')).toHaveText('Say why: a reason is required for this action.');
  await expect(rollback.getByLabel(/^Reason/)).toBeFocused();
  await confirmIn(page, { reason: 'e2e: the card scan broke', label: 'Roll back' });
  await expect(serving(page)).toContainText(`Live${live}`);
  await expect(page.locator('.audit-list li').first()).toContainText('Reason: e2e: the card scan broke');

  // Lock, then a release is refused with the lock's reason, as the API words it.
  await page.getByRole('button', { name: 'Lock…' }).click();
  await confirmIn(page, { reason: 'incident 42', label: 'Lock' });
  await expect(serving(page)).toContainText(/Locklocked by signup deployer since .*: incident 42/);
  await nextCard.getByRole('button', { name: `Release ${next}` }).click();
  await confirmIn(page, { label: 'Release' });
  const refusal = page.locator('#refusal');
  await expect(refusal).toHaveText(
    /^Refused \(409 remote_locked\): signup is locked by signup deployer since .*: incident 42\. Only abort and rollback work until it is unlocked\.$/,
  );
  await expect(refusal).toBeFocused();
  await expect(serving(page)).toContainText(`Live${live}`);

  // Every change went through the API under the token's name, on the console channel.
  const trail = (await (
    await page.request.get(`${API_URL}/v1/access/audit?remote=signup&limit=4`, {
      headers: { authorization: `Bearer ${deployer}` },
    })
  ).json()) as { entries: Array<{ action: string; tokenName: string; channel: string; reason: string }> };
  expect(trail.entries.map((entry) => [entry.action, entry.tokenName, entry.channel, entry.reason])).toEqual([
    ['lock', 'signup deployer', 'console', 'incident 42'],
    ['rollback', 'signup deployer', 'console', 'e2e: the card scan broke'],
    ['promote', 'signup deployer', 'console', ''],
    ['canary', 'signup deployer', 'console', ''],
  ]);

  // Signing out forgets the token.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Token')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('a preview in this browser: this browser alone gets the build, until it is stopped', async ({ page }) => {
  await signIn(page, deployer);
  await page
    .locator(`li.build[data-build="${next}"]`)
    .getByRole('button', { name: `Preview in this browser ${next}` })
    .click();
  await expect(page.getByRole('dialog')).toContainText('Everyone else: unchanged');
  await confirmIn(page, { label: 'Start preview' });
  await expect(serving(page)).toContainText(new RegExp(`Preview in this browser${next} until`));
  const snapshot = async () =>
    ((await (await page.request.get('/api/v1/releases/snapshot')).json()) as { builds: Record<string, string> }).builds
      .signup;
  expect(await snapshot()).toBe(next);
  await page.getByRole('button', { name: 'Stop preview' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Done: preview stopped/);
  expect(await snapshot()).toBe(live);
});

test("the host refuses the console: its token must not share an origin with the remotes' code", async ({ request }) => {
  for (const path of ['/api/v1/console', '/api/v1/console.js']) {
    const response = await request.get(`${HOST_URL}${path}`);
    expect(response.status()).toBe(404);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'not_found',
      message: expect.stringContaining("open them on the API's own origin") as unknown,
    });
  }
});

test('the intro team’s viewer sees no sign-up data and is offered no action', async ({ page }) => {
  await signIn(page, viewer);
  await expect(page.getByText(/Signed in as intro viewer: viewer of intro in production/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Now serving: intro' })).toBeVisible();
  // Asking for the sign-up remote in the address changes nothing: the token reads intro only.
  await page.goto(`${CONSOLE}?remote=signup`);
  await expect(page.getByRole('heading', { name: 'Now serving: intro' })).toBeVisible();
  await expect(page.locator('#remote-picker')).toHaveCount(0);
  await expect(page.getByRole('button')).toHaveText(['Sign out']);
  for (const build of [live, next]) await expect(page.getByText(build)).toHaveCount(0);
  await expect(page.locator('main')).not.toContainText('signup');

  // Revoked meanwhile: the next request is refused, the token forgotten, and the form says why.
  expectConsoleErrors('the revoked token gets 401, which the browser logs');
  const id = /^sg_([0-9a-f]{24})_/.exec(viewer)?.[1] ?? '';
  const revoked = await page.request.post(`${API_URL}/v1/access/tokens/${id}/revoke`, {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { reason: 'e2e console: revoked while signed in' },
  });
  expect(revoked.status()).toBe(200);
  await page.getByLabel('Over').selectOption('1d');
  await expect(page.getByRole('alert')).toHaveText(/^Signed out: the API did not accept this token \(401\)\./);
  await expect(page.getByLabel('Token')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('the operator picks any remote', async ({ page }) => {
  await signIn(page, E2E_OPERATOR_TOKEN);
  await expect(page.getByText(/Signed in as operator: admin of every remote in production, no expiry\./)).toBeVisible();
  const picker = page.getByLabel('Remote');
  await expect(picker.locator('option')).toHaveText(['intro', 'signup', 'thankyou']);
  await picker.selectOption('signup');
  await expect(page.getByRole('heading', { name: 'Now serving: signup' })).toBeVisible();
  await expect(serving(page)).toContainText(`Live${live}`);
  await expect(page.locator(`li.build[data-build="${next}"]`).getByRole('button')).toHaveText([
    'Release…',
    'Start canary…',
    'Start rollout…',
    'Preview in this browser…',
  ]);
});

test.describe('accessibility', () => {
  // axe injects its script: the page's own policy would refuse it.
  test.use({ bypassCSP: true });

  test('axe finds nothing on the console: signed out, signed in, a dialog open; targets are large enough', async ({
    page,
  }) => {
    await page.goto(CONSOLE);
    await expect(page.getByLabel('Token')).toBeFocused();
    await expectNoViolations(page, 'the sign-in form');
    await signIn(page, deployer);
    await expect(serving(page)).toContainText(`Live${live}`);
    await expectNoViolations(page, 'the console of signup (locked, with field data)');
    expect(await undersizedTargets(page)).toEqual([]);
    await page.getByRole('button', { name: 'Roll back…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'the roll back dialog');
    expect(await undersizedTargets(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Roll back…' })).toBeFocused();
  });
});
