import { difference, harmTest, logMixtureLikelihoodRatio, normalCdf, safetyTest } from './sequential';

/**
 * The mixture likelihood ratio by direct numerical integration: the Gaussian likelihood ratio of
 * each θ > 0 weighted by the half-normal prior 2·N(0, τ²), summed on a fine grid (Simpson's rule).
 */
function integrated(excess: number, variance: number, tau: number): number {
  const steps = 20_000;
  const top = 12 * tau;
  const h = top / steps;
  const f = (theta: number) =>
    Math.exp((theta * excess - (theta * theta) / 2) / variance) *
    (2 / (tau * Math.sqrt(2 * Math.PI))) *
    Math.exp(-(theta * theta) / (2 * tau * tau));
  let sum = f(0) + f(top);
  for (let i = 1; i < steps; i += 1) sum += f(i * h) * (i % 2 === 1 ? 4 : 2);
  return (sum * h) / 3;
}

describe('the one-sided mixture likelihood ratio', () => {
  it.each([
    [0, 1e-4, 0.02],
    [0.01, 1e-4, 0.02],
    [0.02, 4e-5, 0.02],
    [-0.01, 1e-4, 0.02],
    [0.05, 4e-4, 0.1],
  ])('matches the numerical integral (excess %p, variance %p, tau %p)', (excess, variance, tau) => {
    const closed = Math.exp(logMixtureLikelihoodRatio(excess, variance, tau));
    expect(closed / integrated(excess, variance, tau)).toBeCloseTo(1, 5);
  });

  it('is √(V/(V+τ²)) at no difference: the prior spread over θ > 0 pays for itself', () => {
    expect(Math.exp(logMixtureLikelihoodRatio(0, 1e-4, 0.02))).toBeCloseTo(Math.sqrt(1e-4 / (1e-4 + 4e-4)), 6);
  });

  it('stays finite far in the lower tail, where Φ underflows (Mills ratio: 2·√(V/(V+τ²))·φ(x)/|x|·e^(x²/2))', () => {
    const x = (0.02 * -1) / Math.sqrt(1e-6 * (1e-6 + 4e-4));
    const expected = Math.log((2 * Math.sqrt(1e-6 / (1e-6 + 4e-4))) / Math.sqrt(2 * Math.PI) / -x);
    expect(logMixtureLikelihoodRatio(-1, 1e-6, 0.02)).toBeCloseTo(expected, 4);
  });

  it('refuses a variance or tau that is not positive', () => {
    expect(() => logMixtureLikelihoodRatio(0, 0, 0.02)).toThrow(RangeError);
    expect(() => logMixtureLikelihoodRatio(0, 1e-4, 0)).toThrow(RangeError);
  });
});

describe('normalCdf', () => {
  it.each([
    [0, 0.5],
    [1.6448536, 0.95],
    [-1.959964, 0.025],
    [-5, 2.866515718791939e-7],
  ])('Φ(%p) = %p', (x, expected) => {
    expect(normalCdf(x) / expected).toBeCloseTo(1, 5);
  });
});

describe('the harm and safety tests on error rates', () => {
  it('do not reject on identical arms', () => {
    const arm = { events: 20, trials: 2000 };
    expect(harmTest(arm, arm, 0.02).pValue).toBe(1);
    expect(harmTest(arm, arm, 0.02).logLikelihoodRatio).toBeLessThan(0);
  });

  it('reject a rise from 1 % to 3 % at 1,000 page views per arm, not at 200', () => {
    expect(harmTest({ events: 30, trials: 1000 }, { events: 10, trials: 1000 }, 0.02).pValue).toBeLessThan(0.05);
    expect(harmTest({ events: 6, trials: 200 }, { events: 2, trials: 200 }, 0.02).pValue).toBeGreaterThan(0.05);
  });

  it('never prove harm for a canary doing better', () => {
    expect(harmTest({ events: 5, trials: 5000 }, { events: 50, trials: 5000 }, 0.02).pValue).toBe(1);
  });

  it('prove no harm beyond the margin only with enough page views', () => {
    const live = (trials: number) => ({ events: trials / 100, trials });
    expect(safetyTest(live(500), live(500), 0.01, 0.02).pValue).toBeGreaterThan(0.05);
    expect(safetyTest(live(5000), live(5000), 0.01, 0.02).pValue).toBeLessThan(0.05);
  });

  it('use the Agresti-Caffo variance, positive even with no events', () => {
    const { estimate, variance } = difference({ events: 0, trials: 100 }, { events: 0, trials: 100 });
    expect(estimate).toBe(0);
    expect(variance).toBeCloseTo((2 * ((1 / 102) * (101 / 102))) / 102, 12);
    expect(() => difference({ events: 0, trials: 0 }, { events: 0, trials: 1 })).toThrow(RangeError);
  });
});
