import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { errorHandler } from './error-handler';
import { silentLogger } from './logger';
import { signUpRateLimit } from './rate-limit';

async function start(perMinute: number): Promise<{ url: string; server: Server }> {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.post('/attempt', signUpRateLimit({ perMinute }), (_req, res) => {
    res.status(201).json({ ok: true });
  });
  app.use(errorHandler(silentLogger));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/attempt`, server };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('signUpRateLimit', () => {
  it('answers 429 rate_limited with Retry-After once a client has used its attempts for the minute', async () => {
    const { url, server } = await start(3);
    try {
      const statuses = [];
      for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await fetch(url, { method: 'POST' })).status);
      expect(statuses).toEqual([201, 201, 201, 429, 429]);

      const limited = await fetch(url, { method: 'POST' });
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    } finally {
      await stop(server);
    }
  });

  it('counts each client apart (the address the proxy in front forwards)', async () => {
    const { url, server } = await start(1);
    try {
      const from = (ip: string) => fetch(url, { method: 'POST', headers: { 'x-forwarded-for': ip } });
      expect((await from('203.0.113.1')).status).toBe(201);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(201);
    } finally {
      await stop(server);
    }
  });

  it('is off at 0', async () => {
    const { url, server } = await start(0);
    try {
      for (let attempt = 0; attempt < 30; attempt += 1) expect((await fetch(url, { method: 'POST' })).status).toBe(201);
    } finally {
      await stop(server);
    }
  });
});
