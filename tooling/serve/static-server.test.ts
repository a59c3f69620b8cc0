import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { OPERATOR_PAGE_REFUSED } from '@special-gift/shared/api';
import {
  COMPOSED_PAGE_CACHE_CONTROL,
  PAGE_TEMPLATE_FILE,
  PAGE_TOKEN,
  pageScriptHash,
  toPageTemplate,
} from '../composition/composition';
import { startServer, stopServer as stop } from './server-under-test';

// The local servers' /api proxy (`npm run up`) with an API that behaves as the real one does with
// a body it refuses: past 16 KiB declared, it answers 413 at once and closes without reading on.
// Bad input must get the API's answer or the proxy's own 413 (as nginx gives), never a 5xx.

const API_LIMIT = 16 * 1024;
jest.setTimeout(30_000);

let api: Server;
let proxy: ChildProcess;
let root: string;
let base: string;

beforeAll(async () => {
  api = http.createServer((req, res) => {
    if (Number(req.headers['content-length']) > API_LIMIT) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(
        JSON.stringify({ error: { code: 'payload_too_large', message: 'The request body is larger than 16 KiB.' } }),
      );
      return;
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => (size += chunk.length));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, received: size }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  root = mkdtempSync(join(tmpdir(), 'special-gift-static-'));
  writeFileSync(join(root, 'remoteEntry.js'), '');
  const started = await startServer({ root, apiTarget: `http://127.0.0.1:${(api.address() as AddressInfo).port}` });
  proxy = started.child;
  base = `http://127.0.0.1:${started.port}/api`;
});

afterAll(async () => {
  await stop(proxy);
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${base}/v1/sign-ups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);

describe('the /api proxy of the local servers', () => {
  it('passes a sign-up through, body intact, /api stripped', async () => {
    const response = await post('{"firstName":"Ada"}');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ path: '/v1/sign-ups', received: 19 });
  });

  it.each([
    ['17 KiB (the API answers)', 17 * 1024],
    ['64 KiB + 1', 64 * 1024 + 1],
    ['1 MB', 1_000_000],
    ['2 MB', 2_000_000],
    ['20 MB', 20_000_000],
  ])('answers a %s body with 413 payload_too_large in JSON, never a 5xx', async (_label, size) => {
    const response = await post('x'.repeat(size));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('answers a 2 MB chunked body (no Content-Length) with 413', async () => {
    const chunks = Array.from({ length: 32 }, () => 'x'.repeat(64 * 1024));
    const response = await post(Readable.toWeb(Readable.from(chunks)) as ReadableStream);
    expect(response.status).toBe(413);
  });

  it.each(['/v1/console', '/v1/console.js', '/v1/console.css', '/v1/telemetry/report.html', '/v1/telemetry/report.js'])(
    "refuses the operator page %s with 404 in JSON: it lives on the API's own origin only",
    async (path) => {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(OPERATOR_PAGE_REFUSED);
    },
  );

  it('still proxies the field report as JSON (a header token, no page)', async () => {
    const response = await fetch(`${base}/v1/telemetry/report?window=24h`);
    expect(response.status).toBe(201);
    expect(((await response.json()) as { path: string }).path).toBe('/v1/telemetry/report?window=24h');
  });

  it('answers 502 in the API error shape when the API is down', async () => {
    const down = await startServer({ root, apiTarget: 'http://127.0.0.1:1' });
    try {
      const response = await fetch(`http://127.0.0.1:${down.port}/api/v1/health`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    } finally {
      await stop(down.child);
    }
  });
});

describe("the local host's composed page", () => {
  it("is revalidated and private (it names its bucket's builds), its CSP naming its script by hash; its token apart", async () => {
    const index =
      '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.abc.js></script></head><body><div id=root></div></body></html>';
    writeFileSync(join(root, 'index.html'), index);
    const template = toPageTemplate(index, 1, '/page-loader.1.js');
    writeFileSync(join(root, PAGE_TEMPLATE_FILE), template);
    const remotes = {
      intro: 'http://127.0.0.1:1/intro/remoteEntry.js',
      signup: 'http://127.0.0.1:1/signup/remoteEntry.js',
      thankyou: 'http://127.0.0.1:1/thankyou/remoteEntry.js',
    };
    const host = await startServer({
      root,
      apiTarget: 'http://127.0.0.1:1',
      spa: true,
      config: { remotes, defaultLanguage: 'en' },
    });
    try {
      const response = await fetch(`http://127.0.0.1:${host.port}/sign-up`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<html lang="en" dir="ltr" data-sg-builds=""');
      expect(response.headers.get('cache-control')).toBe(COMPOSED_PAGE_CACHE_CONTROL);
      expect(response.headers.get('content-security-policy')).toContain(
        `script-src ${pageScriptHash(template)} 'strict-dynamic' 'self' http://127.0.0.1:1;`,
      );
      // The page's token is its own request: with the API unreachable and no key here, none.
      const token = await fetch(`http://127.0.0.1:${host.port}${PAGE_TOKEN.path}`, {
        headers: { [PAGE_TOKEN.buildsHeader]: '' },
      });
      expect([token.status, token.headers.get(PAGE_TOKEN.refusedHeader), token.headers.get('cache-control')]).toEqual([
        204,
        'not_issued',
        'no-store',
      ]);
    } finally {
      await stop(host.child);
    }
  });
});
