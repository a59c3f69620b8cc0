// The rollouts' routes on the real app (PGlite and PostgreSQL): who may do what (the scope matrix),
// four eyes, the version compare-and-swap, people's controls, the gate runner's credential and
// nonces, plan validation, and the purge and hand-release refusals while a rollout runs.
import type { GateJob, Rollout } from '@special-gift/shared/api';
import type { RolloutRunner } from '../src/rollout-runner';
import { testEngines } from './support/test-databases';
import { startTestServer, type TestServer } from './support/test-server';
import type * as NativePglite from './support/native-pglite';
import {
  CANDIDATE,
  caller,
  startRolloutServer,
  GATE_TOKEN,
  LIVE,
  OPERATOR,
  TEST_PLAN,
  TEST_SETTINGS,
  mintToken,
  steering,
  testClock,
  testRunner,
} from './support/rollouts';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

type ErrorBody = { error: { code: string; message: string } };

describe.each(testEngines())('rollout routes on %s', (engine) => {
  let server: TestServer;
  let call: ReturnType<typeof caller>;
  let runner: RolloutRunner;
  const clock = testClock();
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startRolloutServer(engine, clock.now);
    call = caller(server.baseUrl);
    runner = testRunner({ db: server.db, clock: clock.now });
    const mint = async (name: string, remote: string, role: 'viewer' | 'deployer' | 'admin', by = OPERATOR) => {
      tokens[name] = await mintToken(call, { name, remote, role }, by);
    };
    await mint('admin', 'signup', 'admin');
    await mint('viewer', 'signup', 'viewer');
    await mint('deployer', 'signup', 'deployer');
    await mint('elsewhere', 'intro', 'deployer');
    await mint('minted-by-admin', 'signup', 'deployer', tokens.admin);
  });
  afterAll(async () => {
    await server?.close();
  });

  const token = (name: string) => tokens[name] ?? '';
  const start = (as: string, plan: object = TEST_PLAN) =>
    call<Rollout & ErrorBody>('POST', '/v1/rollouts', as, {
      remote: 'signup',
      buildId: CANDIDATE,
      plan,
      reason: 'test',
    });
  const control = (id: string, what: string, as: string, expectedVersion: number, reason = 'test') =>
    call<Rollout & ErrorBody>('POST', `/v1/rollouts/${id}/${what}`, as, { expectedVersion, reason });
  const { detail, tick, passGates, abort } = steering(
    () => call,
    () => runner,
    clock,
  );

  it('follows the scope matrix: viewers read, deployers of the remote start and steer, others are refused', async () => {
    expect((await call('GET', '/v1/rollouts?remote=signup', 'no-such-token-0123456789012345678901')).status).toBe(401);
    expect((await start(token('viewer'))).body.error.code).toBe('forbidden');
    expect((await start(token('elsewhere'))).body.error.code).toBe('forbidden');
    const started = await start(token('deployer'));
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      remote: 'signup',
      buildId: CANDIDATE,
      baselineBuild: LIVE,
      state: 'gating',
      stepIndex: -1,
      percent: 0,
      version: 1,
      startedBy: 'deployer',
    });
    const id = started.body.id;
    const listed = await call<{ rollouts: Rollout[] }>(
      'GET',
      '/v1/rollouts?remote=signup&active=true',
      token('viewer'),
    );
    expect(listed.body.rollouts.map((rollout) => rollout.id)).toEqual([id]);
    // A scoped token lists its own remote without naming it; another remote's rollout is not its to read.
    expect((await call<{ rollouts: Rollout[] }>('GET', '/v1/rollouts', token('viewer'))).body.rollouts).toHaveLength(1);
    expect((await call('GET', `/v1/rollouts/${id}`, token('viewer'))).status).toBe(200);
    expect((await call('GET', `/v1/rollouts/${id}`, token('elsewhere'))).status).toBe(403);
    expect((await control(id, 'pause', token('viewer'), 1)).status).toBe(403);
    // One at a time per remote.
    expect((await start(token('deployer'))).body.error.code).toBe('rollout_refused');
    // The build of a rollout under way is not purged.
    const purge = await call<ErrorBody>('POST', '/v1/releases/remotes/signup/purge', OPERATOR, {
      buildIds: [CANDIDATE],
    });
    expect(purge.status).toBe(409);
    expect(purge.body.error.message).toMatch(/in a rollout under way/);
    await abort(id);
  });

  it('refuses a bad plan (422), an unknown build (404), and keeps a plan to the dwell floor', async () => {
    const floor = await start(OPERATOR, { steps: [{ percent: 1, minDwell: '1s' }] });
    expect(floor.status).toBe(422);
    expect(floor.body.error).toMatchObject({
      code: 'invalid_rollout_plan',
      message: expect.stringMatching(/under this API's floor of 2 s/),
    });
    const unknown = await call<ErrorBody>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: 'deadbeef0000',
      reason: '',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_build');
    const live = await call<ErrorBody>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: LIVE,
      reason: '',
    });
    expect(live.body.error.code).toBe('rollout_refused');
  });

  it('pauses, resumes and skips by compare-and-swap, and aborts at once in the route', async () => {
    const { body: rollout } = await start(OPERATOR);
    await passGates();
    let seen = await detail(rollout.id);
    expect(seen).toMatchObject({ state: 'stepping', percent: 1 });
    const stale = await control(rollout.id, 'pause', OPERATOR, seen.version - 1);
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('rollout_conflict');
    const paused = await control(rollout.id, 'pause', OPERATOR, seen.version, 'looking');
    expect(paused.body).toMatchObject({ state: 'paused', version: seen.version + 1 });
    clock.advance(10);
    await tick();
    expect((await detail(rollout.id)).percent).toBe(1);
    const resumed = await control(rollout.id, 'resume', OPERATOR, paused.body.version);
    expect(resumed.body.state).toBe('stepping');
    // Skip: the next share at the next tick, whatever the dwell and the rule (no views at all here).
    const skipped = await control(rollout.id, 'skip', OPERATOR, resumed.body.version);
    expect(skipped.status).toBe(200);
    await tick();
    seen = await detail(rollout.id);
    expect(seen).toMatchObject({ state: 'stepping', stepIndex: 1, percent: 5 });
    expect(seen.events.slice(-4).map((event) => `${event.kind} ${event.actor}`)).toEqual([
      'paused operator',
      'resumed operator',
      'skipped operator',
      'step rollout runner',
    ]);
    const aborted = await control(rollout.id, 'abort', OPERATOR, seen.version, 'enough');
    expect(aborted.body).toMatchObject({ state: 'aborted', outcomeReason: 'Aborted by operator: enough', percent: 0 });
    const state = await call<{ pointer: { canary: string | null }; history: Array<{ action: string; actor: string }> }>(
      'GET',
      '/v1/releases/remotes/signup',
      OPERATOR,
    );
    expect(state.body.pointer.canary).toBeNull();
    expect(state.body.history[0]).toMatchObject({ action: 'abort', actor: 'operator' });
    expect((await control(rollout.id, 'resume', OPERATOR, aborted.body.version)).body.error.code).toBe(
      'rollout_refused',
    );
  });

  it('asks for an approval and takes it only from other hands (four eyes)', async () => {
    const { body: rollout } = await start(token('admin'), {
      ...TEST_PLAN,
      steps: [{ percent: 1, minDwell: '2s', approval: true }],
    });
    await passGates();
    const waiting = await detail(rollout.id);
    expect(waiting).toMatchObject({ state: 'awaiting_approval', stepIndex: -1, percent: 0 });
    expect(waiting.approvals).toEqual([expect.objectContaining({ stepIndex: 0, approvedBy: null })]);
    for (const same of ['admin', 'minted-by-admin']) {
      const refused = await control(rollout.id, 'approve', token(same), waiting.version);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/Four eyes/);
    }
    const approved = await control(rollout.id, 'approve', token('deployer'), waiting.version, 'looks good');
    expect(approved.status).toBe(200);
    await tick();
    const seen = await detail(rollout.id);
    expect(seen).toMatchObject({ state: 'stepping', stepIndex: 0, percent: 1 });
    expect(seen.approvals).toEqual([expect.objectContaining({ stepIndex: 0, approvedBy: 'deployer' })]);
    const audit = await server.db.query<{ action: string; token_name: string }>(
      "SELECT action, token_name FROM audit_trail WHERE action LIKE 'rollout-%' AND token_name = 'deployer'",
    );
    expect(audit.rows.map((row) => row.action)).toContain('rollout-approve');
    await abort(rollout.id);
  });

  it('lets only the gate runner’s credential claim and answer, under a live nonce', async () => {
    for (const wrong of [undefined, OPERATOR, 'not-the-gate-runner-token-0123456789']) {
      const response = await fetch(`${server.baseUrl}/v1/rollouts/gate-jobs/claim`, {
        method: 'POST',
        headers: wrong === undefined ? {} : { authorization: `Bearer ${wrong}` },
      });
      expect(response.status).toBe(401);
    }
    const { body: rollout } = await start(OPERATOR);
    await tick();
    const claim = await call<GateJob>('POST', '/v1/rollouts/gate-jobs/claim', GATE_TOKEN);
    expect(claim.body).toMatchObject({ rolloutId: rollout.id, gate: 'integrity', environment: 'production' });
    expect(claim.body.previewCookie).toMatch(new RegExp(`^signup\\.${CANDIDATE}\\.[0-9]+\\.operator\\.`));
    const path = `/v1/rollouts/gate-jobs/${rollout.id}/integrity`;
    expect(
      (await call<ErrorBody>('POST', `${path}/heartbeat`, GATE_TOKEN, { nonce: 'f'.repeat(32) })).body.error.code,
    ).toBe('gate_job_gone');
    expect((await call('POST', `${path}/heartbeat`, GATE_TOKEN, { nonce: claim.body.nonce })).status).toBe(200);
    const bad = await call<ErrorBody>('POST', `${path}/result`, GATE_TOKEN, {
      nonce: claim.body.nonce,
      outcome: 'maybe',
      reason: '',
    });
    expect(bad.status).toBe(422);
    const stale = await call<ErrorBody>('POST', `${path}/result`, GATE_TOKEN, {
      nonce: 'f'.repeat(32),
      outcome: 'passed',
      reason: '',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('gate_job_gone');
    await abort(rollout.id);
  });

  it('answers 503 for gate jobs when the API has no GATE_RUNNER_TOKEN', async () => {
    const off = await startTestServer({
      engine,
      operatorToken: OPERATOR,
      rolloutRunner: { ...TEST_SETTINGS, gateRunnerToken: undefined },
    });
    try {
      const response = await caller(off.baseUrl)('POST', '/v1/rollouts/gate-jobs/claim', GATE_TOKEN);
      expect(response.status).toBe(503);
    } finally {
      await off.close();
    }
  });
});
