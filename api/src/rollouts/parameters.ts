// The decision rule's parameters: their defaults, in this one place, and how the API's
// configuration (environment) sets them. Tests set small samples and short dwells the same way
// production would, through the environment: no code path of its own (docs/rollouts.md).

export type LowTrafficPolicy = 'advance' | 'hold';

export interface RolloutRuleParameters {
  /** Error bound of each one-sided test, whatever the number of looks: a false rollback, or a false advance past the margin. */
  readonly alpha: number;
  /** Signed page views each arm needs before any decision (the normal approximation needs some). */
  readonly minViews: number;
  /** Minutes after the canary started after which the low-traffic policy applies. */
  readonly maxDwellMinutes: number;
  /** At the maximum dwell, with no failure signal: advance, or keep holding for a person. */
  readonly lowTraffic: LowTrafficPolicy;
  /** Error rate: the rise (absolute) the canary must be shown to stay under to advance. */
  readonly errorMargin: number;
  /** Error rate: the mixing scale τ of the mSPRT, about the size of rise worth catching quickly. */
  readonly errorTau: number;
  /** Vitals: the rise of the share of page views above the live build's p75 (25 % when unchanged) shown absent to advance. */
  readonly vitalMargin: number;
  /** Vitals: the mixing scale τ for that share. */
  readonly vitalTau: number;
}

export const DEFAULT_ROLLOUT_RULE: RolloutRuleParameters = {
  alpha: 0.05,
  minViews: 200,
  maxDwellMinutes: 12 * 60,
  lowTraffic: 'advance',
  errorMargin: 0.01,
  errorTau: 0.02,
  vitalMargin: 0.1,
  vitalTau: 0.1,
};

type Environment = Readonly<Record<string, string | undefined>>;

function number(env: Environment, name: string, fallback: number, min: number, max: number, integer = false): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  const shaped = integer ? /^[0-9]+$/.test(value) : /^[0-9]*\.?[0-9]+(e-?[0-9]+)?$/i.test(value);
  if (!shaped || !Number.isFinite(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

/** The rule's parameters from the environment (ROLLOUT_*), each defaulting to DEFAULT_ROLLOUT_RULE's. */
export function rolloutRuleFromEnv(env: Environment): RolloutRuleParameters {
  const d = DEFAULT_ROLLOUT_RULE;
  const lowTraffic = env.ROLLOUT_LOW_TRAFFIC || d.lowTraffic;
  if (lowTraffic !== 'advance' && lowTraffic !== 'hold') {
    throw new Error(`ROLLOUT_LOW_TRAFFIC must be advance or hold, got "${lowTraffic}"`);
  }
  return {
    alpha: number(env, 'ROLLOUT_ALPHA', d.alpha, 0.0001, 0.5),
    minViews: number(env, 'ROLLOUT_MIN_VIEWS', d.minViews, 1, 1_000_000, true),
    maxDwellMinutes: number(env, 'ROLLOUT_MAX_DWELL_MINUTES', d.maxDwellMinutes, 1, 60 * 24 * 90, true),
    lowTraffic,
    errorMargin: number(env, 'ROLLOUT_ERROR_MARGIN', d.errorMargin, 0.0001, 1),
    errorTau: number(env, 'ROLLOUT_ERROR_TAU', d.errorTau, 0.0001, 1),
    vitalMargin: number(env, 'ROLLOUT_VITAL_MARGIN', d.vitalMargin, 0.0001, 0.75),
    vitalTau: number(env, 'ROLLOUT_VITAL_TAU', d.vitalTau, 0.0001, 1),
  };
}
