// `sg-release rollout …` (release-cli/src/rollout-command.ts) against the real API's rollout routes,
// in-process, as release-cli.test.ts does for the pointer commands. This test server runs no rollout
// runner and no gate runner (their own tests drive them): where a rollout must be at a step, awaiting
// an approval or finished, `runnerMoves` sets it in the database as the runner would, so what is
// tested here is the tool and the routes it calls.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuditEntry, Rollout, RolloutDetail } from '@special-gift/shared/api';
import type * as NativePglite from './support/native-pglite';
import { REPO_ROOT, runToolWith, startLiveHost } from './support/release-tool';
import { startTestServer, type TestServer } from './support/test-server';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);

// Building remote-signup, when its dist is missing, takes a minute on a busy machine.
jest.setTimeout(240_000);

const SIGNUP_DIST = path.join(REPO_ROOT, 'remote-signup', 'dist');
const TOKEN = 'cli-rollout-test-operator-token-0123456789';

let api: TestServer;
let host: Awaited<ReturnType<typeof startLiveHost>>;
let hostMajor = 1;
let hostUrl = '';
let work: string;
/** The live build, and a candidate built from the same source with one more file. */
let live = '';
let candidate = '';
/** A deployer token of signup, minted by the operator: the team's CI, which starts rollouts. */
let ciToken = '';

const runTool = (argv: readonly string[], env: Record<string, string> = {}) =>
  runToolWith(argv, {
    SG_RELEASE_API: api.baseUrl,
    OPERATOR_TOKEN: TOKEN,
    SG_BUILD_STORE: path.join(work, 'store'),
    SG_HOST_URL: hostUrl,
    SG_ROLLOUT_POLL_S: '0.2',
    ...env,
  });

const asOperator = (...argv: string[]) => runTool(argv);
const asCi = (...argv: string[]) => runTool(argv, { SG_RELEASE_TOKEN: ciToken, CI: 'true' });

/** The runner's move, made by hand (migration 11's columns): a change bumps the version, as the runner's CAS does. */
async function runnerMoves(id: string, set: string, params: readonly unknown[] = []): Promise<void> {
  const { rows } = await api.db.query(`UPDATE rollouts SET ${set}, version = version + 1 WHERE id = $1 RETURNING id`, [
    id,
    ...params,
  ]);
  expect(rows).toHaveLength(1);
}

async function activeRollout(): Promise<Rollout | undefined> {
  const response = await fetch(`${api.baseUrl}/v1/rollouts?remote=signup&active=true&limit=1`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { rollouts: Rollout[] }).rollouts[0];
}

