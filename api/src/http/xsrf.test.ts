import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { xsrfSetCookie } from '../../test/support/http-client';
import { errorHandler } from './error-handler';
import { silentLogger } from './logger';
import { xsrfProtection } from './xsrf';

/** A bare app behind the middleware: every method on /thing answers 200 if it gets through. */
async function start(cookieSecure: boolean): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(xsrfProtection({ cookieSecure }));
  app.all('/thing', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler(silentLogger));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`, server };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('xsrfProtection', () => {
  let url: string;
  let server: Server;
  beforeAll(async () => {
    ({ url, server } = await start(false));
  });
  afterAll(() => stop(server));

  it('sets a readable, strict, site-wide cookie with a random 32-byte token when there is none', async () => {
    const first = xsrfSetCookie(await fetch(url));
    const second = xsrfSetCookie(await fetch(url));
    expect(first).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{43}; Path=\/; SameSite=Strict$/); // no HttpOnly, no Secure
    expect(second).not.toBe(first);
  });

  it('does not replace a cookie the request already has', async () => {
    const response = await fetch(url, { headers: { cookie: 'other=1; XSRF-TOKEN=abc' } });
    expect(xsrfSetCookie(response)).toBeUndefined();
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])('lets the safe method %s through without a header', async (method) => {
    expect((await fetch(url, { method })).status).toBe(200);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('rejects %s without the header: 403 xsrf_mismatch', async (method) => {
    const response = await fetch(url, { method, headers: { cookie: 'XSRF-TOKEN=abc' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'xsrf_mismatch', message: expect.any(String) } });
  });

  it('rejects a header that differs from the cookie, including a prefix of it', async () => {
    for (const header of ['abd', 'ab', 'abcd', '']) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': header },
      });
      expect(response.status).toBe(403);
    }
  });

  it('rejects a header without any cookie, and sets one in the 403 so the client can retry', async () => {
    const rejected = await fetch(url, { method: 'POST', headers: { 'x-xsrf-token': 'guess' } });
    expect(rejected.status).toBe(403);
    const cookie = xsrfSetCookie(rejected) ?? '';
    const token = cookie.slice('XSRF-TOKEN='.length, cookie.indexOf(';'));
    expect(token).toHaveLength(43);

    const retried = await fetch(url, {
      method: 'POST',
      headers: { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
    });
    expect(retried.status).toBe(200);
  });

  it('accepts a header equal to the cookie', async () => {
    const response = await fetch(url, {
      method: 'DELETE',
      headers: { cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abc' },
    });
    expect(response.status).toBe(200);
  });

  it('treats an empty cookie as missing', async () => {
    const response = await fetch(url, { method: 'POST', headers: { cookie: 'XSRF-TOKEN=', 'x-xsrf-token': '' } });
    expect(response.status).toBe(403);
    expect(xsrfSetCookie(response)).toBeDefined();
  });
});

describe('xsrfProtection with cookieSecure', () => {
  it('adds Secure to the cookie', async () => {
    const { url, server } = await start(true);
    try {
      expect(xsrfSetCookie(await fetch(url))).toMatch(/; Secure/);
    } finally {
      await stop(server);
    }
  });
});
