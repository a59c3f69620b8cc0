import type { TelemetryReport } from '@special-gift/shared/telemetry';
import { startApi } from '../support/api-process';
import { apiEnvFor, createTestDatabase, testEngines } from '../support/test-databases';

// Telemetry is acknowledged before it is written (docs/telemetry.md): a graceful stop must write
// what the buffer holds, so every 202 before SIGTERM is counted after a restart on the same data.
jest.setTimeout(120_000);

const OPERATOR_TOKEN = 'resilience-operator-token-0123456789';
const BATCHES = 200;

function batch(index: number): string {
  return JSON.stringify({
    v: 1,
    route: '/sign-up',
    device: 'phone',
    builds: { signup: 'c0ffee000001' },
    events: [{ type: 'vital', name: 'LCP', value: 1000 + index, remote: 'signup', t: 1000 }],
  });
}

describe.each(testEngines())('telemetry on a graceful stop on %s', (engine) => {
  it(`writes every acknowledged batch (${BATCHES}, sent just before SIGTERM)`, async () => {
    const database = await createTestDatabase(engine);
    const env = { ...apiEnvFor(database.config), OPERATOR_TOKEN, TELEMETRY_BATCHES_PER_MINUTE: '0' };
    try {
      const api = await startApi(env);
      const statuses = await Promise.all(
        Array.from({ length: BATCHES }, (_, index) =>
          fetch(`${api.baseUrl}/v1/telemetry`, { method: 'POST', body: batch(index) }).then(
            (response) => response.status,
          ),
        ),
      );
      api.child.kill('SIGTERM');
      expect(await api.exited).toEqual({ code: 0, signal: null });
      const acknowledged = statuses.filter((status) => status === 202).length;
      expect(acknowledged).toBe(BATCHES);

      const restarted = await startApi(env);
      try {
        const response = await fetch(`${restarted.baseUrl}/v1/telemetry/report?window=1h`, {
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
        });
        const report = (await response.json()) as TelemetryReport;
        expect(report.remotes[0]?.builds[0]?.sessions).toBe(acknowledged);
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    } finally {
      await database.drop();
    }
  });
});
