import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '../support/fixtures';
import { deployBuild, distOf, wwwRoot } from '../support/nginx';
import { publish, release } from '../support/releases';
import { restartHost, stopApp } from '../support/servers';

/**
 * Leaves every kind of shared state changed, as the canary test did when it timed out on a slow
 * machine (issue 38), then times out without cleaning up. Run only by suite-harness.spec.ts.
 */
test('changes the shared state, then times out', async () => {
  test.setTimeout(60_000);
  const started = Date.now();
  const variant = mkdtempSync(join(tmpdir(), 'sg-harness-'));
  cpSync(distOf('signup'), variant, { recursive: true });
  appendFileSync(join(variant, 'remoteEntry.js'), '\n// harness: another build\n');
  const own = publish('signup', distOf('signup'));
  const other = publish('signup', variant);
  release('release', 'signup', own, '--reason', 'harness: live');
  release('canary', 'signup', other, '--percent', '20', '--reason', 'harness: canary left behind');
  release('lock', 'signup', '--reason', 'harness: lock left behind');
  release('release', 'intro', publish('intro', distOf('intro')), '--reason', 'harness: pointer left behind');
  deployBuild('signup', variant);
  rmSync(variant, { recursive: true, force: true });
  await restartHost({ SERVICE_WORKER: 'off' });
  appendFileSync(join(wwwRoot('host'), 'service-worker.js'), '\n// harness: edited in place\n');
  await stopApp('thankyou');
  test.setTimeout(Date.now() - started + 2_000);
  await new Promise(() => undefined); // never settles: the test times out, as the canary test did
});
