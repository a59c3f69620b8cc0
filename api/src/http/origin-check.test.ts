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
    ['the API’s own Origin', () => ({ origin: `http://${host}` })],
    ['an allowed Origin', { origin: 'https://gift.example' }],
    ['neither header (not a browser)', {}],
  ])('lets a POST with %s through', async (_label, headers) => {
    const response = await fetch(url, { method: 'POST', headers: typeof headers === 'function' ? headers() : headers });
    expect(response.status).toBe(200);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a cross-site Sec-Fetch-Site even with an allowed Origin', { 'sec-fetch-site': 'cross-site', origin: 'https://gift.example' }],
    ['another Origin', { origin: 'https://evil.example' }],
    ['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
  ])('refuses a POST with %s: 403 cross_origin_request', async (_label, headers) => {
    const response = await fetch(url, { method: 'POST', headers });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'cross_origin_request', message: expect.any(String) } });
  });

  it('leaves safe methods alone', async () => {
    expect((await fetch(url, { headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status).toBe(200);
  });
});
