// What the rollout tests share: a server with the runner's routes on a movable clock, builds, signed
// page views, and the calls the release tool and the gate runner make.
import { DEFAULT_ROLLOUT_RULE, type RolloutRuleParameters } from '../../src/rollouts';
import type { GateJob, RolloutDetail } from '@special-gift/shared/api';
import {
  createRolloutRunner,
  type RolloutRunner,
  type RolloutRunnerOptions,
  type RolloutRunnerSettings,
} from '../../src/rollout-runner';
import type { Queryable } from '../../src/db/database';
import type { Engine } from '../../src/db/database';
import { startTestServer, type TestServer } from './test-server';

export const OPERATOR = 'rollout-test-operator-token-0123456789';
export const GATE_TOKEN = 'rollout-test-gate-runner-token-0123456789';
export const LIVE = 'a11ce0000001';
export const CANDIDATE = 'c0ffee000001';
export const T0 = new Date('2026-11-28T09:00:00.000Z');

/** Small samples and short dwells, set as production would set them (configuration). */
export const TEST_RULE: RolloutRuleParameters = {
  ...DEFAULT_ROLLOUT_RULE,
  minViews: 20,
  errorMargin: 0.1,
  maxDwellMinutes: 600,
};
export const TEST_SETTINGS: RolloutRunnerSettings = {
  enabled: true,
  tickSeconds: 1,
  leaseSeconds: 3,
  minStepDwellSeconds: 2,
  gateClaimSeconds: 10,
  hostUrl: 'http://host.test',
  gateRunnerToken: GATE_TOKEN,
  webhookKey: undefined,
  webhookHosts: ['127.0.0.1'],
};
export const TEST_PLAN = {
  steps: [
    { percent: 1, minDwell: '2s' },
    { percent: 5, minDwell: '2s' },
    { percent: 25, minDwell: '2s' },
    { percent: 50, minDwell: '2s' },
  ],
  minNewViewsPerStep: 2,
};

/** A clock tests move by hand. */
export function testClock(start = T0) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

const INTEGRITY = { 'remoteEntry.js': `sha384-${'A'.repeat(64)}` };

/** Publishes a build of a remote (signup unless said) straight into the registry (contract 1.0.0 unless said). */
export async function publish(
  db: Queryable,
  buildId: string,
  { shared = '1.0.0' as string | null, integrity = INTEGRITY as object | null, remote = 'signup' } = {},
) {
  await db.query(
    `INSERT INTO release_builds (remote, build_id, contract_major, files, bytes, published_by, integrity, shared_versions)
     VALUES ($4, $1, 1, 1, 100, 'test', $2, $3)`,
    [
      buildId,
      integrity === null ? null : JSON.stringify(integrity),
      shared === null ? null : JSON.stringify({ '@special-gift/shared': shared }),
      remote,
    ],
  );
}

/** `count` signed page views of `build` at `at`, the first `failing` with a failure, each on its own network. */
export async function views(db: Queryable, build: string, count: number, at: Date, failing = 0) {
  await db.query(
    `INSERT INTO telemetry_sessions (received_at, remote, build, route, device, failures, provenance, network)
     SELECT $1::timestamptz, 'signup', $2, '/sign-up', 'phone', CASE WHEN i <= $4 THEN 1 ELSE 0 END, 'signed',
       'net-' || $2 || '-' || $1 || '-' || i
     FROM generate_series(1, $3::int) AS i`,
    [at.toISOString(), build, count, failing],
  );
}

export interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

/** A JSON call with a bearer token, as the release tool and the gate runner make them. */
export function caller(baseUrl: string) {
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    token: string,
    body?: unknown,
  ): Promise<Answer<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  };
}

