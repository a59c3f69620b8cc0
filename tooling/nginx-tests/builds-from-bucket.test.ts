/**
 * A remote's nginx (deploy/nginx/remote.conf.template, rendered by its own start-up script, run
 * with Debian's nginx) with BUILDS_ORIGIN on a bucket whose name does not resolve yet, as a pod
 * that starts before the object store's service exists: nginx starts anyway and /builds/ answers an
 * error (the host shows that remote's error screen); once the name resolves, without a restart, a
 * build's file comes from a real s3rver bucket, then from nginx's cache.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { s3ClientConfig } from '@special-gift/shared/builds';
import { type RunningS3, S3RVER_CREDENTIALS, startS3Server } from '../../release-cli/test/s3-server';
import { resolverOf, type RunningNginx, startDnsServer, startNginx } from './nginx-under-test';

const STORE_NAME = 's3.bucket.test';
const BUCKET = 'sg-builds';
const BUILD = 'intro/2026-11-25t1400-abc1234';
const FILES = { 'remoteEntry.js': 'var intro = 1;\n', 'chunk.0123abcd.js': 'var chunk = 2;\n' };

let storeResolves = false;
let dns: Socket;
let s3: RunningS3;
let s3Dir: string;
let nginx: RunningNginx;

beforeAll(async () => {
  dns = await startDnsServer((name) => (storeResolves && name === STORE_NAME ? ['127.0.0.1'] : []));
  s3Dir = mkdtempSync(join(tmpdir(), 'sg-bucket-test-'));
  s3 = await startS3Server({ directory: s3Dir, bucket: BUCKET });
  const client = new S3Client(
    s3ClientConfig({
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
  );
  for (const [file, body] of Object.entries(FILES))
    await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: `builds/${BUILD}/${file}`,
        Body: body,
        ContentType: 'text/javascript',
      }),
    );
  client.destroy();
  nginx = await startNginx({
    template: 'remote.conf.template',
    env: (prefix) => ({
      APP_KIND: 'remote',
      HOST_ORIGIN: 'http://host.test:8080',
      BUILDS_ORIGIN: `http://${STORE_NAME}:${s3.port}/${BUCKET}/builds/intro`,
      BUILDS_CACHE_DIR: join(prefix, 'tmp', 'builds'),
      NGINX_RESOLVER: resolverOf(dns),
    }),
    readyPath: '/remoteEntry.js',
  });
});

afterAll(async () => {
  nginx?.stop();
  dns?.close();
  await s3?.close();
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const response = await fetch(`${nginx.url}${path}`);
  return { status: response.status, cache: response.headers.get('x-cache-status'), body: await response.text() };
};
const fileUrl = (file: string) => `/builds/${BUILD.slice('intro/'.length)}/${file}`;

it('starts while the store does not resolve, answers an error, and serves the bucket once it resolves', async () => {
  expect((await get(fileUrl('remoteEntry.js'))).status).toBe(502);

  storeResolves = true;
  // nginx may keep a failed answer up to the resolver's `valid` (5 s) before it asks again.
  let first = await get(fileUrl('remoteEntry.js'));
  for (const started = Date.now(); first.status !== 200 && Date.now() - started < 12_000;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    first = await get(fileUrl('remoteEntry.js'));
  }
  expect(first).toEqual({ status: 200, cache: 'MISS', body: FILES['remoteEntry.js'] });
  expect(await get(fileUrl('remoteEntry.js'))).toEqual({ status: 200, cache: 'HIT', body: FILES['remoteEntry.js'] });
}, 20_000);

it("does not pass the visitor's query to the bucket (its answer to ?acl would be cached as the file)", async () => {
  expect(await get(`${fileUrl('chunk.0123abcd.js')}?acl`)).toEqual({
    status: 200,
    cache: 'MISS',
    body: FILES['chunk.0123abcd.js'],
  });
});

it('a file the bucket does not have is a 404', async () => {
  expect((await get(fileUrl('missing.js'))).status).toBe(404);
});
