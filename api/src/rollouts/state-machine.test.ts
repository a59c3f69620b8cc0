import type { RolloutPlan } from '@special-gift/shared/api';
import type { RuleResult } from './rule';
import { earliestAdvanceAt, nextAction, type MachineFacts, type MachineRollout } from './state-machine';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const plan: RolloutPlan = {
  steps: [
    { percent: 1, minDwell: '60s' },
    { percent: 5, minDwell: '60s', approval: true },
  ],
  promote: { approval: false },
  minNewViewsPerStep: 10,
  lowTraffic: 'advance',
};
const rule = (decision: RuleResult['decision']): RuleResult => ({
  decision,
  reasons: [`rule says ${decision}`],
  metrics: [],
});
const passed = { state: 'passed' as const, reason: '' };
const gatesPassed = { contract: passed, integrity: passed, acceptance: passed };
const stepping: MachineRollout = {
  state: 'stepping',
  stepIndex: 0,
  stepStartedAt: T0,
  plan,
  pointerRevision: 3,
  skipRequested: false,
};
const facts: MachineFacts = {
  gates: gatesPassed,
  currentRevision: 3,
  locked: false,
  rule: rule('advance'),
  newViewsThisStep: 10,
  approval: 'none',
  staleReported: false,
  blockedReported: false,
  gateRunnerOff: null,
  maxDwellPassed: false,
};
const pending = { state: 'pending' as const, reason: '' };
const gating: MachineRollout = { ...stepping, state: 'gating', stepIndex: -1, stepStartedAt: null };

describe('nextAction', () => {
  it.each<[string, MachineRollout, Partial<MachineFacts>, number, object]>([
    [
      'the contract gate first',
      gating,
      { gates: { contract: pending, integrity: pending, acceptance: pending } },
      0,
      { kind: 'check-contract' },
    ],
    [
      'the gate runner next',
      gating,
      { gates: { ...gatesPassed, integrity: pending } },
      0,
      { kind: 'wait', reason: expect.stringMatching(/integrity gate waits for the gate runner/) },
    ],
    [
      'no gate runner: it waits, saying why',
      gating,
      { gates: { ...gatesPassed, acceptance: pending }, gateRunnerOff: 'GATE_RUNNER_TOKEN is not set' },
      0,
      { kind: 'wait', reason: expect.stringMatching(/acceptance gate waits: GATE_RUNNER_TOKEN is not set/) },
    ],
    [
      'a failed gate fails it',
      gating,
      { gates: { ...gatesPassed, acceptance: { state: 'failed', reason: 'page error' } } },
      0,
      { kind: 'fail', reason: 'The acceptance gate failed: page error' },
    ],
    ['gates passed: the first share', gating, {}, 0, { kind: 'set-share', stepIndex: 0, percent: 1, skipped: false }],
    ['gates passed, locked: blocked once', gating, { locked: true }, 0, { kind: 'blocked' }],
    [
      'then held quietly',
      gating,
      { locked: true, blockedReported: true },
      0,
      { kind: 'wait', reason: expect.stringMatching(/locked/) },
    ],
    [
      'dwell not over: wait',
      stepping,
      {},
      59,
      { kind: 'wait', reason: expect.stringMatching(/Dwelling at 1 % until 2026-01-01T00:01:00/) },
    ],
    [
      'harm rolls back before the dwell',
      stepping,
      { rule: rule('rollback') },
      5,
      { kind: 'rollback', reasons: ['rule says rollback'] },
    ],
    [
      'harm rolls back while paused',
      { ...stepping, state: 'paused' },
      { rule: rule('rollback') },
      5,
      { kind: 'rollback', reasons: ['rule says rollback'] },
    ],
    [
      'harm rolls back while locked',
      stepping,
      { rule: rule('rollback'), locked: true },
      5,
      { kind: 'rollback', reasons: ['rule says rollback'] },
    ],
    [
      'paused holds',
      { ...stepping, state: 'paused' },
      {},
      120,
      { kind: 'wait', reason: expect.stringMatching(/Paused/) },
    ],
    [
      'no data, no advance',
      stepping,
      { newViewsThisStep: 9 },
      60,
      { kind: 'wait', reason: expect.stringMatching(/9 fresh signed.*10 needed/) },
    ],
    [
      'telemetry stopped past twice the dwell: stale once',
      stepping,
      { newViewsThisStep: 0 },
      120,
      { kind: 'telemetry-stale' },
    ],
    [
      'then held',
      stepping,
      { newViewsThisStep: 0, staleReported: true },
      120,
      { kind: 'wait', reason: expect.stringMatching(/no data/) },
    ],
    ['the rule holds', stepping, { rule: rule('hold') }, 60, { kind: 'wait', reason: 'rule says hold' }],
    [
      'low-traffic hold past the max dwell: a person decides',
      { ...stepping, plan: { ...plan, lowTraffic: 'hold' } },
      { rule: rule('hold'), maxDwellPassed: true },
      60,
      { kind: 'wait', reason: expect.stringMatching(/policy hold: a person decides/) },
    ],
    ['advance into a step needing approval: ask', stepping, {}, 60, { kind: 'request-approval', stepIndex: 1 }],
    [
      'asked: wait',
      { ...stepping, state: 'awaiting_approval' },
      { approval: 'requested' },
      60,
      { kind: 'wait', reason: expect.stringMatching(/approval of 5 %/) },
    ],
    [
      'approved: take it',
      { ...stepping, state: 'awaiting_approval' },
      { approval: 'approved' },
      60,
      { kind: 'set-share', stepIndex: 1, percent: 5, skipped: false },
    ],
    ['the last step advances to promote', { ...stepping, stepIndex: 1 }, {}, 60, { kind: 'promote', skipped: false }],
    [
      'skip ignores the dwell and the rule',
      { ...stepping, stepIndex: 1, skipRequested: true },
      { rule: rule('hold'), newViewsThisStep: 0 },
      1,
      { kind: 'promote', skipped: true },
    ],
    [
      'skip never skips an approval',
      { ...stepping, skipRequested: true },
      { rule: rule('hold') },
      1,
      { kind: 'request-approval', stepIndex: 1 },
    ],
    ['a pointer moved by hand ends it', stepping, { currentRevision: 4 }, 60, { kind: 'moved-by-hand' }],
    ['also at the gates', gating, { currentRevision: 4 }, 0, { kind: 'moved-by-hand' }],
  ])('%s', (_, rollout, changed, seconds, expected) => {
    expect(nextAction(rollout, { ...facts, ...changed }, at(seconds))).toEqual(expected);
  });

  it('earliestAdvanceAt is the step start plus its dwell', () => {
    expect(earliestAdvanceAt(stepping)).toEqual(at(60));
    expect(earliestAdvanceAt(gating)).toBeNull();
  });
});
