import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parsePageBuilds } from '@special-gift/shared/composition';
import { HOST_URL, PROJECT, REPO_ROOT, podman, waitUntil } from './stack';

const SIGNUP_URL = `http://localhost:${process.env.SG_SIGNUP_PORT ?? '6302'}`;

/** `npm run release -- <args>` against the stack: the build store is its `builds` volume, the API its /api/. */
function release(store: string, ...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'tooling', 'release', 'cli.ts'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SG_BUILD_STORE: store,
      SG_RELEASE_API: `${HOST_URL}/api`,
      SG_HOST_URL: HOST_URL,
      OPERATOR_TOKEN: process.env.SG_OPERATOR_TOKEN,
    },
  });
}

const pageBuilds = async (html: Promise<string>) => parsePageBuilds(/data-sg-builds="([^"]*)"/.exec(await html)?.[1]);

test('a release in the stack: published into the builds volume, pointed at in PostgreSQL, followed by every page; rolled back and detached', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const volume = (await podman('volume', 'ls', '--format', '{{.Name}}'))
    .split('\n')
    .find((name) => name.startsWith(PROJECT) && name.endsWith('_builds'));
  if (!volume) throw new Error('the stack has no builds volume');
  const store = await podman('volume', 'inspect', volume, '--format', '{{.Mountpoint}}');

  const { buildId } = JSON.parse(
    release(store, 'publish', 'signup', '--dist', join(REPO_ROOT, 'remote-signup', 'dist'), '--json'),
  ) as { buildId: string };
  release(store, 'release', 'signup', buildId, '--reason', 'stack test');
  try {
    const followedMs = await waitUntil(
      'pages to compose the released build',
      async () => (await pageBuilds((await request.get(`${HOST_URL}/sign-up`)).text())).signup === buildId,
    );
    // Both API replicas answer the same snapshot: the pointer is in PostgreSQL.
    for (let i = 0; i < 10; i++) {
      const snapshot = await request.get(`${HOST_URL}/api/v1/releases/snapshot?bucket=${i * 10}`);
      expect(parsePageBuilds(snapshot.headers()['sg-builds']).signup).toBe(buildId);
    }
    const entry = await request.get(`${SIGNUP_URL}/builds/${buildId}/remoteEntry.js`);
    expect(entry.status()).toBe(200);
    expect(entry.headers()['cache-control']).toBe('public, max-age=31536000, immutable');

    const loaded: string[] = [];
    page.on('requestfinished', (finished) => loaded.push(finished.url()));
    await page.goto(`${HOST_URL}/sign-up`);
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 30_000 });
    expect(loaded).toContain(`${SIGNUP_URL}/builds/${buildId}/remoteEntry.js`);
    console.log(`stack: release → new pages on build ${buildId} in ${followedMs} ms`);

    release(store, 'detach', 'signup', '--reason', 'stack test done');
    await waitUntil(
      'pages to go back to the image build',
      async () => (await pageBuilds((await request.get(`${HOST_URL}/sign-up`)).text())).signup === undefined,
    );
  } finally {
    // Leaves the stack as the other tests expect it whatever happened above.
    try {
      release(store, 'detach', 'signup', '--reason', 'stack test clean-up');
    } catch {
      // already detached
    }
  }
});
