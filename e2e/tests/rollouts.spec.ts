// Rollouts that run themselves (docs/rollouts.md), end to end on the production builds: the
// release tool starts a rollout; the API's runner takes it through its gates (the acceptance run
// in the gate runner's own Chromium, through a preview no visitor gets) and its steps, judged on
// signed page views from real pages; nobody advances or rolls back by hand.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import type { Rollout } from '@special-gift/shared/api';
import { expectNoViolations } from '../support/axe';
import { buildRemoteVariant, distWithAppendedEntry, removeRemoteVariant } from '../support/build-variant';
import { expect, test } from '../support/fixtures';
import { startGateRunner, stopGateRunner } from '../support/gate-runner';
import { distOf, requestErrors } from '../support/nginx';
import { CANARY_BUCKET, LIVE_BUCKET, Visitors, type PageView } from '../support/page-views';
import { publish, release } from '../support/releases';
import {
  candidateMoves,
  gateSeconds,
  JOURNEY_MOVES,
  JOURNEY_PLAN,
  remoteHistory,
  ROLLOUT_SETTINGS,
  untilRollout,
  writePlan,
} from '../support/rollouts';
import { restartApi, restartHost } from '../support/servers';
import { restoreSuiteState } from '../support/suite-state';
import { E2E_OPERATOR_TOKEN, OPERATOR_PAGES_URL } from '../support/topology';

test.describe.configure({ mode: 'serial' });
// axe injects its script into the console's page (the visitors' contexts keep every policy).
test.use({ bypassCSP: true });

const THROWS_ON_MOUNT = 'rollout journey: this build throws on mount';
const RAISED_ERROR = 'rollout journey: this build throws once a field is focused';

let gateRunner: ChildProcess;
let visitors: Visitors;
let live: string;
let planFile: string;
const scratch: string[] = [];

/** A copy of this checkout's sign-up build with `code` appended to its entry: a new build id. */
function withAppendedEntry(code: string): string {
  const dir = distWithAppendedEntry(distOf('signup'), code);
  scratch.push(dir);
  return dir;
}

function startRollout(buildId: string, reason: string): Rollout {
  return JSON.parse(release('rollout', 'signup', buildId, '--plan', planFile, '--reason', reason, '--json')) as Rollout;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  // The pages' networks as a load balancer in front would give them; the API believes the host.
  await restartHost({ REAL_IP_FROM: '127.0.0.1' });
  await restartApi(ROLLOUT_SETTINGS);
  gateRunner = startGateRunner();
  visitors = new Visitors(browser);
  planFile = writePlan(JOURNEY_PLAN);
  live = publish('signup', distOf('signup'));
  release('release', 'signup', live, '--reason', 'e2e rollouts: start from this checkout');
});

test.afterAll(async () => {
  await visitors.close();
  await stopGateRunner(gateRunner);
  await restartApi({});
  await restartHost({});
  await restoreSuiteState();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  removeRemoteVariant('signup-throws-on-mount');
});

