import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../app';
import type { Database } from '../db/database';
import { trustedProxies } from './trusted-proxies';
import { XSRF_HEADERS } from '../../test/support/http-client';

// The rate limit keys on the real client: X-Forwarded-For counts only from a proxy the deployment
// names. These requests stop before the database (no Idempotency-Key: 400), so none is needed.
const unused = () => Promise.reject(new Error('not used'));
const db: Database = {
  engine: 'postgres',
  query: unused,
  exec: unused,
  transaction: unused,
  ping: unused,
  close: () => Promise.resolve(),
  lost: new Promise(() => undefined),
};

async function serve(
  proxies: readonly string[],
  perMinute: number,
): Promise<{ post: (forwardedFor?: string) => Promise<number>; close: () => Promise<void> }> {
  const app = createApp({ db, cookieSecure: false, signUpsPerMinute: perMinute, trustedProxies: proxies, log: false });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sign-ups`;
  return {
    post: async (forwardedFor) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...XSRF_HEADERS,
            ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
          },
          body: '{}',
        })
      ).status,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the client address behind proxies', () => {
  it('with no proxy named, a forged X-Forwarded-For does not escape the limit (30 rotated values after being limited: all 429)', async () => {
    const api = await serve([], 3);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) expect(await api.post()).toBe(400);
      expect(await api.post()).toBe(429);
      const forged = [];
      for (let attempt = 0; attempt < 30; attempt += 1) forged.push(await api.post(`203.0.113.${attempt + 1}`));
      console.log(
        `forged X-Forwarded-For after being limited: ${forged.filter((status) => status === 429).length} of 30 answered 429`,
      );
      expect(forged).toEqual(Array(30).fill(429));
    } finally {
      await api.close();
    }
  });

  it('behind a named proxy, each forwarded client is counted apart, by the address the proxy saw', async () => {
    const api = await serve(['127.0.0.1'], 1);
    try {
      expect(await api.post('203.0.113.1')).toBe(400);
      expect(await api.post('203.0.113.1')).toBe(429);
      expect(await api.post('203.0.113.2')).toBe(400);
      // Addresses a client prepends itself are not the proxy's: the last hop decides.
      expect(await api.post('198.51.100.7, 203.0.113.2')).toBe(429);
    } finally {
      await api.close();
    }
  });
});

describe('trustedProxies', () => {
  it('matches addresses and CIDR ranges, IPv4-mapped IPv6 included, and nothing else', () => {
    const trusts = trustedProxies(['192.0.2.7', '10.0.0.0/8', 'fd00::/8']);
    expect(['192.0.2.7', '10.1.2.3', '::ffff:10.9.9.9', 'fd12::1'].map(trusts)).toEqual([true, true, true, true]);
    expect(['192.0.2.8', '11.0.0.1', '127.0.0.1', 'fe80::1', 'garbage'].map(trusts)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(trustedProxies([])('127.0.0.1')).toBe(false);
  });

  it('resolves host names (a compose service name)', async () => {
    const trusts = trustedProxies(['localhost']);
    const deadline = Date.now() + 2_000;
    while (!trusts('127.0.0.1') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(trusts('127.0.0.1')).toBe(true);
    expect(trusts('192.0.2.1')).toBe(false);
  });
});