function planFile(name: string, plan: unknown): string {
  const file = path.join(work, name);
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

beforeAll(async () => {
  if (!existsSync(path.join(SIGNUP_DIST, 'mf-manifest.json')))
    execFileSync('npm', ['run', 'build', '-w', 'remote-signup'], { cwd: REPO_ROOT, stdio: 'ignore' });
  work = mkdtempSync(path.join(tmpdir(), 'sg-release-rollout-'));
  api = await startTestServer({ operatorToken: TOKEN });
  host = await startLiveHost(() => ({ contractMajor: hostMajor, contractVersion: `${hostMajor}.0.0` }));
  hostUrl = host.url;

  // A live build to compare against, and a candidate.
  const published = await asOperator('publish', 'signup');
  expect(published.code).toBe(0);
  live = published.out.trim();
  expect((await asOperator('release', 'signup', live, '--reason', 'baseline')).code).toBe(0);
  const dist = path.join(work, 'candidate');
  cpSync(SIGNUP_DIST, dist, { recursive: true });
  cpSync(path.join(dist, 'assets', 'i18n', 'en.json'), path.join(dist, 'assets', 'i18n', 'candidate.json'));
  const next = await asOperator('publish', 'signup', '--dist', dist);
  expect(next.code).toBe(0);
  candidate = next.out.trim();
  const token = await asOperator('token', 'create', 'signup', '--role', 'deployer', '--name', 'signup CI', '--json');
  expect(token.code).toBe(0);
  ciToken = (JSON.parse(token.out) as { token: string }).token;
});

afterAll(async () => {
  await host?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run release -- rollout', () => {
  let rolloutId = '';

  it("refuses before the API is asked when the live host's contract major differs, and passes on the API's 422 for a plan under the dwell floor", async () => {
    hostMajor = 2;
    try {
      const refused = await asCi('rollout', 'signup', candidate, '--reason', 'too early');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/contract major 1, but the live host .* is on contract major 2/);
    } finally {
      hostMajor = 1;
    }
    const tooShort = await asCi('rollout', 'signup', candidate, '--steps', '1,5', '--dwell', '1s', '--reason', 'fast');
    expect(tooShort.code).toBe(1);
    expect(tooShort.err).toMatch(/\(422 invalid_rollout_plan\)$/);
    expect(await activeRollout()).toBeUndefined();
  });

  it('starts a rollout from CI with a plan file; a second start is refused while it is under way', async () => {
    const plan = planFile('approval-plan.json', {
      steps: [
        { percent: 1, minDwell: '5m', approval: true },
        { percent: 5, minDwell: '5m' },
      ],
      promote: { approval: false },
      minNewViewsPerStep: 20,
      lowTraffic: 'advance',
    });
    const started = await asCi('rollout', 'signup', candidate, '--plan', plan, '--reason', 'new card scan', '--json');
    expect(started.code).toBe(0);
    const rollout = JSON.parse(started.out) as Rollout;
    expect(rollout).toMatchObject({
      remote: 'signup',
      buildId: candidate,
      baselineBuild: live,
      state: 'gating',
      stepIndex: -1,
      percent: 0,
      startedBy: 'signup CI',
    });
    expect(rollout.plan.steps.map((step) => step.percent)).toEqual([1, 5]);
    rolloutId = rollout.id;

    const again = await asOperator('rollout', 'signup', candidate, '--reason', 'twice');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/\(409 rollout_refused\)$/);
  });

  it('status: the gates waiting, the steps with the one needing approval, and the start by its token', async () => {
    const status = await asOperator('rollout', 'status', 'signup');
    expect(status.code).toBe(0);
    expect(status.out).toContain(`signup: rollout ${rolloutId} of ${candidate}, against live ${live}`);
    expect(status.out).toContain('State: at the gates (no user has it yet)');
    for (const gate of ['contract', 'integrity', 'acceptance'])
      expect(status.out).toMatch(new RegExp(`^${gate} +pending`, 'm'));
    expect(status.out).toMatch(/^1 +1 % +5m +needed/m);
    expect(status.out).toMatch(/^1 +\S+ +started +signup CI +new card scan$/m);
    const json = JSON.parse((await asOperator('rollout', 'status', 'signup', '--json')).out) as RolloutDetail;
    expect(json).toMatchObject({ id: rolloutId, state: 'gating' });
    expect(json.gates.map((gate) => gate.gate)).toEqual(['contract', 'integrity', 'acceptance']);
  });

  it('approve: refused for the token that started it (four eyes), taken from another', async () => {
    await runnerMoves(rolloutId, "state = 'awaiting_approval'");
    await api.db.query('INSERT INTO rollout_approvals (rollout_id, step_index, requested_at) VALUES ($1, 0, now())', [
      rolloutId,
    ]);
    const own = await asCi('rollout', 'approve', 'signup', '--reason', 'mine is fine');
    expect(own.code).toBe(1);
    expect(own.err).toMatch(/\(403 forbidden\)$/);
    const other = await asOperator('rollout', 'approve', 'signup', '--reason', 'reviewed');
    expect(other.code).toBe(0);
    expect(other.out).toMatch(new RegExp(`^signup: rollout ${rolloutId} approved`));
    expect((await asOperator('rollout', 'status', 'signup')).out).toMatch(/^1 +1 % +5m +approved by operator/m);
  });

  it('pause and resume a rollout at its first share; abort ends it, and everything is in the audit trail under its token', async () => {
    await runnerMoves(rolloutId, "state = 'stepping', step_index = 0, step_started_at = $2, traffic_started_at = $2", [
      new Date().toISOString(),
    ]);
    const paused = await asCi('rollout', 'pause', 'signup', '--reason', 'looking at a report');
    expect(paused.code).toBe(0);
    expect(paused.out).toMatch(/paused: the share holds .*; now paused \(step 1 of 2 at \d+ %\)$/);
    expect((await asOperator('rollout', 'status', 'signup')).out).toMatch(
      /^1 +1 % +5m +approved by operator +paused here$/m,
    );
    expect((await asCi('rollout', 'resume', 'signup', '--reason', 'fine')).code).toBe(0);

    const aborted = await asCi('rollout', 'abort', 'signup', '--reason', 'incident 9', '--json');
    expect(aborted.code).toBe(0);
    expect(JSON.parse(aborted.out)).toMatchObject({ id: rolloutId, state: 'aborted' });
    const status = await asOperator('rollout', 'status', 'signup');
    expect(status.out).toMatch(/^State: aborted: /m);
    expect(status.out).toMatch(/^\d+ +\S+ +aborted +1 +signup CI +incident 9$/m);
    const none = await asCi('rollout', 'pause', 'signup', '--reason', 'late');
    expect(none.code).toBe(1);
    expect(none.err).toBe('release: refused: signup has no rollout under way');

    const audit = JSON.parse((await asOperator('audit', 'signup', '--json')).out) as AuditEntry[];
    const rolloutEntries = audit
      .filter((entry) => entry.action.startsWith('rollout-'))
      .map((entry) => [entry.action, entry.tokenName, entry.channel]);
    // Newest first, each under the token that acted and from where (the runner's own are under `system`).
    const ours = rolloutEntries.filter(([action]) => action !== 'rollout-end');
    expect(ours).toEqual([
      ['rollout-abort', 'signup CI', 'ci'],
      ['rollout-resume', 'signup CI', 'ci'],
      ['rollout-pause', 'signup CI', 'ci'],
      ['rollout-approve', 'operator', 'cli'],
      ['rollout-start', 'signup CI', 'ci'],
    ]);
  });

  it('--wait: exits 1 with the reason when the rollout is aborted meanwhile, 0 when it succeeds', async () => {
    const waitFor = async () => {
      for (let tries = 0; tries < 100; tries++) {
        const active = await activeRollout();
        if (active) return active;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the rollout did not start');
    };

    const waiting = asCi('rollout', 'signup', candidate, '--reason', 'second try', '--wait');
    await waitFor();
    expect((await asOperator('rollout', 'abort', 'signup', '--reason', 'stop it')).code).toBe(0);
    const stopped = await waiting;
    expect(stopped.code).toBe(1);
    expect(stopped.err).toMatch(/^release: rollout [0-9a-f]{24} of signup aborted: .*stop it/m);
    expect(stopped.out).toMatch(/ aborted( \(.*\))? by operator: stop it$/m);

    const succeeding = asCi('rollout', 'signup', candidate, '--reason', 'third try', '--wait', '--json');
    const third = await waitFor();
    await runnerMoves(third.id, "state = 'succeeded', step_index = 2, finished_at = $2", [new Date().toISOString()]);
    const done = await succeeding;
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({ id: third.id, state: 'succeeded' });
  });

  it('plan: the built-in plan at first; set from --steps/--dwell or a file by a deployer; a start without a plan follows it; --clear', async () => {
    const none = await asOperator('rollout', 'plan', 'signup');
    expect(none.code).toBe(0);
    expect(none.out).toMatch(/^signup: no default rollout plan \(production\); .* the API's built-in plan:$/m);
    expect(none.out).toMatch(/^1 +1 % +1800s$/m);
    const viewer = await asOperator(
      'token',
      'create',
      'signup',
      '--role',
      'viewer',
      '--name',
      'signup viewer',
      '--json',
    );
    const viewerToken = (JSON.parse(viewer.out) as { token: string }).token;
    const refused = await runTool(['rollout', 'plan', 'signup', '--steps', '1,5', '--dwell', '10m'], {
      SG_RELEASE_TOKEN: viewerToken,
    });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is a viewer: .* \(403 forbidden\)$/);
    // The API's own validation, with its message: a dwell under this API's floor (300 s).
    const tooShort = await asCi('rollout', 'plan', 'signup', '--steps', '1,5', '--dwell', '1m');
    expect(tooShort.code).toBe(1);
    expect(tooShort.err).toMatch(/under this API's floor of 300 s\. .*\(422 invalid_rollout_plan\)$/);

    const set = await asCi('rollout', 'plan', 'signup', '--steps', '2,10,50', '--dwell', '10m', '--reason', 'slower');
    expect(set.code).toBe(0);
    expect(set.out).toBe(
      'signup: default rollout plan set (version 1): 2 % → 10 % → 50 % → promote. ' +
        'Rollouts started without --plan or --steps follow it; those under way keep theirs.',
    );
    const shown = await asOperator('rollout', 'plan', 'signup');
    expect(shown.out).toMatch(/^signup: default rollout plan \(production, version 1, set by signup CI at \S+\):$/m);
    expect(shown.out).toMatch(/^2 +10 % +10m$/m);
    const file = planFile('default-plan.json', {
      steps: [
        { percent: 5, minDwell: '10m' },
        { percent: 25, minDwell: '1h', approval: true },
      ],
      promote: { approval: true },
      minNewViewsPerStep: 50,
      lowTraffic: 'hold',
    });
    const fromFile = await asCi('rollout', 'plan', 'signup', '--plan', file, '--json');
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.out)).toMatchObject({
      version: 2,
      plan: { minNewViewsPerStep: 50, lowTraffic: 'hold' },
    });

    const started = await asCi('rollout', 'signup', candidate, '--reason', 'on the default', '--json');
    expect(started.code).toBe(0);
    const rollout = JSON.parse(started.out) as Rollout;
    expect(rollout.planSource).toBe('remote-default');
    expect(rollout.plan.steps.map((step) => step.percent)).toEqual([5, 25]);
    const status = await asOperator('rollout', 'status', 'signup');
    expect(status.out).toMatch(/^Steps \(the remote's default plan\)$/m);
    expect(status.out).toMatch(/^2 +25 % +1h +needed$/m);
    expect((await asCi('rollout', 'abort', 'signup', '--reason', 'done looking')).code).toBe(0);

    const cleared = await asCi('rollout', 'plan', 'signup', '--clear');
    expect(cleared.code).toBe(0);
    expect(cleared.out).toMatch(/^signup: default rollout plan cleared \(version 3\)/);
    const again = await asCi('rollout', 'plan', 'signup', '--clear');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/has no default plan.*\(404 not_found\)$/);
    const audit = JSON.parse((await asOperator('audit', 'signup', '--json')).out) as AuditEntry[];
    expect(
      audit
        .filter((entry) => entry.action === 'rollout-plan')
        .map((entry) => [entry.tokenName, entry.channel, entry.toState]),
    ).toEqual([
      ['signup CI', 'ci', 'built-in plan'],
      ['signup CI', 'ci', '5 % 10m → 25 % 1h (approval) → promote (approval)'],
      ['signup CI', 'ci', '2 % 10m → 10 % 10m → 50 % 10m → promote'],
    ]);
  });

  it('usage errors exit 2 before the API is asked', async () => {
    expect((await asCi('rollout', 'signup', candidate)).code).toBe(2);
    expect((await asCi('rollout', 'signup', candidate, '--steps', '5,1', '--dwell', '5m', '--reason', 'x')).code).toBe(
      2,
    );
    expect((await asCi('rollout', 'status', 'signup', '--wait')).code).toBe(2);
    expect((await asCi('rollout', 'status', 'signup', '--clear')).code).toBe(2);
    expect((await asCi('rollout', 'plan')).code).toBe(2);
    expect((await asCi('rollout', 'plan', 'signup', '--clear', '--steps', '1,5', '--dwell', '5m')).code).toBe(2);
    expect((await asCi('rollout', 'plan', 'signup', '--steps', '1,5')).code).toBe(2);
    expect((await asCi('rollout', 'plan', 'signup', '--wait')).code).toBe(2);
    expect((await asCi('release', 'signup', candidate, '--clear')).code).toBe(2);
    expect(
      (await runTool(['rollout', 'signup', candidate, '--reason', 'x', '--wait'], { SG_ROLLOUT_POLL_S: '0' })).code,
    ).toBe(2);
  });
});