test('a good build passes its gates and advances to 100 % by itself on signed page views', async ({ page }) => {
  test.setTimeout(300_000);
  const candidate = publish('signup', withAppendedEntry('\n/* rollout journey: a good build */\n'));
  const started = startRollout(candidate, 'e2e: a good build');
  expect(started).toMatchObject({ remote: 'signup', buildId: candidate, baselineBuild: live, state: 'gating' });

  const gated = await untilRollout(started.id, (detail) => detail.state === 'stepping', 150_000);
  expect(gated.gates.map((gate) => [gate.gate, gate.state])).toEqual([
    ['contract', 'passed'],
    ['integrity', 'passed'],
    ['acceptance', 'passed'],
  ]);
  console.log(`rollout gates: ${gateSeconds(gated).toFixed(1)} s from the first gate's start to the last's end`);

  // Twenty page views per arm prove "no harm beyond the margin"; then two fresh ones per step.
  const stepping = Date.now();
  const fed: PageView[] = [];
  const tokenErrorsBefore = requestErrors('host', '/_sg_page_token').length;
  fed.push(...(await visitors.view({ bucket: CANARY_BUCKET, count: 20 })));
  // A page whose token nginx failed to sign goes unsigned by design (docs/telemetry.md); the host's
  // nginx logs each such request. Only those 20 pages asked for one meanwhile.
  const tokenErrors = requestErrors('host', '/_sg_page_token').slice(tokenErrorsBefore);
  await visitors.view({ bucket: LIVE_BUCKET, count: 20 });
  const done = await untilRollout(
    started.id,
    (detail) => detail.state === 'succeeded',
    150_000,
    async () => fed.push(...(await visitors.view({ bucket: CANARY_BUCKET, count: 2 }))),
  );
  console.log(
    `rollout steps: ${((Date.now() - stepping) / 1000).toFixed(1)} s from the first share to promote, ${fed.length} canary page views`,
  );
  const first = fed.slice(0, 20);
  const unsigned = first.filter((view) => !view.signed).length;
  console.log(
    `rollout steps: ${20 - unsigned} of the first 20 canary pages signed; the host logged ${tokenErrors.length} token requests that failed`,
  );
  expect(
    first.map((view) => view.build),
    'bucket 0 got the candidate from the first step',
  ).toEqual(Array(20).fill(candidate));
  // Every page signed but those whose token the host could not get in time: none refused for these builds.
  expect(unsigned, `unsigned pages against the host's failed token requests:\n${tokenErrors.join('\n')}`).toBe(
    tokenErrors.length,
  );

  // Each step once, in order, by the runner alone; then the promote.
  expect(await candidateMoves('signup', candidate)).toEqual(JOURNEY_MOVES);
  expect(done.events.map((event) => event.seq)).toEqual(done.events.map((_, index) => index + 1));
  expect(done.events.filter((event) => event.kind === 'step').map((event) => event.percent)).toEqual([1, 5, 25, 50]);
  expect(release('rollout', 'status', 'signup')).toMatch(/succeeded/);

  // The team's console shows the same timeline, on a phone, accessible.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${OPERATOR_PAGES_URL}/v1/console?remote=signup`);
  await page.getByLabel('Token').fill(E2E_OPERATOR_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const section = page.locator('section.rollout');
  await expect(section.getByRole('heading', { name: 'Last rollout' })).toBeVisible();
  await expect(section).toHaveAttribute('data-state', 'succeeded');
  await expect(section.locator('ol.rollout-plan > li')).toHaveText([
    /^Gate contract: passed/,
    /^Gate integrity: passed/,
    /^Gate acceptance: passed/,
    /^Step 1: 1 %.*\(done\)/,
    /^Step 2: 5 %.*\(done\)/,
    /^Step 3: 25 %.*\(done\)/,
    /^Step 4: 50 %.*\(done\)/,
  ]);
  await expect(section.locator('ol.rollout-events > li').filter({ hasText: /^promoted/ })).toContainText(
    'by rollout runner',
  );
  await expectNoViolations(page, 'the console with a finished rollout, on a phone');
});

test('a build whose screen throws on mount is stopped at the acceptance gate, with no user share', async () => {
  test.setTimeout(300_000);
  const dist = buildRemoteVariant('remote-signup', 'signup-throws-on-mount', (dir) => {
    const file = join(dir, 'src', 'exposed-screen.ts');
    const source = readFileSync(file, 'utf8').replace(
      "export { SignUpScreen as default } from './sign-up-screen';",
      [
        "import { createElement, useEffect } from 'react';",
        "import { SignUpScreen } from './sign-up-screen';",
        // After the first render, in the browser only (the prerender runs no effects).
        'export default function ThrowsOnMount() {',
        `  useEffect(() => { throw new Error(${JSON.stringify(THROWS_ON_MOUNT)}); }, []);`,
        '  return createElement(SignUpScreen);',
        '}',
      ].join('\n'),
    );
    writeFileSync(file, source);
  });
  const candidate = publish('signup', dist);
  const before = await remoteHistory('signup');
  const started = startRollout(candidate, 'e2e: a build that throws on mount');

  const failed = await untilRollout(started.id, (detail) => detail.state === 'failed', 150_000);
  const acceptance = failed.gates.find((gate) => gate.gate === 'acceptance');
  expect(acceptance?.state).toBe('failed');
  expect(acceptance?.reason).toContain(THROWS_ON_MOUNT);
  expect(failed.gates.find((gate) => gate.gate === 'contract')?.state).toBe('passed');
  // No pointer was ever written for it: no visitor got it.
  const after = await remoteHistory('signup');
  expect(Math.max(...after.map((entry) => entry.revision))).toBe(Math.max(...before.map((entry) => entry.revision)));
  expect(after.some((entry) => entry.buildId === candidate)).toBe(false);
});

test('a build with a raised error rate is rolled back by itself at its first step', async () => {
  test.setTimeout(300_000);
  // Its screen renders and passes the acceptance run (which types nothing); in the field, the
  // first focus on a field throws.
  const candidate = publish(
    'signup',
    withAppendedEntry(
      `\ndocument.addEventListener('focusin', function () { setTimeout(function () { throw new Error(${JSON.stringify(RAISED_ERROR)}); }); }, { once: true });\n`,
    ),
  );
  const revisionBefore = Math.max(...(await remoteHistory('signup')).map((entry) => entry.revision));
  const started = startRollout(candidate, 'e2e: a build with a raised error rate');
  await untilRollout(started.id, (detail) => detail.state === 'stepping', 150_000);

  let firstFailingView = 0;
  const focusField = async (page: Page) => {
    await page.getByRole('textbox').first().focus();
    await page.waitForTimeout(100);
    if (firstFailingView === 0) firstFailingView = Date.now();
  };
  await visitors.view({ bucket: LIVE_BUCKET, count: 10 });
  const rolledBack = await untilRollout(
    started.id,
    (detail) => detail.state === 'rolled_back',
    150_000,
    async () => {
      await visitors.view({ bucket: CANARY_BUCKET, count: 2, beforeHide: focusField });
      // The live arm kept above the rule's minimum even if a page of it went unsigned (no token in time).
      await visitors.view({ bucket: LIVE_BUCKET, count: 1 });
    },
  );
  expect(rolledBack.stepIndex).toBe(0);
  const moves = (await remoteHistory('signup'))
    .filter((entry) => entry.revision > revisionBefore)
    .sort((a, b) => a.revision - b.revision)
    .map((entry) => `${entry.action} ${entry.actor}`);
  expect(moves).toEqual(['canary rollout runner', 'abort rollout runner']);
  const rollback = rolledBack.events.find((event) => event.kind === 'rolled-back');
  expect(rollback?.reason).toMatch(/harm/i);
  console.log(
    `rollout rollback: ${((Date.parse(rollback?.at ?? '') - firstFailingView) / 1000).toFixed(1)} s from the first failing page view to the rollback`,
  );
});
