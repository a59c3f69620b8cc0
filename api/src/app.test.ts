import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { Lifecycle } from './http/lifecycle';
import type { Database } from './db/database';
import type { LogEntry } from './http/logger';
import { XSRF_HEADERS } from '../test/support/http-client';

// These routes never reach the database, so a stand-in whose every call fails is enough, and the
// file needs no PGlite start-up.
const failure = () => Promise.reject(new Error('disk on fire at /secret/path'));
const failingDb: Database = {
  engine: 'postgres',
  query: failure,
  exec: failure,
  transaction: failure,
  ping: failure,
  close: () => Promise.resolve(),
  lost: new Promise(() => undefined),
};

let server: Server;
let baseUrl: string;
const logs: LogEntry[] = [];

beforeAll(async () => {
  const app = createApp({ db: failingDb, cookieSecure: false, log: (entry) => logs.push(entry) });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  logs.length = 0;
});

async function errorCode(response: Response): Promise<string> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('GET /v1/health', () => {
  it('answers 200 {status: ok}, not cacheable', async () => {
    const response = await fetch(`${baseUrl}/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('answers HEAD without a body', async () => {
    const response = await fetch(`${baseUrl}/v1/health`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers 405 method_not_allowed with Allow for other methods', async () => {
    const response = await fetch(`${baseUrl}/v1/health`, { method: 'PUT', headers: XSRF_HEADERS });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await errorCode(response)).toBe('method_not_allowed');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const response = await fetch(`${baseUrl}/v1/health`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('GET /v1/ready', () => {
  it('answers 503 not_ready when the database cannot be reached', async () => {
    const response = await fetch(`${baseUrl}/v1/ready`);
    expect(response.status).toBe(503);
    expect(await errorCode(response)).toBe('not_ready');
  });

  it('answers 503 not_ready while shutting down, logged as the request it is (info), not as an error', async () => {
    const lifecycle = new Lifecycle();
    lifecycle.stop();
    const stopping: LogEntry[] = [];
    const app = createApp({ db: failingDb, cookieSecure: false, lifecycle, log: (entry) => stopping.push(entry) });
    const local = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${(local.address() as AddressInfo).port}/v1/ready`);
      expect(response.status).toBe(503);
      expect(await errorCode(response)).toBe('not_ready');
      // The request line is written when the response closes.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopping).toEqual([expect.objectContaining({ msg: 'request', path: '/v1/ready', status: 503 })]);
      expect(stopping.some((entry) => entry.level !== undefined && entry.level !== 'info')).toBe(false);
    } finally {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    }
  });
});

describe('unknown routes', () => {
  it.each(['/', '/v1', '/v1/nothing-here', '/api/v1/health', '/v2/health'])(
    'GET %s is a JSON 404 not_found',
    async (path) => {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(await errorCode(response)).toBe('not_found');
    },
  );

  it('a malformed path escape is a JSON 400, not an HTML page', async () => {
    const response = await fetch(`${baseUrl}/v1/sign-ups/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('bad_request');
  });
});

describe('server faults', () => {
  it('answer 500 internal_error without leaking the cause, and log it with the stack', async () => {
    const response = await fetch(`${baseUrl}/v1/sign-ups/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${'a'.repeat(43)}` },
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
    expect(text).not.toMatch(/disk on fire|secret|\.ts|at /);

    const failure = logs.find((entry) => entry.level === 'error');
    expect(failure).toMatchObject({
      msg: 'request failed',
      method: 'GET',
      path: '/v1/sign-ups/00000000-0000-4000-8000-000000000000',
    });
    expect(String(failure?.error)).toContain('disk on fire');
  });
});

describe('request log', () => {
  it('writes one entry per request with method, path without query, status and duration', async () => {
    await fetch(`${baseUrl}/v1/health?email=ada@example.com`);
    await fetch(`${baseUrl}/v1/missing`);
    await new Promise((resolve) => setImmediate(resolve)); // 'close' fires just after the response
    const requests = logs.filter((entry) => entry.msg === 'request');
    expect(requests).toEqual([
      { msg: 'request', method: 'GET', path: '/v1/health', status: 200, ms: expect.any(Number) },
      { msg: 'request', method: 'GET', path: '/v1/missing', status: 404, ms: expect.any(Number) },
    ]);
    expect(JSON.stringify(logs)).not.toContain('ada@example.com');
  });
});
