// GET /v1/telemetry/verdict on the real app and database: which page views it counts (signed, since
// the canary started, at most JUDGED_PER_NETWORK per network) and that it answers the rule's decision.
import type { CanaryDecisionAnswer } from '@special-gift/shared/telemetry';
import { testEngines } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import { DEFAULT_ROLLOUT_RULE, decide } from '../rollouts';
import { JUDGED_PER_NETWORK } from './report-query';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(60_000);

const TOKEN = 'decision-test-operator-token-0123456789';
const CANARY = 'c0ffee000002';
const LIVE = 'ba5e11e00002';
const SINCE = new Date(Date.now() - 3_600_000).toISOString();

describe.each(testEngines())('GET /v1/telemetry/verdict on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, operatorToken: TOKEN, telemetryBatchesPerMinute: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.db.query('DELETE FROM telemetry_sessions');
  });

  /** `count` page views of `build`, the first `failing` with a failure, LCP `lcp + i % 100`, each on its own network unless `network` is given. */
  async function views(
    build: string,
    count: number,
    failing: number,
    {
      lcp = 1000,
      provenance = 'signed',
      network,
      at = new Date(),
    }: { lcp?: number; provenance?: string; network?: string; at?: Date } = {},
  ) {
    await server.db.query(
      `INSERT INTO telemetry_sessions (received_at, remote, build, route, device, failures, lcp, inp, cls, provenance, network)
       SELECT $1::timestamptz, 'signup', $2, '/sign-up', 'phone', CASE WHEN i <= $4 THEN 1 ELSE 0 END,
         $5::float8 + i % 100, NULL, NULL, $6, COALESCE($7, 'net-' || $2 || '-' || i)
       FROM generate_series(1, $3::int) AS i`,
      [at.toISOString(), build, count, failing, lcp, provenance, network ?? null],
    );
  }

  const ask = async (query: Record<string, string>, token = TOKEN) =>
    fetch(`${server.baseUrl}/v1/telemetry/verdict?${new URLSearchParams(query).toString()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const decision = async () => {
    const response = await ask({ remote: 'signup', canary: CANARY, baseline: LIVE, since: SINCE });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return (await response.json()) as CanaryDecisionAnswer;
  };

  it('refuses a question it cannot answer, and a caller without a token', async () => {
    const base = { remote: 'signup', canary: CANARY, baseline: LIVE, since: SINCE };
    for (const query of [
      { ...base, remote: 'nope' },
      { ...base, baseline: CANARY },
      { ...base, canary: 'xyz' },
      { ...base, since: 'yesterday' },
      { ...base, since: new Date(Date.now() + 600_000).toISOString() },
      { remote: 'signup', canary: CANARY, baseline: LIVE },
    ]) {
      const response = await ask(query);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    }
    expect((await ask(base, 'wrong-token-0123456789012345678901234')).status).toBe(401);
  });

  it('rolls back a canary failing 3 % against 1 %, with the statistic the rule computes', async () => {
    await views(LIVE, 1000, 10);
    await views(CANARY, 1000, 30);
    const answer = await decision();
    expect(answer.decision).toBe('rollback');
    expect(answer.arms.canary).toMatchObject({ build: CANARY, sessions: 1000, failedSessions: 30 });
    const errors = answer.metrics[0];
    expect(errors).toMatchObject({
      metric: 'errors',
      canary: { events: 30, trials: 1000 },
      baseline: { events: 10, trials: 1000 },
      state: 'harm',
    });
    const direct = decide(
      {
        errors: { canary: { events: 30, trials: 1000 }, live: { events: 10, trials: 1000 } },
        vitals: {
          LCP: { canary: { events: 250, trials: 1000 }, live: { events: 250, trials: 1000 } },
          INP: { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } },
          CLS: { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } },
        },
        elapsedMinutes: 60,
      },
      DEFAULT_ROLLOUT_RULE,
    );
    expect(errors?.harm?.pValue).toBeCloseTo(direct.metrics[0]?.harm?.pValue ?? NaN, 10);
    expect(answer.rule).toEqual(DEFAULT_ROLLOUT_RULE);
    expect(answer.whatWouldChange[0]).toMatch(/^Nothing/);
  });

  it('counts the share above the live p75 of a vital: a slower canary is rolled back on LCP alone', async () => {
    await views(LIVE, 1000, 10, { lcp: 1000 });
    await views(CANARY, 1000, 10, { lcp: 1050 });
    const answer = await decision();
    const lcp = answer.metrics.find((metric) => metric.metric === 'LCP');
    // Live LCPs are 1000-1099 (ten of each): p75 1074, 25 of every 100 above. The canary's 1050-1149: 75 of every 100.
    expect(lcp).toMatchObject({
      liveP75: 1074,
      canary: { events: 750, trials: 1000 },
      baseline: { events: 250, trials: 1000 },
      state: 'harm',
    });
    expect(answer.metrics[0]?.state).not.toBe('harm');
    expect(answer.decision).toBe('rollback');
    expect(answer.metrics.find((metric) => metric.metric === 'INP')).toMatchObject({
      judged: false,
      state: 'not judged',
    });
  });

  it('counts only signed page views since the canary started, at most JUDGED_PER_NETWORK per network', async () => {
    await views(LIVE, 300, 3);
    await views(CANARY, 300, 3);
    await views(CANARY, 500, 500, { provenance: 'unsigned' });
    await views(CANARY, 500, 500, { provenance: 'replayed' });
    await views(CANARY, 500, 500, { network: 'one-network' });
    await views(CANARY, 500, 500, { at: new Date(Date.now() - 2 * 3_600_000) });
    const answer = await decision();
    expect(answer.arms.canary).toMatchObject({
      sessions: 300 + JUDGED_PER_NETWORK,
      failedSessions: 3 + JUDGED_PER_NETWORK,
    });
    expect(answer.decision).toBe('hold');
    // 8 of 305 against 3 of 300: a rise over the margin, not proven: no advance at these rates.
    expect(answer.whatWouldChange[0]).toMatch(/^Error rate: .*which the rates seen now never give/);
  });

  it('holds with too few page views, saying how many are needed', async () => {
    await views(LIVE, 50, 0);
    const answer = await decision();
    expect(answer.decision).toBe('hold');
    expect(answer.arms.canary.sessions).toBe(0);
    expect(answer.reasons).toEqual([
      `The canary build has 0 signed page views; each needs ${DEFAULT_ROLLOUT_RULE.minViews} before a decision.`,
      `The live build has 50 signed page views; each needs ${DEFAULT_ROLLOUT_RULE.minViews} before a decision.`,
    ]);
  });
});
