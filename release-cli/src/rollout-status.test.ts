import type { CanaryDecisionAnswer } from '@special-gift/shared/telemetry';
import type { RolloutDetail } from '@special-gift/shared/api';
import { describeRollout, formatDuration, formatEvent, formatRolloutStatus, rolloutExitCode } from './rollout-status';

const decision: CanaryDecisionAnswer = {
  remote: 'signup',
  since: '2026-11-28T10:10:00.000Z',
  until: '2026-11-28T10:40:00.000Z',
  elapsedMinutes: 30,
  decision: 'hold',
  reasons: ['Error rate 1.00% against 1.00%: not yet decided.'],
  whatWouldChange: ['Error rate: safe at about 900 signed page views per arm.'],
  arms: {
    canary: { build: 'bbbbbbbbbbb2', sessions: 100, failedSessions: 1, p75: { LCP: 2000, INP: 150, CLS: 0.05 } },
    baseline: { build: 'aaaaaaaaaaa1', sessions: 300, failedSessions: 3, p75: { LCP: 2000, INP: 150, CLS: 0.05 } },
  },
  metrics: [
    {
      metric: 'errors',
      judged: true,
      canary: { events: 1, trials: 100 },
      baseline: { events: 3, trials: 300 },
      liveP75: null,
      margin: 0.01,
      harm: { logLikelihoodRatio: -0.2, pValue: 1 },
      safety: { logLikelihoodRatio: 0.5, pValue: 0.6 },
      state: 'open',
    },
  ],
  rule: {
    alpha: 0.05,
    minViews: 200,
    maxDwellMinutes: 720,
    lowTraffic: 'advance',
    errorMargin: 0.01,
    errorTau: 0.02,
    vitalMargin: 0.1,
    vitalTau: 0.1,
  },
};

/** A rollout at its second share (5 %), 20 minutes into a 30-minute dwell, the third share needing an approval. */
const stepping: RolloutDetail = {
  id: '0123456789abcdef01234567',
  environment: 'production',
  remote: 'signup',
  buildId: 'bbbbbbbbbbb2',
  baselineBuild: 'aaaaaaaaaaa1',
  plan: {
    steps: [
      { percent: 1, minDwell: '30m' },
      { percent: 5, minDwell: '30m' },
      { percent: 25, minDwell: '1h', approval: true },
    ],
    promote: { approval: false },
    minNewViewsPerStep: 20,
    lowTraffic: 'advance',
  },
  planSource: 'remote-default',
  state: 'stepping',
  stepIndex: 1,
  percent: 5,
  version: 9,
  startedBy: 'signup CI',
  startedAt: '2026-11-28T10:00:00.000Z',
  stepStartedAt: '2026-11-28T10:40:00.000Z',
  trafficStartedAt: '2026-11-28T10:10:00.000Z',
  nextCheckAt: '2026-11-28T11:00:10.000Z',
  earliestAdvanceAt: '2026-11-28T11:10:00.000Z',
  finishedAt: null,
  outcomeReason: '',
  gates: [
    {
      gate: 'contract',
      state: 'passed',
      attempts: 1,
      startedAt: '2026-11-28T10:00:01.000Z',
      finishedAt: '2026-11-28T10:00:01.400Z',
      reason: 'host 1.0.0 provides 1.0.0',
      detail: null,
    },
    {
      gate: 'integrity',
      state: 'passed',
      attempts: 1,
      startedAt: '2026-11-28T10:00:02.000Z',
      finishedAt: '2026-11-28T10:00:05.000Z',
      reason: '41 files match',
      detail: null,
    },
    {
      gate: 'acceptance',
      state: 'passed',
      attempts: 2,
      startedAt: '2026-11-28T10:01:00.000Z',
      finishedAt: '2026-11-28T10:09:30.000Z',
      reason: 'two runs clean',
      detail: null,
    },
  ],
  events: [
    {
      seq: 1,
      at: '2026-11-28T10:00:00.000Z',
      kind: 'started',
      stepIndex: null,
      percent: null,
      actor: 'signup CI',
      reason: 'new card scan',
    },
    {
      seq: 2,
      at: '2026-11-28T10:10:00.000Z',
      kind: 'step',
      stepIndex: 0,
      percent: 1,
      actor: 'rollout runner',
      reason: '',
    },
    {
      seq: 3,
      at: '2026-11-28T10:40:00.000Z',
      kind: 'step',
      stepIndex: 1,
      percent: 5,
      actor: 'rollout runner',
      reason: 'advance',
    },
  ],
  approvals: [{ stepIndex: 2, requestedAt: '2026-11-28T10:40:00.000Z', approvedBy: null, approvedAt: null }],
  lastCheck: { decision, newViewsThisStep: 12 },
};

