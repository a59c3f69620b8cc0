/**
 * The host's real nginx (deploy/nginx/host.conf.template, rendered as the image renders it) keeps
 * the operator pages off the host's origin: the console and the report page, and their scripts,
 * answer 404 in the API's error shape without reaching the API; the rest of /api is proxied.
 */
import { type Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { OPERATOR_PAGE_PREFIXES, OPERATOR_PAGE_REFUSED } from '@special-gift/shared/api';
import { freePort, type RunningNginx, startDnsServer, startHostNginx } from './nginx-under-test';

let dns: Socket;
let api: Server;
let nginx: RunningNginx;
const asked: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer(() => []);
  const apiPort = await freePort();
  api = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  nginx = await startHostNginx(apiPort, dns, (www) =>
    writeFileSync(join(www, 'index.html'), '<!doctype html><title>x</title>'),
  );
});

afterAll(async () => {
  nginx?.stop();
  dns?.close();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
});

beforeEach(() => {
  asked.length = 0;
});

it.each([
  '/api/v1/console',
  '/api/v1/console?x=1',
  '/api/v1/console.js',
  '/api/v1/console.css',
  '/api/v1/telemetry/report.html',
  '/api/v1/telemetry/report.js',
  '/api/v1/telemetry/report.css',
])('refuses %s with 404 in the API error shape, never asking the API', async (path) => {
  const response = await fetch(`${nginx.url}${path}`);
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual(OPERATOR_PAGE_REFUSED);
  expect(asked).toEqual([]);
});

it('covers every operator page prefix, and still proxies the rest of /api (the report as JSON)', async () => {
  for (const prefix of OPERATOR_PAGE_PREFIXES)
    expect((await fetch(`${nginx.url}/api${prefix}${prefix.endsWith('.') ? 'html' : ''}`)).status).toBe(404);
  const report = await fetch(`${nginx.url}/api/v1/telemetry/report?window=24h`);
  expect(report.status).toBe(200);
  expect(asked).toEqual(['/v1/telemetry/report?window=24h']);
});
