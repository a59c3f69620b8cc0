// A remote's default rollout plan on the real app (PGlite and PostgreSQL): who may read, set and
// clear it (the scope matrix), the plan validation a rollout's start uses (422), the version's
// compare-and-swap, its audit rows, and a rollout started without a plan following it to its steps.
import type { RemoteRolloutPlan, Rollout } from '@special-gift/shared/api';
import type { RolloutRunner } from '../src/rollout-runner';
import { testEngines } from './support/test-databases';
import type { TestServer } from './support/test-server';
import type * as NativePglite from './support/native-pglite';
import {
  CANDIDATE,
  OPERATOR,
  TEST_PLAN,
  caller,
  mintToken,
  steering,
  startRolloutServer,
  testClock,
  testRunner,
} from './support/rollouts';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

type ErrorBody = { error: { code: string; message: string } };
const PATH = '/v1/rollouts/plans/signup';
const DEFAULT = {
  steps: [
    { percent: 10, minDwell: '2s' },
    { percent: 30, minDwell: '2s', approval: false },
  ],
  promote: { approval: false },
  minNewViewsPerStep: 2,
  lowTraffic: 'hold',
} as const;

describe.each(testEngines())('default rollout plans on %s', (engine) => {
  let server: TestServer;
  let call: ReturnType<typeof caller>;
  let runner: RolloutRunner;
  const clock = testClock();
  const tokens: Record<string, string> = {};
  const token = (name: string) => tokens[name] ?? '';

  beforeAll(async () => {
    server = await startRolloutServer(engine, clock.now);
    call = caller(server.baseUrl);
    runner = testRunner({ db: server.db, clock: clock.now });
    for (const [name, remote, role] of [
      ['viewer', 'signup', 'viewer'],
      ['deployer', 'signup', 'deployer'],
      ['elsewhere', 'intro', 'admin'],
    ] as const)
      tokens[name] = await mintToken(call, { name, remote, role });
  });
  afterAll(async () => {
    await server?.close();
  });

  const read = (as = OPERATOR) => call<RemoteRolloutPlan & ErrorBody>('GET', PATH, as);
  const put = (as: string, body: object) => call<RemoteRolloutPlan & ErrorBody>('PUT', PATH, as, body);
  const start = (plan?: object) =>
    call<Rollout & ErrorBody>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: CANDIDATE,
      reason: 'test',
      ...(plan === undefined ? {} : { plan }),
    });
  const { detail, tick, passGates, abort } = steering(
    () => call,
    () => runner,
    clock,
  );

  it('reads none at first (version 0, the built-in plan beside it), and 404s a remote the app does not have', async () => {
    const none = await read(token('viewer'));
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      environment: 'production',
      remote: 'signup',
      plan: null,
      version: 0,
      updatedBy: null,
      updatedAt: null,
      builtIn: { steps: [{ percent: 1 }, { percent: 5 }, { percent: 25 }, { percent: 50 }] },
    });
    const unknown = await call<ErrorBody>('GET', '/v1/rollouts/plans/nosuchremote', OPERATOR);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_remote');
    expect((await call<ErrorBody>('PUT', '/v1/rollouts/plans/nosuchremote', OPERATOR, { plan: DEFAULT })).status).toBe(
      404,
    );
  });

  it('follows the scope matrix: viewers read, deployers of the remote set and clear, others are refused', async () => {
    expect((await read('no-such-token-0123456789012345678901')).status).toBe(401);
    expect((await read(token('elsewhere'))).status).toBe(403);
    for (const as of ['viewer', 'elsewhere']) {
      const refused = await put(token(as), { plan: DEFAULT, expectedVersion: 0 });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
      expect((await call('DELETE', PATH, token(as))).status).toBe(403);
    }
    expect((await read()).body.version).toBe(0);
  });

  it("refuses a bad plan with the validator's message (422), and a stale version (409)", async () => {
    const floor = await put(token('deployer'), {
      plan: {
        steps: [
          { percent: 5, minDwell: '1s' },
          { percent: 3, minDwell: '2s' },
        ],
      },
      expectedVersion: 0,
    });
    expect(floor.status).toBe(422);
    expect(floor.body.error.code).toBe('invalid_rollout_plan');
    expect(floor.body.error.message).toMatch(/under this API's floor of 2 s/);
    expect(floor.body.error.message).toMatch(/percents must rise strictly: 5 then 3/);
    expect((await put(token('deployer'), { plan: DEFAULT })).body.error.code).toBe('invalid_body');
    expect((await put(token('deployer'), { plan: DEFAULT, expectedVersion: 3 })).body.error.code).toBe(
      'rollout_conflict',
    );
    expect((await read()).body.version).toBe(0);
  });

  it('sets, replaces and clears it by version, each change one audit row under the acting token', async () => {
    const set = await put(token('deployer'), { plan: DEFAULT, expectedVersion: 0, reason: 'our traffic is small' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ plan: DEFAULT, version: 1, updatedBy: 'deployer' });
    expect((await read(token('viewer'))).body).toMatchObject({ plan: DEFAULT, version: 1 });
    // A second writer who read version 0 does not overwrite it.
    const stale = await put(OPERATOR, { plan: TEST_PLAN, expectedVersion: 0 });
    expect(stale.status).toBe(409);
    const cleared = await call<RemoteRolloutPlan>('DELETE', `${PATH}?expectedVersion=1`, token('deployer'));
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ plan: null, version: 2, updatedBy: 'deployer' });
    expect((await call<ErrorBody>('DELETE', PATH, token('deployer'))).body.error.code).toBe('not_found');
    // Cleared, the version goes on: version 0 (or 1) read before the clear never matches again.
    expect((await put(OPERATOR, { plan: DEFAULT, expectedVersion: 0 })).status).toBe(409);
    expect((await put(OPERATOR, { plan: DEFAULT, expectedVersion: 2 })).body.version).toBe(3);
    const audit = await server.db.query<{
      token_name: string;
      channel: string;
      from_state: string;
      to_state: string;
      reason: string;
    }>(
      "SELECT token_name, channel, from_state, to_state, reason FROM audit_trail WHERE action = 'rollout-plan' ORDER BY id",
    );
    expect(audit.rows).toEqual([
      {
        token_name: 'deployer',
        channel: 'cli',
        from_state: 'built-in plan',
        to_state: '10 % 2s → 30 % 2s → promote',
        reason: 'our traffic is small',
      },
      {
        token_name: 'deployer',
        channel: 'cli',
        from_state: '10 % 2s → 30 % 2s → promote',
        to_state: 'built-in plan',
        reason: '',
      },
      {
        token_name: 'operator',
        channel: 'cli',
        from_state: 'built-in plan',
        to_state: '10 % 2s → 30 % 2s → promote',
        reason: '',
      },
    ]);
  });

  it('is what a rollout started without a plan follows, through its gates to its steps; an explicit plan wins', async () => {
    expect((await read()).body.plan).toEqual(DEFAULT);
    const started = await start();
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ plan: DEFAULT, planSource: 'remote-default' });
    await passGates();
    expect(await detail(started.body.id)).toMatchObject({
      state: 'stepping',
      percent: 10,
      planSource: 'remote-default',
    });
    // Changing the default afterwards does not change a rollout under way: its plan is a frozen copy.
    expect((await put(OPERATOR, { plan: TEST_PLAN, expectedVersion: 3 })).status).toBe(200);
    const skip = await call('POST', `/v1/rollouts/${started.body.id}/skip`, OPERATOR, {
      expectedVersion: (await detail(started.body.id)).version,
    });
    expect(skip.status).toBe(200);
    await tick();
    expect(await detail(started.body.id)).toMatchObject({ stepIndex: 1, percent: 30 });
    const audit = await server.db.query<{ to_state: string }>(
      "SELECT to_state FROM audit_trail WHERE action = 'rollout-start' ORDER BY id DESC LIMIT 1",
    );
    expect(audit.rows[0]?.to_state).toMatch(/\(plan: remote-default\)$/);
    await abort(started.body.id);

    const explicit = await start({ steps: [{ percent: 40, minDwell: '2s' }] });
    expect(explicit.body).toMatchObject({ planSource: 'request', plan: { steps: [{ percent: 40 }] } });
    await abort(explicit.body.id);

    expect((await call('DELETE', PATH, OPERATOR)).status).toBe(200);
    const builtIn = await start();
    expect(builtIn.body).toMatchObject({ planSource: 'built-in', plan: { steps: [{ percent: 1 }, {}, {}, {}] } });
    await abort(builtIn.body.id);
  });

  it("refuses a start whose stored default no longer passes this API's checks (the floor raised)", async () => {
    await server.db.query(`UPDATE rollout_default_plans SET plan = $1 WHERE remote = 'signup'`, [
      JSON.stringify({ ...DEFAULT, steps: [{ percent: 10, minDwell: '1s' }] }),
    ]);
    const refused = await start();
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_rollout_plan');
    expect(refused.body.error.message).toMatch(
      /signup's default plan no longer passes .* under this API's floor of 2 s/,
    );
  });
});
