import { canaryVerdict, MIN_SESSIONS_PER_ARM, normalCdf, twoProportionZ, type ArmFigures } from './verdict';

const arm = (build: string, sessions: number, failedSessions: number, p75LCP = 2000, p75INP = 150): ArmFigures => ({
  build,
  sessions,
  failedSessions,
  p75LCP,
  p75INP,
});

/** A deterministic pseudo-random generator, so the simulated sessions are the same on every run. */
function random(seed: number): () => number {
  // mulberry32: small, and uniform enough for simulated coin flips.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function simulate(build: string, sessions: number, failureRate: number, next: () => number): ArmFigures {
  let failed = 0;
  for (let index = 0; index < sessions; index += 1) if (next() < failureRate) failed += 1;
  return arm(build, sessions, failed);
}

describe('canaryVerdict', () => {
  it('holds while either arm has fewer sessions than the minimum', () => {
    const verdict = canaryVerdict(arm('aaaaaaaaaaaa', MIN_SESSIONS_PER_ARM - 1, 300), arm('bbbbbbbbbbbb', 5000, 1));
    expect(verdict.decision).toBe('hold');
    expect(verdict.reasons[0]).toContain('aaaaaaaaaaaa has 609 sessions');
  });

  it('rolls back a canary with an injected failure rate (1% baseline, 4% canary)', () => {
    const next = random(42);
    const baseline = simulate('bbbbbbbbbbbb', 2000, 0.01, next);
    const canary = simulate('aaaaaaaaaaaa', 1000, 0.04, next);
    const verdict = canaryVerdict(canary, baseline);
    expect(verdict.decision).toBe('roll back');
    expect(verdict.pValue).toBeLessThan(0.05);
    expect(verdict.reasons.join(' ')).toMatch(/^Error rate/);
  });

  it('promotes a canary that fails as often as the baseline', () => {
    const next = random(7);
    const verdict = canaryVerdict(simulate('a', 2000, 0.01, next), simulate('b', 2000, 0.01, next));
    expect(verdict.decision).toBe('promote');
  });

  it('does not roll back for a significant but tiny rise (below the margin)', () => {
    const verdict = canaryVerdict(arm('a', 1_000_000, 13_000), arm('b', 1_000_000, 10_000));
    expect(verdict.pValue).toBeLessThan(0.001);
    expect(verdict.decision).toBe('promote');
  });

  it('rolls back when p75 INP or LCP is more than 20% worse', () => {
    expect(canaryVerdict(arm('a', 1000, 10, 2000, 181), arm('b', 1000, 10, 2000, 150)).decision).toBe('roll back');
    expect(canaryVerdict(arm('a', 1000, 10, 2500, 150), arm('b', 1000, 10, 2000, 150)).decision).toBe('roll back');
    expect(canaryVerdict(arm('a', 1000, 10, 2390, 179), arm('b', 1000, 10, 2000, 150)).decision).toBe('promote');
  });

  it('promotes when neither arm failed at all (the test is undefined, not significant)', () => {
    const verdict = canaryVerdict(arm('a', 1000, 0), arm('b', 1000, 0));
    expect(verdict.z).toBeNull();
    expect(verdict.decision).toBe('promote');
  });
});

describe('the statistics', () => {
  it('normalCdf matches known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.645)).toBeCloseTo(0.95, 3);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 3);
  });

  it('twoProportionZ: 30/1000 against 10/1000', () => {
    const test = twoProportionZ({ failed: 30, n: 1000 }, { failed: 10, n: 1000 });
    // pooled 2%, se = sqrt(0.02 * 0.98 * 0.002) = 0.00626; z = 0.02 / 0.00626
    expect(test?.z).toBeCloseTo(3.194, 2);
    expect(test?.pValue).toBeLessThan(0.001);
  });
});
