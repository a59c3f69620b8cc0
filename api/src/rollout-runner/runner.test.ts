// The runner on a real database (PGlite and PostgreSQL), driven tick by tick on a test clock: gates,
// steps and promote; the rule's rollback; hand moves; the lock; telemetry that stops; a lost lease;
// a database that is briefly down. The gate runner's part goes through its real routes.
import type { GateJob, Rollout, RolloutDetail } from '@special-gift/shared/api';
import type { Database } from '../db/database';
import type { LogEntry } from '../http/logger';
import { testEngines } from '../../test/support/test-databases';
import type { TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import {
  CANDIDATE,
  caller,
  startRolloutServer,
  GATE_TOKEN,
  LIVE,
  OPERATOR,
  publish,
  TEST_PLAN,
  answerGateJobs,
  TEST_SETTINGS,
  testClock,
  testRunner,
  views,
} from '../../test/support/rollouts';
import { acquireLease, leaseName } from './lease';
import type { RolloutRunner } from './runner';
import type { RolloutRunnerSettings } from './settings';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

const HOST = { contractMajor: 1, contractVersion: '1.0.0' };

describe.each(testEngines())('the rollout runner on %s', (engine) => {
  let server: TestServer;
  let clock: ReturnType<typeof testClock>;
  let call: ReturnType<typeof caller>;
  let logs: LogEntry[];
  let host: unknown;

  beforeEach(async () => {
    clock = testClock();
    host = HOST;
    server = await startRolloutServer(engine, clock.now);
    call = caller(server.baseUrl);
    logs = [];
  });
  afterEach(async () => {
    await server?.close();
  });

  const runner = (options: { db?: Database; holder?: string; settings?: RolloutRunnerSettings } = {}): RolloutRunner =>
    testRunner({
      db: options.db ?? server.db,
      clock: clock.now,
      log: (entry) => void logs.push(entry),
      ...(options.holder ? { holder: options.holder } : {}),
      ...(options.settings ? { settings: options.settings } : {}),
      fetchJson: async (url) => {
        if (host instanceof Error) throw host;
        expect(url).toBe('http://host.test/build-info.json');
        return host;
      },
    });
  const start = async (plan: object = TEST_PLAN, remote = 'signup') => {
    const started = await call<Rollout>('POST', '/v1/rollouts', OPERATOR, {
      remote,
      buildId: CANDIDATE,
      plan,
      reason: 'ship it',
    });
    expect(started.status).toBe(201);
    return started.body;
  };
  const detail = async (id: string) => (await call<RolloutDetail>('GET', `/v1/rollouts/${id}`, OPERATOR)).body;
  const history = async () =>
    (
      await server.db.query<{ action: string; build_id: string | null; canary_percent: number; actor: string }>(
        `SELECT action, build_id, canary_percent, actor FROM release_history WHERE remote = 'signup' ORDER BY revision`,
      )
    ).rows.map((row) => `${row.action} ${row.build_id ?? '-'} ${row.canary_percent} ${row.actor}`);
  const gateRunner = async (outcome: 'passed' | 'failed' | 'inconclusive' = 'passed') => {
    const jobs = await answerGateJobs(call, outcome);
    for (const job of jobs) expect(job).toMatchObject({ remote: 'signup', buildId: CANDIDATE, route: '/sign-up' });
    return jobs.map((job) => job.gate);
  };
  const throughGates = async (a: RolloutRunner) => {
    await a.tick(); // contract, integrity pre-check
    expect(await gateRunner()).toEqual(['integrity', 'acceptance']);
    clock.advance(1);
    await a.tick(); // the first share
  };

  it('takes a good build through its gates and steps to promote, one history row per step', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    await views(server.db, LIVE, 60, clock.now());
    for (const [fresh, next] of [
      [60, 5],
      [3, 25],
      [3, 50],
      [3, 0],
    ] as const) {
      // Fresh signed views per step; the first ones bring the evidence the rule advances on.
      await views(server.db, CANDIDATE, fresh, clock.now());
      clock.advance(1);
      await a.tick(); // within the dwell: held
      expect((await detail(rollout.id)).percent).not.toBe(next);
      clock.advance(1);
      await a.tick();
      expect((await detail(rollout.id)).percent).toBe(next);
    }
    const done = await detail(rollout.id);
    expect(done).toMatchObject({ state: 'succeeded', stepIndex: 4, percent: 0 });
    expect(await history()).toEqual([
      `release ${LIVE} 0 operator`,
      `canary ${CANDIDATE} 1 rollout runner`,
      `canary ${CANDIDATE} 5 rollout runner`,
      `canary ${CANDIDATE} 25 rollout runner`,
      `canary ${CANDIDATE} 50 rollout runner`,
      `promote ${CANDIDATE} 0 rollout runner`,
    ]);
    expect(done.events.map((event) => event.seq)).toEqual(done.events.map((_, index) => index + 1));
    expect(done.events.map((event) => `${event.kind} ${event.actor}`)).toEqual([
      'started operator',
      'gate-passed rollout runner',
      'gate-passed gate runner',
      'gate-passed gate runner',
      'step rollout runner',
      'step rollout runner',
      'step rollout runner',
      'step rollout runner',
      'promoted rollout runner',
      'succeeded rollout runner',
    ]);
    expect(done.gates.map((gate) => `${gate.gate} ${gate.state}`)).toEqual([
      'contract passed',
      'integrity passed',
      'acceptance passed',
    ]);
    expect(done.lastCheck?.decision.decision).toBe('advance');
    const audit = await server.db.query<{ action: string; channel: string }>(
      "SELECT action, channel FROM audit_trail WHERE token_id IN ('rollout-runner', 'gate-runner') ORDER BY id",
    );
    expect(audit.rows.every((row) => row.channel === 'system')).toBe(true);
    expect(audit.rows.map((row) => row.action)).toEqual([
      'rollout-gate',
      'rollout-gate',
      'rollout-gate',
      'canary',
      'canary',
      'canary',
      'canary',
      'promote',
      'rollout-end',
    ]);
  });

  it('rolls a build with a raised error rate back by itself at its first step, dwell or not', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    await views(server.db, CANDIDATE, 60, clock.now(), 30);
    await views(server.db, LIVE, 60, clock.now());
    clock.advance(1);
    await a.tick(); // before the 2 s dwell is over
    const done = await detail(rollout.id);
    expect(done.state).toBe('rolled_back');
    expect(done.outcomeReason).toMatch(/Error rate 50.00% against 0.00%.*harm proven/);
    expect((await history()).slice(-2)).toEqual([`canary ${CANDIDATE} 1 rollout runner`, 'abort - 0 rollout runner']);
  });

  it('rolls back a paused rollout too: pause holds the share, proven harm still acts', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    const { version } = await detail(rollout.id);
    expect(
      (await call('POST', `/v1/rollouts/${rollout.id}/pause`, OPERATOR, { expectedVersion: version })).status,
    ).toBe(200);
    await views(server.db, CANDIDATE, 60, clock.now(), 30);
    await views(server.db, LIVE, 60, clock.now());
    clock.advance(1);
    await a.tick();
    expect(await detail(rollout.id)).toMatchObject({ state: 'rolled_back', percent: 0 });
    expect((await history()).at(-1)).toBe('abort - 0 rollout runner');
  });

  it('fails at a gate with no user share: the contract, or the gate runner’s verdict', async () => {
    const a = runner();
    host = { contractMajor: 1, contractVersion: '0.9.0' };
    await publish(server.db, 'badc0de00001', { shared: '1.1.0' });
    const contract = await call<Rollout>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: 'badc0de00001',
      plan: TEST_PLAN,
      reason: '',
    });
    await a.tick();
    clock.advance(1);
    await a.tick();
    expect(await detail(contract.body.id)).toMatchObject({
      state: 'failed',
      outcomeReason: expect.stringMatching(
        /contract gate failed: The build needs contract 1.1.0; the live host provides only 0.9.0/,
      ),
    });
    host = HOST;
    // The integrity pre-check in the API: a build published before its hashes were recorded.
    await publish(server.db, 'badc0de00002', { integrity: null });
    const unhashed = await call<Rollout>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: 'badc0de00002',
      plan: TEST_PLAN,
      reason: '',
    });
    expect(unhashed.status).toBe(201);
    clock.advance(1);
    await a.tick();
    clock.advance(1);
    await a.tick();
    expect(await detail(unhashed.body.id)).toMatchObject({
      state: 'failed',
      outcomeReason: 'The integrity gate failed: The build has no integrity recorded: publish it again.',
    });
    const acceptance = await start();
    clock.advance(1);
    await a.tick();
    expect(await gateRunner('failed')).toEqual(['integrity']);
    clock.advance(1);
    await a.tick();
    expect(await detail(acceptance.id)).toMatchObject({
      state: 'failed',
      outcomeReason: 'The integrity gate failed: integrity failed',
    });
    expect(await history()).toEqual([`release ${LIVE} 0 operator`]);
  });

  it('waits at the gates when it cannot check them, and never skips one', async () => {
    const a = runner({ settings: { ...TEST_SETTINGS, gateRunnerToken: undefined } });
    host = new Error('connect ECONNREFUSED');
    const rollout = await start();
    await a.tick();
    let seen = await detail(rollout.id);
    expect(seen.state).toBe('gating');
    expect(seen.gates[0]).toMatchObject({
      gate: 'contract',
      state: 'pending',
      reason: expect.stringMatching(/cannot be read: connect ECONNREFUSED/),
    });
    host = HOST;
    clock.advance(1);
    await a.tick();
    // A claim that lapses goes back to pending; an inconclusive run leaves it pending.
    const claim = await call<GateJob>('POST', '/v1/rollouts/gate-jobs/claim', GATE_TOKEN);
    expect(claim.body.gate).toBe('integrity');
    clock.advance(TEST_SETTINGS.gateClaimSeconds + 1);
    await a.tick();
    seen = await detail(rollout.id);
    expect(seen.gates[1]).toMatchObject({ state: 'pending', attempts: 1 });
    expect(seen.events.filter((event) => event.kind === 'gate-waiting')).toHaveLength(1);
    const late = await call('POST', `/v1/rollouts/gate-jobs/${rollout.id}/integrity/result`, GATE_TOKEN, {
      nonce: claim.body.nonce,
      outcome: 'passed',
      reason: 'late',
      detail: {},
    });
    expect(late.status).toBe(409);
    expect(await gateRunner('inconclusive')).toEqual(['integrity']);
    clock.advance(1);
    await a.tick();
    seen = await detail(rollout.id);
    expect(seen.state).toBe('gating');
    expect(seen.gates[1]).toMatchObject({ state: 'pending', attempts: 2 });
    expect(seen.events.filter((event) => event.kind === 'gate-waiting')).toHaveLength(1);
    expect(await history()).toEqual([`release ${LIVE} 0 operator`]);
  });

  it('gives a younger rollout’s gate its turn while an older one’s comes back inconclusive', async () => {
    const a = runner();
    const older = await start();
    // intro's rollout, a second younger: its own live build and candidate.
    await publish(server.db, LIVE, { remote: 'intro' });
    await publish(server.db, CANDIDATE, { remote: 'intro' });
    const released = await call('POST', '/v1/releases/remotes/intro/actions', OPERATOR, {
      action: 'release',
      buildId: LIVE,
      expectedRevision: 0,
    });
    expect(released.status).toBe(200);
    clock.advance(1);
    const younger = await start(TEST_PLAN, 'intro');
    await a.tick(); // both contracts, both integrity pre-checks
    const claimed: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const claim = await call<GateJob>('POST', '/v1/rollouts/gate-jobs/claim', GATE_TOKEN);
      expect(claim.status).toBe(200);
      claimed.push(`${claim.body.remote} ${claim.body.gate}`);
      // The gate runner could not tell (the page was composed without the candidate, say).
      const answered = await call(
        'POST',
        `/v1/rollouts/gate-jobs/${claim.body.rolloutId}/${claim.body.gate}/result`,
        GATE_TOKEN,
        {
          nonce: claim.body.nonce,
          outcome: 'inconclusive',
          reason: 'could not tell',
          detail: {},
        },
      );
      expect(answered.status).toBe(200);
    }
    // Oldest first among gates tried as often; one tried more waits behind one tried less.
    expect(claimed).toEqual(['signup integrity', 'intro integrity', 'signup integrity']);
    expect((await detail(older.id)).gates[1]).toMatchObject({ state: 'pending', attempts: 2 });
    expect((await detail(younger.id)).gates[1]).toMatchObject({ state: 'pending', attempts: 1 });
  });

  it('ends when someone aborts by hand, and refuses a hand canary meanwhile', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    const state = await call<{ revision: number }>('GET', '/v1/releases/remotes/signup', OPERATOR);
    const canary = await call<{ error: { code: string } }>('POST', '/v1/releases/remotes/signup/actions', OPERATOR, {
      action: 'canary',
      buildId: CANDIDATE,
      percent: 50,
      expectedRevision: state.body.revision,
    });
    expect(canary.status).toBe(409);
    expect(canary.body.error.code).toBe('rollout_in_progress');
    const aborted = await call('POST', '/v1/releases/remotes/signup/actions', OPERATOR, {
      action: 'abort',
      expectedRevision: state.body.revision,
      reason: 'paged at 3 a.m.',
    });
    expect(aborted.status).toBe(200);
    clock.advance(1);
    await a.tick();
    const done = await detail(rollout.id);
    expect(done.state).toBe('aborted');
    expect(done.outcomeReason).toBe('The pointer was moved by hand (abort by operator: paged at 3 a.m.).');
    expect(done.events.at(-1)).toMatchObject({ kind: 'aborted', actor: 'operator' });
  });

  it('holds at a lock (blocked, said once), and still rolls back under it', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    await views(server.db, CANDIDATE, 60, clock.now());
    await views(server.db, LIVE, 60, clock.now());
    expect((await call('POST', '/v1/releases/remotes/signup/lock', OPERATOR, { reason: 'freeze' })).status).toBe(200);
    clock.advance(3);
    await a.tick();
    clock.advance(1);
    await a.tick();
    let seen = await detail(rollout.id);
    expect(seen).toMatchObject({ state: 'stepping', percent: 1 });
    expect(seen.events.filter((event) => event.kind === 'blocked')).toHaveLength(1);
    await views(server.db, CANDIDATE, 60, clock.now(), 60);
    clock.advance(1);
    await a.tick();
    seen = await detail(rollout.id);
    expect(seen.state).toBe('rolled_back');
    expect((await history()).at(-1)).toBe('abort - 0 rollout runner');
  });

  it('holds when telemetry stops: never an advance on no data, and says so once', async () => {
    const a = runner();
    const rollout = await start();
    await throughGates(a);
    for (let tick = 0; tick < 6; tick += 1) {
      clock.advance(1);
      await a.tick();
    }
    const seen = await detail(rollout.id);
    expect(seen).toMatchObject({ state: 'stepping', stepIndex: 0, percent: 1 });
    expect(seen.events.filter((event) => event.kind === 'telemetry-stale')).toHaveLength(1);
    expect(await history()).toHaveLength(2);
  });

  it('applies each step once when two runners believe they lead at once (the CAS decides)', async () => {
    // The same holder name: both renew the one lease, as two replicas would after a split brain.
    const [a, b] = [runner({ holder: 'split' }), runner({ holder: 'split' })];
    const both = async () => {
      clock.advance(1);
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    };
    const rollout = await start();
    await both();
    await gateRunner();
    await both(); // the first share: counts start here
    await views(server.db, LIVE, 60, clock.now());
    await views(server.db, CANDIDATE, 60, clock.now());
    for (let round = 0; round < 16 && (await detail(rollout.id)).state !== 'succeeded'; round += 1) {
      await views(server.db, CANDIDATE, 3, clock.now());
      await both();
    }
    const done = await detail(rollout.id);
    expect(done.state).toBe('succeeded');
    expect(await history()).toEqual([
      `release ${LIVE} 0 operator`,
      ...[1, 5, 25, 50].map((percent) => `canary ${CANDIDATE} ${percent} rollout runner`),
      `promote ${CANDIDATE} 0 rollout runner`,
    ]);
    expect(done.events.map((event) => event.seq)).toEqual(done.events.map((_, index) => index + 1));
    expect(done.events.filter((event) => event.kind === 'step').map((event) => event.percent)).toEqual([1, 5, 25, 50]);
    expect(done.events.filter((event) => event.kind === 'gate-passed')).toHaveLength(3);
    // The race happened: the loser's step was refused by a compare-and-swap, and nothing of it stayed.
    expect(logs.some((entry) => entry.msg === 'rollout step not applied; read again at the next tick')).toBe(true);
  });

  it('writes nothing once its lease is taken over (LeaseLost), and the new leader goes on', async () => {
    const rollout = await start();
    let takeOver = false;
    const db: Database = {
      ...server.db,
      transaction: async (work) => {
        if (takeOver) {
          takeOver = false;
          const later = new Date(clock.now().getTime() + (TEST_SETTINGS.leaseSeconds + 1) * 1000);
          const lease = await acquireLease(server.db, {
            name: leaseName('production'),
            holder: 'runner-b',
            ttlSeconds: 3,
            now: later,
            atOnce: false,
          });
          expect(lease?.epoch).toBe(2);
        }
        return server.db.transaction(work);
      },
    };
    const a = runner({ db });
    expect(await a.tick()).toBe(true);
    expect(a.lease?.epoch).toBe(1);
    const before = await detail(rollout.id);
    takeOver = true;
    await gateRunner();
    await a.tick();
    const after = await detail(rollout.id);
    expect(after.version).toBe(before.version + 2); // the gate runner's two answers, none of A's
    expect(after.events.map((event) => event.kind)).toEqual([
      ...before.events.map((event) => event.kind),
      'gate-passed',
      'gate-passed',
    ]);
    expect(
      logs.some((entry) => /rollout step failed/.test(String(entry.msg)) && /lease/.test(String(entry.error))),
    ).toBe(true);
    clock.advance(TEST_SETTINGS.leaseSeconds + 2);
    const b = runner({ holder: 'runner-b' });
    expect(await b.tick()).toBe(true);
    expect((await detail(rollout.id)).state).toBe('stepping');
    expect(await history()).toHaveLength(2);
  });

  it('survives a database that is briefly down, and resumes where it was', async () => {
    let down = 0;
    const flaky: Database = {
      ...server.db,
      query: (sql, params) =>
        down > 0 ? Promise.reject(new Error('connection refused')) : server.db.query(sql, params),
      transaction: (work) => (down > 0 ? Promise.reject(new Error('connection refused')) : server.db.transaction(work)),
    };
    const a = runner({ db: flaky });
    const rollout = await start();
    await a.tick();
    await gateRunner();
    down = 3;
    for (let tick = 0; tick < 3; tick += 1) {
      clock.advance(1);
      expect(await a.tick()).toBe(false);
      down -= 1;
    }
    expect(logs.filter((entry) => entry.msg === 'rollout runner tick failed')).toHaveLength(1);
    clock.advance(1);
    expect(await a.tick()).toBe(true);
    expect(logs.some((entry) => entry.msg === 'rollout runner ticks again')).toBe(true);
    expect(await detail(rollout.id)).toMatchObject({ state: 'stepping', percent: 1 });
    expect(await history()).toHaveLength(2);
  });
});
