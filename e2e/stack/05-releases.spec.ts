import { expect, test } from '@playwright/test';
import { parsePageBuilds } from '@special-gift/shared/composition';
import { HOST_URL, RELEASE_TOOL as tool, startReleaseTool, waitUntil } from './stack';

const SIGNUP_URL = `http://localhost:${process.env.SG_SIGNUP_PORT ?? '6302'}`;
/** The S3 stand-in's published port, read anonymously as a composer reads the bucket. */
const S3_URL = `http://localhost:${process.env.SG_S3_PORT ?? '6309'}`;

/** The release tool in a CI container outside the stack's network, through the published ports. */
const ciJob = () =>
  startReleaseTool({
    s3: S3_URL.replace('localhost', '127.0.0.1'),
    host: HOST_URL.replace('localhost', '127.0.0.1'),
    operatorToken: process.env.SG_OPERATOR_TOKEN ?? '',
  });

const pageBuilds = async (html: Promise<string>) => parsePageBuilds(/data-sg-builds="([^"]*)"/.exec(await html)?.[1]);

test('publish from anywhere: a CI container with no shared volume publishes to S3 and releases; new tabs get the build; a rollback within 2 s', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const followed = async (buildId: string | undefined) =>
    (await pageBuilds((await request.get(`${HOST_URL}/sign-up`)).text())).signup === buildId;

  const ci = await ciJob();
  try {
    // Two builds: the remote's own, and the same with one more file (another id).
    const [a, b] = (
      await ci.run(
        `${tool} publish signup --dist remote-signup/dist --json &&`,
        'cp -r remote-signup/dist /tmp/b && cp /tmp/b/assets/i18n/en.json /tmp/b/assets/i18n/ci.json &&',
        `${tool} publish signup --dist /tmp/b --json`,
      )
    )
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) =>
          JSON.parse(line) as {
            buildId: string;
            files: number;
            bytes: number;
            uploaded: { bytes: number; seconds: number };
          },
      );
    if (!a || !b) throw new Error('the CI container did not publish both builds');
    expect(b.buildId).not.toBe(a.buildId);
    console.log(
      `stack: published signup to S3 from a CI container: ${a.files} files, ${a.uploaded.bytes} bytes in ${a.uploaded.seconds} s`,
    );

    try {
      const released = await ci.run(`${tool} release signup ${a.buildId} --reason "stack test"`);
      const releasedMs = await waitUntil('pages to compose the released build', () => followed(a.buildId));
      console.log(`stack: release → new pages on build ${a.buildId} in ${releasedMs} ms`);
      // The API wrote the release state into the bucket before it answered, and the tool said so.
      const serial = Number(/state (\d+), served to new pages within 2 s/.exec(released)?.[1]);
      expect(serial, released).toBeGreaterThan(0);
      const current = (await (
        await request.get(`${S3_URL}/sg-builds/builds/_state/production/current.json`)
      ).json()) as {
        serial: number;
      };
      expect(current.serial).toBe(serial);
      // Both API replicas answer the same snapshot: the pointer is in PostgreSQL.
      for (let i = 0; i < 10; i++) {
        const snapshot = await request.get(`${HOST_URL}/api/v1/releases/snapshot?bucket=${i * 10}`);
        expect(parsePageBuilds(snapshot.headers()['sg-builds']).signup).toBe(a.buildId);
      }

      // The remote's origin serves the build from the bucket, through its cache, as a CDN would.
      const entryUrl = `${SIGNUP_URL}/builds/${a.buildId}/remoteEntry.js`;
      const first = await request.get(entryUrl);
      expect(first.status()).toBe(200);
      expect(first.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(first.headers()['content-type']).toMatch(/^text\/javascript/);
      expect(first.headers()['x-cache-status']).toBe('MISS');
      expect((await request.get(entryUrl)).headers()['x-cache-status']).toBe('HIT');
      expect((await request.get(`${SIGNUP_URL}/builds/${a.buildId}/no-such-file.js`)).status()).toBe(404);

      // A new tab gets the build.
      const loaded: string[] = [];
      page.on('requestfinished', (finished) => loaded.push(finished.url()));
      await page.goto(`${HOST_URL}/sign-up`);
      await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 30_000 });
      expect(loaded).toContain(entryUrl);

      // B, then a rollback to A: timed from the moment the command has moved the pointer.
      await ci.run(`${tool} release signup ${b.buildId} --reason "stack test: B"`);
      await waitUntil('pages to compose B', () => followed(b.buildId));
      const commandStarted = Date.now();
      await ci.run(`${tool} rollback signup --reason "stack test: back to A"`);
      const commandMs = Date.now() - commandStarted;
      const rollbackMs = await waitUntil('pages to compose A again', () => followed(a.buildId), 10_000, 50);
      console.log(
        `stack: rollback → new pages on build ${a.buildId} in ${rollbackMs} ms after the command ` +
          `(the command itself, a Node start included: ${commandMs} ms)`,
      );
      expect(rollbackMs).toBeLessThan(2_000);
    } finally {
      // Leaves the stack as the other tests expect it whatever happened above.
      await ci.run(`${tool} detach signup --reason "stack test done" || true`);
    }
    await waitUntil('pages to go back to the image build', () => followed(undefined));
  } finally {
    await ci.stop();
  }
});