/** The runner on the test clock, for tests to tick (it never starts its own timer). */
export function testRunner(
  options: Pick<RolloutRunnerOptions, 'db'> & Partial<Omit<RolloutRunnerOptions, 'db'>> & { clock: () => Date },
): RolloutRunner {
  return createRolloutRunner({
    environment: 'production',
    rule: TEST_RULE,
    settings: TEST_SETTINGS,
    log: () => undefined,
    holder: 'runner-a',
    fetchJson: () => Promise.resolve({ contractMajor: 1, contractVersion: '1.0.0' }),
    ...options,
  });
}

/** The gate runner's part: claims each due gate job and answers it, until none is due or one is not passed. */
export async function answerGateJobs(
  call: ReturnType<typeof caller>,
  outcome: 'passed' | 'failed' | 'inconclusive' = 'passed',
): Promise<GateJob[]> {
  const answered: GateJob[] = [];
  for (;;) {
    const claim = await call<GateJob>('POST', '/v1/rollouts/gate-jobs/claim', GATE_TOKEN);
    if (claim.status === 204) return answered;
    if (claim.status !== 200) throw new Error(`claim answered ${claim.status}`);
    const result = await call(
      'POST',
      `/v1/rollouts/gate-jobs/${claim.body.rolloutId}/${claim.body.gate}/result`,
      GATE_TOKEN,
      {
        nonce: claim.body.nonce,
        outcome,
        reason: `${claim.body.gate} ${outcome}`,
        detail: { runs: 2 },
      },
    );
    if (result.status !== 200) throw new Error(`result answered ${result.status}`);
    answered.push(claim.body);
    if (outcome !== 'passed') return answered;
  }
}

/**
 * The app on a test database with the rollouts' test settings and `clock`, the two builds of signup
 * published and LIVE released by the operator: where every rollout test starts.
 */
export async function startRolloutServer(engine: Engine, clock: () => Date): Promise<TestServer> {
  const server = await startTestServer({
    engine,
    operatorToken: OPERATOR,
    rolloutRunner: TEST_SETTINGS,
    rolloutRule: TEST_RULE,
    rolloutNow: clock,
  });
  await publish(server.db, LIVE);
  await publish(server.db, CANDIDATE);
  const released = await caller(server.baseUrl)('POST', '/v1/releases/remotes/signup/actions', OPERATOR, {
    action: 'release',
    buildId: LIVE,
    expectedRevision: 0,
  });
  if (released.status !== 200) throw new Error(`releasing ${LIVE} answered ${released.status}`);
  return server;
}

/** A token of `remote` minted by `by` (the operator unless said) for a day: its secret. */
export async function mintToken(
  call: ReturnType<typeof caller>,
  { name, remote, role }: { name: string; remote: string; role: 'viewer' | 'deployer' | 'admin' },
  by = OPERATOR,
): Promise<string> {
  const made = await call<{ token: string }>('POST', '/v1/access/tokens', by, { name, remote, role, expiresInDays: 1 });
  if (made.status !== 201) throw new Error(`minting ${name} answered ${made.status}`);
  return made.body.token;
}

/**
 * What rollout tests do to a rollout as the operator: read it, tick the runner a second on, pass its
 * gates, abort it. `call` and `runner` are read at each use (a test's beforeAll makes them).
 */
export function steering(
  callOf: () => ReturnType<typeof caller>,
  runner: () => RolloutRunner,
  clock: ReturnType<typeof testClock>,
) {
  const call: ReturnType<typeof caller> = (...args) => callOf()(...args);
  const detail = async (id: string) => (await call<RolloutDetail>('GET', `/v1/rollouts/${id}`, OPERATOR)).body;
  const tick = async () => {
    clock.advance(1);
    await runner().tick();
  };
  return {
    detail,
    tick,
    async passGates() {
      await tick();
      await answerGateJobs(callOf());
      await tick();
    },
    async abort(id: string) {
      const { version } = await detail(id);
      const aborted = await call('POST', `/v1/rollouts/${id}/abort`, OPERATOR, {
        expectedVersion: version,
        reason: 'clean up',
      });
      if (aborted.status !== 200) throw new Error(`aborting ${id} answered ${aborted.status}`);
    },
  };
}
