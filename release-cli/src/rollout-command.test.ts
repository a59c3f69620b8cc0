import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Rollout, RolloutDetail } from '@special-gift/shared/api';
import { UsageError } from './arguments';
import { runReleaseTool } from './release-tool';
import { parseRollout, planFromOptions, rolloutPollMs } from './rollout-command';

const BUILD = 'bbbbbbbbbbb2';

const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('rollout command lines', () => {
  it('starts with the remote default plan, or one built from --steps and --dwell', () => {
    expect(parseRollout(['signup', BUILD], { reason: 'new card scan', wait: true })).toEqual({
      kind: 'start',
      request: { remote: 'signup', buildId: BUILD, reason: 'new card scan' },
      wait: true,
      json: false,
    });
    const steps = parseRollout(['signup', BUILD], {
      reason: 'x',
      steps: '1,5,25,50',
      dwell: '30m',
      'approve-promote': 'yes',
      json: true,
    });
    expect(steps).toMatchObject({ kind: 'start', wait: false, json: true });
    expect(steps.kind === 'start' && steps.request.plan).toEqual({
      steps: [1, 5, 25, 50].map((percent) => ({ percent, minDwell: '30m' })),
      promote: { approval: true },
      minNewViewsPerStep: 20,
      lowTraffic: 'advance',
    });
  });

  it('reads status and the controls, each control with its reason', () => {
    expect(parseRollout(['status', 'signup'], { json: true })).toEqual({
      kind: 'status',
      remote: 'signup',
      json: true,
    });
    expect(parseRollout(['approve', 'signup'], { reason: 'looks good' })).toEqual({
      kind: 'control',
      control: 'approve',
      remote: 'signup',
      reason: 'looks good',
      json: false,
    });
  });

  it('reads `plan`: show, set from the same options a start takes, or --clear', () => {
    expect(parseRollout(['plan', 'signup'], {})).toEqual({
      kind: 'plan',
      remote: 'signup',
      plan: undefined,
      reason: '',
      json: false,
    });
    expect(parseRollout(['plan', 'signup'], { steps: '1,5', dwell: '10m', reason: 'slower' })).toMatchObject({
      kind: 'plan',
      plan: { steps: [1, 5].map((percent) => ({ percent, minDwell: '10m' })), promote: { approval: false } },
      reason: 'slower',
    });
    expect(parseRollout(['plan', 'signup'], { clear: true, json: true })).toMatchObject({ plan: null, json: true });
    expect(usage(() => parseRollout(['plan', 'signup'], { clear: true, dwell: '5m' }))).toBe(
      'give --clear, or --dwell, not both',
    );
    expect(usage(() => parseRollout(['plan', 'signup'], { wait: true }))).toBe('--wait is for starting a rollout');
    expect(usage(() => parseRollout(['signup', BUILD], { clear: true, reason: 'x' }))).toBe(
      '--clear is for rollout plan',
    );
  });

  it('refuses what a person can mistype, before the API is asked', () => {
    expect(usage(() => parseRollout([], {}))).toBe('name a remote');
    expect(usage(() => parseRollout(['signup'], { reason: 'x' }))).toBe('name the build id');
    expect(usage(() => parseRollout(['nope', BUILD], { reason: 'x' }))).toMatch(/^unknown remote "nope"/);
    expect(usage(() => parseRollout(['signup', 'XYZ'], { reason: 'x' }))).toMatch(/is not a build id/);
    expect(usage(() => parseRollout(['signup', BUILD, 'more'], { reason: 'x' }))).toBe('unexpected argument "more"');
    expect(usage(() => parseRollout(['signup', BUILD], {}))).toBe('rollout needs --reason <text>');
    expect(usage(() => parseRollout(['pause', 'signup'], { reason: ' ' }))).toBe('rollout pause needs --reason <text>');
    expect(usage(() => parseRollout(['status'], {}))).toBe('name a remote');
    expect(usage(() => parseRollout(['status', 'signup', 'x'], {}))).toBe('unexpected argument "x"');
    expect(usage(() => parseRollout(['abort', 'signup'], { reason: 'x', wait: true }))).toBe(
      '--wait is for starting a rollout',
    );
  });

  it('checks --steps, --dwell, --plan and --approve-promote, and leaves the rest of a plan to the API', () => {
    const steps = (text: string) => usage(() => planFromOptions({ steps: text, dwell: '30m' }));
    for (const bad of ['', '1,,5', '0,5', '5,5', '25,5', '1,100', '1.5', 'a'])
      expect(steps(bad)).toBe(`--steps must be shares from 1 to 99 %, increasing, e.g. 1,5,25,50 (got "${bad}")`);
    for (const bad of ['30', '0m', '1d', '30 m', '-5m'])
      expect(usage(() => planFromOptions({ steps: '1', dwell: bad }))).toBe(
        `--dwell must be a duration like 90s, 30m or 2h (got "${bad}")`,
      );
    expect(planFromOptions({ steps: '1, 99', dwell: '90s' })?.steps).toEqual([
      { percent: 1, minDwell: '90s' },
      { percent: 99, minDwell: '90s' },
    ]);
    expect(usage(() => planFromOptions({ steps: '1' }))).toMatch(/^--steps needs --dwell/);
    expect(usage(() => planFromOptions({ dwell: '1m' }))).toBe('--dwell needs --steps');
    expect(usage(() => planFromOptions({ plan: 'p.json', steps: '1', dwell: '1m' }))).toBe(
      'give --plan, or --steps with --dwell, not both',
    );
    expect(usage(() => planFromOptions({ 'approve-promote': 'no', steps: '1', dwell: '1m' }))).toBe(
      '--approve-promote takes only yes',
    );
    expect(usage(() => planFromOptions({ 'approve-promote': 'yes' }))).toMatch(/needs --plan or --steps/);
    expect(planFromOptions({})).toBeUndefined();
  });

  it('sends a --plan file as it is (the API validates it), after a shape check that says what a plan looks like', () => {
    const plan = {
      steps: [{ percent: 10, minDwell: '1h', approval: true }],
      promote: { approval: false },
      minNewViewsPerStep: 50,
      lowTraffic: 'hold',
    };
    const files: Record<string, string> = {
      'plan.json': JSON.stringify(plan),
      'broken.json': '{"steps": [',
      'empty.json': '{"steps": []}',
      'words.json': '{"steps": [{"percent": "10", "minDwell": "1h"}]}',
    };
    const read = (file: string) => {
      const text = files[file];
      if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return text;
    };
    expect(planFromOptions({ plan: 'plan.json' }, read)).toEqual(plan);
    expect(planFromOptions({ plan: 'plan.json', 'approve-promote': 'yes' }, read)?.promote).toEqual({ approval: true });
    expect(usage(() => planFromOptions({ plan: 'missing.json' }, read))).toBe(
      'cannot read --plan missing.json (ENOENT)',
    );
    expect(usage(() => planFromOptions({ plan: 'broken.json' }, read))).toMatch(/^--plan broken.json is not JSON \(/);
    for (const file of ['empty.json', 'words.json'])
      expect(usage(() => planFromOptions({ plan: file }, read))).toMatch(
        new RegExp(`^--plan ${file} must hold a plan: \\{"steps": \\[\\{"percent": 1, "minDwell": "30m"\\}`),
      );
  });

  it('SG_ROLLOUT_POLL_S: seconds above 0 and at most 600, 10 by default', () => {
    expect(rolloutPollMs({})).toBe(10_000);
    expect(rolloutPollMs({ SG_ROLLOUT_POLL_S: '0.05' })).toBe(50);
    expect(rolloutPollMs({ SG_ROLLOUT_POLL_S: '600' })).toBe(600_000);
    for (const bad of ['0', '601', '10s', '-1'])
      expect(usage(() => rolloutPollMs({ SG_ROLLOUT_POLL_S: bad }))).toMatch(/^SG_ROLLOUT_POLL_S must be/);
  });
});

/**
 * A stand-in for the release API and the live host on one port (the real API's rollout routes are
 * tested with this tool in api/test/release-cli-rollout.test.ts): the remote's state, build-info.json,
 * a started rollout, and its detail taking the states of `progress` one read after another.
 */
async function standIn(progress: ReadonlyArray<Partial<RolloutDetail>>) {
  const requests: Array<{ method: string; url: string; channel: string; body: unknown }> = [];
  const rollout: Rollout = {
    id: '0123456789abcdef01234567',
    environment: 'production',
    remote: 'signup',
    buildId: BUILD,
    baselineBuild: 'aaaaaaaaaaa1',
    plan: {
      steps: [{ percent: 5, minDwell: '5m' }],
      promote: { approval: false },
      minNewViewsPerStep: 20,
      lowTraffic: 'advance',
    },
    planSource: 'request',
    state: 'gating',
    stepIndex: -1,
    percent: 0,
    version: 1,
    startedBy: 'operator',
    startedAt: '2026-11-28T10:00:00.000Z',
    stepStartedAt: null,
    trafficStartedAt: null,
    nextCheckAt: '2026-11-28T10:00:10.000Z',
    earliestAdvanceAt: null,
    finishedAt: null,
    outcomeReason: '',
  };
  let reads = 0;
  const detail = (): RolloutDetail => ({
    ...rollout,
    gates: [],
    approvals: [],
    lastCheck: null,
    events: [],
    ...progress[Math.min(reads++, progress.length - 1)],
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const url = req.url ?? '';
      requests.push({
        method: req.method ?? '',
        url,
        channel: String(req.headers['sg-channel']),
        body: text === '' ? undefined : JSON.parse(text),
      });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url === '/build-info.json') return answer(200, { contractMajor: 1, contractVersion: '1.0.0' });
      if (url.startsWith('/v1/releases/remotes/signup'))
        return answer(200, {
          pointer: null,
          revision: 3,
          builds: [{ buildId: BUILD, contractMajor: 1, purgedAt: null, sharedVersions: {} }],
          history: [],
          lock: null,
        });
      if (req.method === 'POST' && url === '/v1/rollouts') return answer(201, rollout);
      if (url.startsWith('/v1/rollouts?')) return answer(200, { rollouts: [{ ...rollout, version: 7 }] });
      if (req.method === 'POST' && url === `/v1/rollouts/${rollout.id}/approve`)
        return answer(403, {
          error: { code: 'forbidden', message: 'four eyes: a token other than the starter approves' },
        });
      if (req.method === 'POST' && url.startsWith(`/v1/rollouts/${rollout.id}/`))
        return answer(200, { ...rollout, state: 'paused', version: 8 });
      if (url === `/v1/rollouts/${rollout.id}`) return answer(200, detail());
      answer(404, { error: { code: 'not_found', message: `no ${url}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReleaseTool(argv, {
      workDir: '/nonexistent',
      env: { SG_RELEASE_API: url, SG_HOST_URL: url, SG_RELEASE_TOKEN: 't', SG_ROLLOUT_POLL_S: '0.01', CI: 'true' },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  return { run, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const event = (seq: number, kind: RolloutDetail['events'][number]['kind'], reason = '') => ({
  seq,
  at: `2026-11-28T10:0${seq}:00.000Z`,
  kind,
  stepIndex: null,
  percent: null,
  actor: seq === 1 ? 'operator' : 'rollout runner',
  reason,
});

describe('rollout against a stand-in API', () => {
  it('--wait: prints the timeline once per event as it grows, and exits 0 when the rollout succeeds', async () => {
    const api = await standIn([
      { events: [event(1, 'started', 'go')] },
      { state: 'stepping', events: [event(1, 'started', 'go'), event(2, 'gate-passed')] },
      {
        state: 'succeeded',
        finishedAt: '2026-11-28T11:00:00.000Z',
        events: [event(1, 'started', 'go'), event(2, 'gate-passed'), event(3, 'succeeded')],
      },
    ]);
    try {
      const run = await api.run(
        'rollout',
        'signup',
        BUILD,
        '--steps',
        '5',
        '--dwell',
        '5m',
        '--reason',
        'go',
        '--wait',
      );
      expect(run).toMatchObject({ code: 0, err: '' });
      expect(run.out.split('\n')).toEqual([
        expect.stringMatching(/^signup: rollout 0123456789abcdef01234567 of bbbbbbbbbbb2 started .*5 % → promote/),
        '2026-11-28T10:01:00.000Z started by operator: go',
        '2026-11-28T10:02:00.000Z gate-passed by rollout runner',
        '2026-11-28T10:03:00.000Z succeeded by rollout runner',
        'signup: rollout 0123456789abcdef01234567 succeeded: bbbbbbbbbbb2 is live',
      ]);
      // The contract checked against the host, the start posted once, from CI, with the plan built from the options.
      expect(api.requests.map((request) => `${request.method} ${request.url.split('?')[0]}`).slice(0, 3)).toEqual([
        'GET /v1/releases/remotes/signup',
        'GET /build-info.json',
        'POST /v1/rollouts',
      ]);
      expect(api.requests[2]).toMatchObject({
        channel: 'ci',
        body: { remote: 'signup', buildId: BUILD, reason: 'go', plan: { steps: [{ percent: 5, minDwell: '5m' }] } },
      });
    } finally {
      await api.close();
    }
  });

  it('--wait --json: stdout holds only the final rollout; a rollback exits 1 with its reason on stderr', async () => {
    const api = await standIn([
      { state: 'stepping' },
      { state: 'rolled_back', outcomeReason: 'errors 4 % against 1 %: harm proven', events: [event(1, 'rolled-back')] },
    ]);
    try {
      const run = await api.run('rollout', 'signup', BUILD, '--reason', 'go', '--wait', '--json');
      expect(run.code).toBe(1);
      expect(JSON.parse(run.out)).toMatchObject({ state: 'rolled_back' });
      expect(run.err.split('\n')).toEqual([
        '2026-11-28T10:01:00.000Z rolled-back by operator',
        'release: rollout 0123456789abcdef01234567 of signup rolled back: errors 4 % against 1 %: harm proven',
      ]);
    } finally {
      await api.close();
    }
  });

  it("a control sends the version it read as expectedVersion, once; a refusal (four eyes) exits 1 with the API's words", async () => {
    const api = await standIn([{}]);
    try {
      const paused = await api.run('rollout', 'pause', 'signup', '--reason', 'looking');
      expect(paused.code).toBe(0);
      expect(paused.out).toMatch(/^signup: rollout 0123456789abcdef01234567 paused: the share holds/);
      const post = api.requests.find((request) => request.method === 'POST');
      expect(post).toMatchObject({
        url: '/v1/rollouts/0123456789abcdef01234567/pause',
        body: { expectedVersion: 7, reason: 'looking' },
      });
      const approve = await api.run('rollout', 'approve', 'signup', '--reason', 'mine');
      expect(approve).toMatchObject({ code: 1 });
      expect(approve.err).toBe('release: refused: four eyes: a token other than the starter approves (403 forbidden)');
      expect(api.requests.filter((request) => request.url.endsWith('/approve'))).toHaveLength(1);
      const notRollout = await api.run('release', 'signup', BUILD, '--wait');
      expect(notRollout.code).toBe(2);
      expect(notRollout.err).toMatch(/^release: --wait is for rollout\n/);
      const usage = await api.run('rollout', 'skip', 'signup');
      expect(usage.code).toBe(2);
      expect(usage.err).toMatch(/^release: rollout skip needs --reason <text>\n\nUsage: sg-release/);
    } finally {
      await api.close();
    }
  });
});
