// One-sided mixture sequential probability ratio tests (mSPRT) for a difference of two proportions,
// made to be checked after every page view, or every minute, without inflating false alarms
// (Johari, Pekelis & Walsh, "Always valid inference", Operations Research 2022; the normal
// approximation Optimizely's Stats Engine uses). Pure: the verdict route and the simulation share it.
//
// With θ = p(canary) − p(live), θ̂ its estimate and V the variance of θ̂, the likelihood ratio of θ
// against θ₀ is exp(((θ − θ₀)(θ̂ − θ₀) − (θ − θ₀)²/2) / V). Mixed over a prior on θ − θ₀ it stays a
// (super)martingale under the null, so by Ville's inequality P(it ever reaches 1/α) ≤ α, however
// often it is looked at. The usual mixture is N(0, τ²), which is two-sided; here the prior is the
// half-normal on one side only (θ − θ₀ ≥ 0 with density 2·N(0, τ²)), because only one direction
// calls for action. Integrating gives the closed form in `mixtureLikelihoodRatio`. Under a null
// θ < θ₀ every component ratio is a supermartingale, so the composite one-sided null is covered.

/** The standard normal CDF, through `erfc` so that its lower tail keeps its relative precision. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Complementary error function (Numerical Recipes' erfcc, relative error < 1.2e-7 everywhere). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** log Φ(x), kept finite far in the lower tail (Mills' ratio), where Φ itself underflows. */
export function logNormalCdf(x: number): number {
  if (x > -30) return Math.log(normalCdf(x));
  return (-x * x) / 2 - Math.log(-x) - 0.5 * Math.log(2 * Math.PI);
}

/**
 * log Λ of the one-sided half-normal mixture: the evidence that θ − θ₀ > 0 given an estimate whose
 * excess over θ₀ is `excess` (θ̂ − θ₀) with variance `variance`, mixing scale `tau`.
 * Λ = 2·√(V/(V+τ²))·exp(τ²d²/(2V(V+τ²)))·Φ(τd/√(V(V+τ²))), d = θ̂ − θ₀.
 */
export function logMixtureLikelihoodRatio(excess: number, variance: number, tau: number): number {
  if (!(variance > 0) || !(tau > 0)) throw new RangeError('variance and tau must be positive');
  const tau2 = tau * tau;
  const total = variance + tau2;
  return (
    Math.LN2 +
    0.5 * Math.log(variance / total) +
    (tau2 * excess * excess) / (2 * variance * total) +
    logNormalCdf((tau * excess) / Math.sqrt(variance * total))
  );
}

/** A proportion observed: `events` of `trials`. */
export interface Count {
  readonly events: number;
  readonly trials: number;
}

/**
 * θ̂ = p̂(canary) − p̂(live), and the variance used for it: each arm's p(1−p)/n with the
 * Agresti-Caffo adjustment (one event and one non-event added to each arm), so an arm with no
 * events yet does not claim a variance of zero.
 */
export function difference(canary: Count, live: Count): { estimate: number; variance: number } {
  if (canary.trials <= 0 || live.trials <= 0) throw new RangeError('each arm needs at least one trial');
  const adjusted = ({ events, trials }: Count) => (events + 1) / (trials + 2);
  const pc = adjusted(canary);
  const pl = adjusted(live);
  return {
    estimate: canary.events / canary.trials - live.events / live.trials,
    variance: (pc * (1 - pc)) / (canary.trials + 2) + (pl * (1 - pl)) / (live.trials + 2),
  };
}

export interface OneSidedTest {
  /** log Λ, the mixture likelihood ratio's logarithm: the test's statistic. */
  readonly logLikelihoodRatio: number;
  /** The always-valid p-value at this look, min(1, 1/Λ): below α at any look rejects with error ≤ α. */
  readonly pValue: number;
}

const oneSided = (excess: number, variance: number, tau: number): OneSidedTest => {
  const logLikelihoodRatio = logMixtureLikelihoodRatio(excess, variance, tau);
  return { logLikelihoodRatio, pValue: Math.min(1, Math.exp(-logLikelihoodRatio)) };
};

/** Harm: H₀ θ ≤ 0 (the canary no worse) against θ > 0. Rejecting it proves the canary worse. */
export const harmTest = (canary: Count, live: Count, tau: number): OneSidedTest => {
  const { estimate, variance } = difference(canary, live);
  return oneSided(estimate, variance, tau);
};

/** Safety: H₀ θ ≥ margin (harm of at least `margin`) against θ < margin. Rejecting it proves no such harm. */
export const safetyTest = (canary: Count, live: Count, margin: number, tau: number): OneSidedTest => {
  const { estimate, variance } = difference(canary, live);
  return oneSided(margin - estimate, variance, tau);
};
