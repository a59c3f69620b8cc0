import { DEFAULT_ROLLOUT_RULE, rolloutRuleFromEnv, type RolloutRuleParameters } from './parameters';
import { decide, viewsToAdvance, whatWouldChange, type RuleInput } from './rule';

const none = { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } };
const input = (
  canary: [number, number],
  live: [number, number],
  elapsedMinutes = 60,
  vitals: Partial<RuleInput['vitals']> = {},
): RuleInput => ({
  errors: { canary: { events: canary[0], trials: canary[1] }, live: { events: live[0], trials: live[1] } },
  vitals: { LCP: none, INP: none, CLS: none, ...vitals },
  elapsedMinutes,
});
const rule: RolloutRuleParameters = DEFAULT_ROLLOUT_RULE;

describe('decide', () => {
  it('holds under the minimum views, even past the maximum dwell', () => {
    const result = decide(input([0, 150], [0, 150], 10_000), rule);
    expect(result.decision).toBe('hold');
    expect(result.reasons).toEqual([
      'The canary build has 150 signed page views; each needs 200 before a decision.',
      'The live build has 150 signed page views; each needs 200 before a decision.',
    ]);
    expect(whatWouldChange(input([0, 150], [0, 150]), rule, result)[0]).toMatch(/^200 signed page views per arm/);
  });

  it('rolls back a canary failing 3 % against 1 % at 1,000 page views per arm', () => {
    const result = decide(input([30, 1000], [10, 1000]), rule);
    expect(result.decision).toBe('rollback');
    expect(result.reasons[0]).toMatch(/^Error rate 3\.00% against 1\.00% \(harm: log Λ = \d+\.\d\d, always-valid p = /);
  });

  it('holds identical arms, then advances them once no harm beyond the margin is proven', () => {
    expect(decide(input([10, 1000], [10, 1000]), rule).decision).toBe('hold');
    const held = decide(input([10, 1000], [10, 1000]), rule);
    const change = whatWouldChange(input([10, 1000], [10, 1000]), rule, held);
    const needed = Number(/at about (\d+) signed page views per arm/.exec(change[0] ?? '')?.[1]);
    expect(needed).toBeGreaterThan(1000);
    // At that many page views per arm, with the same rates, the rule advances.
    const more = decide(input([needed / 100, needed], [needed / 100, needed]), rule);
    expect(more.decision).toBe('advance');
    expect(change[1]).toBe(
      'In 660 minutes the maximum dwell is reached: then an advance if no metric leans towards harm (its harm p-value at 1).',
    );
  });

  it('at the maximum dwell, advances with no failure signal, or holds under the hold policy', () => {
    expect(decide(input([3, 400], [4, 400], 720), rule).decision).toBe('advance');
    expect(decide(input([3, 400], [4, 400], 719), rule).decision).toBe('hold');
    expect(decide(input([3, 400], [4, 400], 720), { ...rule, lowTraffic: 'hold' }).decision).toBe('hold');
    // A canary leaning towards harm (not proven) is not advanced by the dwell.
    expect(decide(input([8, 400], [4, 400], 720), rule).decision).toBe('hold');
  });

  it('judges the vitals as the share above the live p75, and only with enough reports', () => {
    const slow = { canary: { events: 400, trials: 1000 }, live: { events: 250, trials: 1000 } };
    const result = decide(input([10, 1000], [10, 1000], 60, { LCP: slow }), rule);
    expect(result.decision).toBe('rollback');
    expect(result.reasons[0]).toMatch(/^Share of page views above the live build's p75 LCP 40\.00% against 25\.00%/);
    const few = { canary: { events: 100, trials: 100 }, live: { events: 25, trials: 100 } };
    const skipped = decide(input([10, 1000], [10, 1000], 60, { INP: few }), rule);
    expect(skipped.decision).toBe('hold');
    expect(skipped.metrics.find((metric) => metric.metric === 'INP')?.state).toBe('not judged');
  });

  it('says the rates seen now never advance when the rise is at the margin', () => {
    expect(
      viewsToAdvance({ canary: { events: 20, trials: 1000 }, live: { events: 10, trials: 1000 } }, 0.01, 0.02, 0.05),
    ).toBeNull();
  });
});

describe('rolloutRuleFromEnv', () => {
  it('defaults to DEFAULT_ROLLOUT_RULE and reads every ROLLOUT_* setting', () => {
    expect(rolloutRuleFromEnv({})).toEqual(DEFAULT_ROLLOUT_RULE);
    expect(
      rolloutRuleFromEnv({
        ROLLOUT_ALPHA: '0.01',
        ROLLOUT_MIN_VIEWS: '20',
        ROLLOUT_MAX_DWELL_MINUTES: '5',
        ROLLOUT_LOW_TRAFFIC: 'hold',
        ROLLOUT_ERROR_MARGIN: '0.02',
        ROLLOUT_ERROR_TAU: '0.05',
        ROLLOUT_VITAL_MARGIN: '0.2',
        ROLLOUT_VITAL_TAU: '0.2',
      }),
    ).toEqual({
      alpha: 0.01,
      minViews: 20,
      maxDwellMinutes: 5,
      lowTraffic: 'hold',
      errorMargin: 0.02,
      errorTau: 0.05,
      vitalMargin: 0.2,
      vitalTau: 0.2,
    });
  });

  it.each([
    ['ROLLOUT_ALPHA', '0.9'],
    ['ROLLOUT_ALPHA', 'five'],
    ['ROLLOUT_MIN_VIEWS', '2.5'],
    ['ROLLOUT_LOW_TRAFFIC', 'promote'],
  ])('refuses %s=%s with a clear error', (name, value) => {
    expect(() => rolloutRuleFromEnv({ [name]: value })).toThrow(new RegExp(`^${name} must be`));
  });
});