const NOW = new Date('2026-11-28T11:00:00.000Z');

describe('rollout status', () => {
  it('prints the rollout, its gates with their time, its steps with dwell left and approvals, the rule and the timeline', () => {
    const text = formatRolloutStatus(stepping, NOW);
    const lines = text.split('\n');
    expect(lines.slice(0, 16)).toEqual([
      'signup: rollout 0123456789abcdef01234567 of bbbbbbbbbbb2, against live aaaaaaaaaaa1 (production)',
      'State: step 2 of 3 at 5 % (version 9)',
      'Started by signup CI at 2026-11-28T10:00:00.000Z',
      'Next check 2026-11-28T11:00:10.000Z (in 10 s); this step may advance from 2026-11-28T11:10:00.000Z (in 10 min)',
      '',
      'Gates',
      'gate        state   tries  took   reason',
      'contract    passed  1      0 s    host 1.0.0 provides 1.0.0',
      'integrity   passed  1      3 s    41 files match',
      'acceptance  passed  2      9 min  two runs clean',
      '',
      "Steps (the remote's default plan)",
      'step     share  dwell  approval   progress',
      '1        1 %    30m               done',
      '2        5 %    30m               now: 10 min of dwell left',
      '3        25 %   1h     requested',
    ]);
    expect(lines[16]).toBe('promote  100 %');
    // The rule's last answer, as `telemetry verdict` prints it, with the step's fresh views.
    expect(text).toContain(
      'Rule at 2026-11-28T10:40:00.000Z: 12 new signed canary page views in this step\nmetric  canary',
    );
    expect(text).toContain('HOLD (signup)\n- Error rate 1.00% against 1.00%: not yet decided.');
    expect(lines.slice(-4)).toEqual([
      'seq  at                        event    step  share  by              reason',
      '1    2026-11-28T10:00:00.000Z  started               signup CI       new card scan',
      '2    2026-11-28T10:10:00.000Z  step     1     1 %    rollout runner',
      '3    2026-11-28T10:40:00.000Z  step     2     5 %    rollout runner  advance',
    ]);
  });

  it('an ended rollout: when and why, the share it ended at, no next check; a gate still running shows for how long', () => {
    const rolledBack: RolloutDetail = {
      ...stepping,
      state: 'rolled_back',
      percent: 0,
      nextCheckAt: null,
      earliestAdvanceAt: null,
      finishedAt: '2026-11-28T10:55:00.000Z',
      outcomeReason: 'error rate 4.0 % against 1.0 %: harm proven',
      lastCheck: null,
      gates: [{ ...stepping.gates[0]!, state: 'running', finishedAt: null, reason: '' }],
    };
    const lines = formatRolloutStatus(rolledBack, NOW).split('\n');
    expect(lines.slice(1, 4)).toEqual([
      'State: rolled back: error rate 4.0 % against 1.0 %: harm proven (version 9)',
      'Started by signup CI at 2026-11-28T10:00:00.000Z',
      'Ended at 2026-11-28T10:55:00.000Z',
    ]);
    expect(lines).toContain('contract  running  1      running 1 h');
    expect(lines).toContain('2        5 %    30m               ended here');
    expect(lines.some((line) => line.startsWith('Rule at'))).toBe(false);
  });

  it('says where the plan came from, and that it is not known for a rollout of before it was recorded', () => {
    const heading = (detail: RolloutDetail) =>
      formatRolloutStatus(detail, NOW)
        .split('\n')
        .find((line) => line.startsWith('Steps ('));
    expect(heading({ ...stepping, planSource: 'request' })).toBe('Steps (its own plan)');
    expect(heading({ ...stepping, planSource: 'built-in' })).toBe("Steps (the API's built-in plan)");
    expect(heading({ ...stepping, planSource: null })).toBe('Steps (plan source not recorded)');
  });

  it('a paused rollout, one awaiting approval, and a succeeded one: each step says where it stands', () => {
    const progressOf = (detail: RolloutDetail) => {
      const lines = formatRolloutStatus(detail, NOW).split('\n');
      const from = lines.findIndex((line) => line.startsWith('Steps (')) + 2;
      return lines.slice(from, lines.indexOf('', from));
    };
    expect(progressOf({ ...stepping, state: 'paused' })[1]).toMatch(/paused here$/);
    expect(progressOf({ ...stepping, state: 'awaiting_approval' })[1]).toMatch(/awaiting approval$/);
    const approved = {
      ...stepping,
      approvals: [{ ...stepping.approvals[0]!, approvedBy: 'operator', approvedAt: '2026-11-28T10:45:00.000Z' }],
    };
    expect(progressOf(approved)[2]).toMatch(/approved by operator$/);
    const done = progressOf({ ...stepping, state: 'succeeded', stepIndex: 3, finishedAt: '2026-11-28T12:00:00.000Z' });
    expect(done.map((line) => line.split(/ +/).at(-1))).toEqual(['done', 'done', 'done', 'done']);
  });

  it('describes a rollout in one line, and a timeline event with its step, share and actor', () => {
    expect(describeRollout({ ...stepping, state: 'gating', stepIndex: -1, percent: 0 })).toBe(
      'at the gates (no user has it yet)',
    );
    expect(describeRollout({ ...stepping, state: 'succeeded' })).toBe('succeeded: bbbbbbbbbbb2 is live');
    expect(describeRollout({ ...stepping, state: 'aborted', outcomeReason: 'incident 7' })).toBe('aborted: incident 7');
    expect(formatEvent(stepping.events[2]!)).toBe(
      '2026-11-28T10:40:00.000Z step (step 2, 5 %) by rollout runner: advance',
    );
    const atGates = { ...stepping.events[0]!, kind: 'gate-passed' as const, stepIndex: -1, actor: 'gate runner' };
    expect(formatEvent({ ...atGates, reason: 'contract' })).toBe(
      '2026-11-28T10:00:00.000Z gate-passed by gate runner: contract',
    );
    expect(formatEvent(stepping.events[0]!)).toBe('2026-11-28T10:00:00.000Z started by signup CI: new card scan');
  });

  it('durations in the unit a person reads', () => {
    expect([400, 59_400, 90_000, 3_600_000, 5_400_000, -5].map(formatDuration)).toEqual([
      '0 s',
      '59 s',
      '2 min',
      '1 h',
      '1 h 30 min',
      '0 s',
    ]);
  });
});

describe("--wait's exit code", () => {
  it('is 0 for succeeded, 1 for rolled back, failed and aborted, and none while the rollout is under way', () => {
    expect(rolloutExitCode('succeeded')).toBe(0);
    for (const state of ['rolled_back', 'failed', 'aborted'] as const) expect(rolloutExitCode(state)).toBe(1);
    for (const state of ['gating', 'stepping', 'awaiting_approval', 'paused'] as const)
      expect(rolloutExitCode(state)).toBeUndefined();
  });
});
