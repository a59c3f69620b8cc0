/**
 * The host's nginx (deploy/nginx/host.conf.template, rendered as the image renders it, run with
 * Debian's nginx) in front of two API replicas under one name, one of which dies with each request
 * it reads (as a killed replica does): a GET, and a write with an Idempotency-Key, are sent on to
 * the other replica and succeed; a write without a key is not sent twice and fails (502).
 * The name resolves through a small DNS server here, as a compose network's or a cluster's would.
 */
import { type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { hostEnvironment } from '../serve/runtime-config';
import { freePort, resolverOf, type RunningNginx, startDnsServer, startNginx } from './nginx-under-test';

const NAME = 'api.retry.test';
const REPLICAS = ['127.0.0.1', '127.0.0.2'];

let dns: Socket;
let replicas: Server[];
let nginx: RunningNginx;
let hostUrl: string;
const seenByDead: string[] = [];

beforeAll(async () => {
  // Every A question for NAME is answered with both replicas' addresses.
  dns = await startDnsServer((name) => (name === NAME ? REPLICAS : []));
  const apiPort = await freePort();
  // The dying replica reads the whole request, then drops the connection without an answer.
  const dead = createServer((req, res) => {
    seenByDead.push(`${req.method} ${req.headers['idempotency-key'] ? 'keyed' : 'unkeyed'}`);
    req.resume().on('end', () => res.socket?.destroy());
  });
  const alive = createServer((req, res) => {
    req.resume().on('end', () => {
      res
        .writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
        .end('{"replica":"alive"}');
    });
  });
  replicas = [dead, alive];
  await Promise.all(
    replicas.map((server, index) => new Promise<void>((resolve) => server.listen(apiPort, REPLICAS[index], resolve))),
  );

  nginx = await startNginx({
    template: 'host.conf.template',
    env: (prefix) => ({
      ...hostEnvironment({
        apiUpstream: `http://${NAME}:${apiPort}`,
        remoteEntry: (name) => `http://127.0.0.1:1/${name}/remoteEntry.js`,
      }),
      FRAGMENT_CACHE_DIR: join(prefix, 'tmp', 'fragments'),
      NGINX_RESOLVER: resolverOf(dns),
      SIGN_UP_RATE_PER_MINUTE: '600000',
    }),
    readyPath: '/api/v1/health',
  });
  hostUrl = nginx.url;
});

afterAll(async () => {
  nginx?.stop();
  dns?.close();
  await Promise.all((replicas ?? []).map((server) => new Promise((resolve) => server.close(resolve))));
});

const signUp = (key?: string) =>
  fetch(`${hostUrl}/api/v1/sign-ups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: '{}',
  }).then((response) => response.status);

// nginx picks either replica first (the resolver rotates the addresses): 20 requests reach the
// dying one first many times over (all 20 missing it has a chance of 1 in 2^20).
it('GETs and keyed writes are retried on the other replica: every one succeeds', async () => {
  seenByDead.length = 0;
  const gets = [];
  for (let i = 0; i < 20; i++) gets.push((await fetch(`${hostUrl}/api/v1/ready`)).status);
  const posts = [];
  for (let i = 0; i < 20; i++) posts.push(await signUp(`key-${i}`));
  expect(gets).toEqual(Array(20).fill(200));
  expect(posts).toEqual(Array(20).fill(201));
  expect(seenByDead).toContain('GET unkeyed');
  expect(seenByDead).toContain('POST keyed');
});

it('a write without an Idempotency-Key is sent once: when its replica dies, it fails', async () => {
  seenByDead.length = 0;
  const statuses = [];
  for (let i = 0; i < 20; i++) statuses.push(await signUp());
  const failed = statuses.filter((status) => status === 502).length;
  expect(failed).toBeGreaterThan(0);
  // Each that reached the dying replica failed there, and was not sent on.
  expect(failed).toBe(seenByDead.length);
  expect(statuses.filter((status) => status !== 502)).toEqual(Array(20 - failed).fill(201));
});
