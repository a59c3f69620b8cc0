import { defaultPlan, durationSeconds, parsePlan } from './plan';

const limits = { minDwellSeconds: 300, lowTraffic: 'advance' as const };
const step = (percent: number, minDwell = '5m') => ({ percent, minDwell });

describe('parsePlan', () => {
  it.each([
    ['30s', 30],
    ['5m', 300],
    ['2h', 7200],
    ['0m', null],
    ['5', null],
    ['1.5h', null],
    ['5 m', null],
  ])('durationSeconds(%s) = %s', (text, seconds) => expect(durationSeconds(text)).toBe(seconds));

  it('fills the defaults: promote without approval, 20 fresh views, the rule’s low-traffic policy', () => {
    expect(parsePlan({ steps: [step(1), step(50, '1h')] }, { ...limits, lowTraffic: 'hold' })).toEqual({
      ok: true,
      plan: {
        steps: [step(1), step(50, '1h')],
        promote: { approval: false },
        minNewViewsPerStep: 20,
        lowTraffic: 'hold',
      },
    });
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', [1], /must be an object/],
    ['no steps', { steps: [] }, /1 to 10 steps/],
    ['eleven steps', { steps: Array.from({ length: 11 }, (_, i) => step(i + 1)) }, /1 to 10 steps/],
    ['100 %', { steps: [step(100)] }, /from 1 to 99/],
    ['0 %', { steps: [step(0)] }, /from 1 to 99/],
    ['a fraction', { steps: [step(2.5)] }, /from 1 to 99/],
    ['falling', { steps: [step(5), step(5)] }, /rise strictly: 5 then 5/],
    ['under the floor', { steps: [step(1, '299s')] }, /299 s, under this API's floor of 300 s/],
    ['a bad duration', { steps: [step(1, 'soon')] }, /duration like 30s/],
    ['a week and a bit', { steps: [step(1, '169h')] }, /at most 7 days/],
    ['approval not boolean', { steps: [{ ...step(1), approval: 'yes' }] }, /approval must be true or false/],
    ['an unknown field', { steps: [step(1)], alpha: 0.5 }, /unknown field `alpha`/],
    ['promote wrong', { steps: [step(1)], promote: true }, /promote must be/],
    ['no fresh views', { steps: [step(1)], minNewViewsPerStep: 0 }, /no data, no advance/],
    ['a policy unknown', { steps: [step(1)], lowTraffic: 'maybe' }, /advance or hold/],
  ])('refuses %s', (_, plan, problem) => {
    const parsed = parsePlan(plan, limits);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.problems.join(' ')).toMatch(problem);
  });

  it('the default plan passes its own validation, never under the floor', () => {
    expect(parsePlan(defaultPlan(limits), limits)).toEqual({ ok: true, plan: defaultPlan(limits) });
    const high = { minDwellSeconds: 7200, lowTraffic: 'advance' as const };
    expect(defaultPlan(high).steps.map((s) => s.minDwell)).toEqual(['7200s', '7200s', '7200s', '7200s']);
    expect(parsePlan(defaultPlan(high), high).ok).toBe(true);
  });
});
