import type { AddressInfo } from 'node:net';
import { HEALTHY_WITHIN_MS, isHealthy, startHealthServer, type Liveness } from './health';

describe("the gate runner's health", () => {
  it('is healthy only while the last successful poll of the API is under a minute old', () => {
    const now = 1_000_000_000;
    expect(isHealthy({ lastPollOkAt: undefined }, now)).toBe(false);
    expect(isHealthy({ lastPollOkAt: now - HEALTHY_WITHIN_MS }, now)).toBe(true);
    expect(isHealthy({ lastPollOkAt: now - HEALTHY_WITHIN_MS - 1 }, now)).toBe(false);
  });

  it('answers GET /health 503 before the first poll and 200 after one, over HTTP', async () => {
    const liveness: Liveness = { lastPollOkAt: undefined };
    const server = await startHealthServer(liveness, 0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const before = await fetch(`${url}/health`);
      expect([before.status, await before.json()]).toEqual([503, { status: 'api-unreachable', lastPollOkAt: null }]);
      liveness.lastPollOkAt = Date.now();
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
