import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { errorHandler } from './error-handler';
import { silentLogger } from './logger';
import { originCheck } from './origin-check';

let server: Server;
let url: string;
let host: string;

beforeAll(async () => {
  const app = express();
  app.use(originCheck({ allowedOrigins: ['https://gift.example'] }));
  app.all('/thing', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler(silentLogger));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `http://${host}/thing`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('originCheck', () => {
  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
    ['an allowed Origin', { origin: 'https://gift.example' }],
    [
      'Sec-Fetch-Site: same-origin and an allowed Origin',
      { 'sec-fetch-site': 'same-origin', origin: 'https://gift.example' },
    ],
    ['neither header (not a browser)', {}],
    // The console on the API's own origin: its Origin is not the site's, but its token is in a header.
    [
      "Sec-Fetch-Site: same-origin, the API's own Origin and an Authorization header (an operator page)",
      () => ({ 'sec-fetch-site': 'same-origin', origin: `http://${host}`, authorization: 'Bearer sg_x' }),
    ],
  ])('lets a POST with %s through', async (_label, headers) => {
    const response = await fetch(url, { method: 'POST', headers: typeof headers === 'function' ? headers() : headers });
    expect(response.status).toBe(200);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    [
      'a cross-site Sec-Fetch-Site even with an allowed Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'https://gift.example' },
    ],
    ['another Origin', { origin: 'https://evil.example' }],
    ['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
    // DNS rebinding: a page on a name the attacker points at this server is same-origin to the
    // browser, and its Host equals its Origin; only the configured public origin tells them apart.
    ['an Origin equal to its Host (DNS rebinding)', () => ({ origin: `http://${host}` })],
    [
      'Sec-Fetch-Site: same-origin from a rebound name',
      () => ({ 'sec-fetch-site': 'same-origin', origin: `http://${host}` }),
    ],
    [
      'an Authorization header from another site',
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example', authorization: 'Bearer sg_x' },
    ],
    [
      'an Authorization header and another Origin, without Sec-Fetch-Site',
      { origin: 'https://evil.example', authorization: 'Bearer sg_x' },
    ],
  ])('refuses a POST with %s: 403 cross_origin_request', async (_label, headers) => {
    const response = await fetch(url, { method: 'POST', headers: typeof headers === 'function' ? headers() : headers });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'cross_origin_request', message: expect.any(String) } });
  });

  it('without a configured public origin, accepts loopback origins only (local development)', async () => {
    const app = express();
    app.use(originCheck({ allowedOrigins: [] }));
    app.post('/thing', (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler(silentLogger));
    const local = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}/thing`;
      const statusFor = async (origin: string) =>
        (await fetch(localUrl, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin', origin } })).status;
      expect(await statusFor('http://localhost:3000')).toBe(200);
      expect(await statusFor('http://127.0.0.1:4300')).toBe(200);
      expect(await statusFor('http://[::1]:3000')).toBe(200);
      expect(await statusFor('http://rebound.example:3004')).toBe(403);
      expect(await statusFor('http://localhost.evil.example')).toBe(403);
    } finally {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    }
  });

  it('leaves safe methods alone', async () => {
    expect(
      (await fetch(url, { headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status,
    ).toBe(200);
  });
});
